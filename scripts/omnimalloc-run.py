#!/usr/bin/env python3
"""Plans a problem in MiniMalloc's CSV form (times whole numbers or vector
clocks, `3:0:17`) with one of OmniMalloc's allocators that take vector
clocks (the PyPI package `omnimalloc`, Apache-2.0), for BENCHMARKS.md's
side-by-side on `ConcurrentTilingSource` (its SuperMalloc takes only
intervals).

    scripts/omnimalloc-run.py PROBLEM.csv ALLOCATOR

ALLOCATOR: a class of `omnimalloc.allocators` at its defaults, such as
OmniAllocator or SimulatedAnnealingAllocator. Prints `height CPU_SECONDS`
(the process's user + system CPU time of the allocation).
"""
import csv
import resource
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        from omnimalloc._cpp import Allocation
        import omnimalloc.allocators as allocators
    except ImportError:
        sys.exit("needs the `omnimalloc` package: pip install omnimalloc")
    allocator = getattr(allocators, sys.argv[2], None)
    if allocator is None:
        sys.exit(f"no allocator {sys.argv[2]!r} in omnimalloc.allocators")

    def clock(text):
        parts = [int(c) for c in text.split(":")]
        return parts[0] if len(parts) == 1 else tuple(parts)

    with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    allocations = tuple(
        Allocation(int(r["id"]), int(r["size"]), clock(r["lower"]), clock(r["upper"]))
        for r in rows
    )
    before = resource.getrusage(resource.RUSAGE_SELF)
    placed = allocator().allocate(allocations)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{max(a.offset + a.size for a in placed)} {cpu:.2f}")


if __name__ == "__main__":
    main()
