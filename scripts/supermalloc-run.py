#!/usr/bin/env python3
"""Plans a problem in MiniMalloc's CSV form with OmniMalloc's SuperMalloc
(the PyPI package `omnimalloc`, Apache-2.0: `pip install omnimalloc`), for
BENCHMARKS.md's side-by-side with `arena-plan`.

    scripts/supermalloc-run.py PROBLEM.csv [TIMEOUT_S] [THREADS]

Prints `height CPU_SECONDS` (the process's user + system CPU time, every
thread counted). TIMEOUT_S: SuperMalloc's wall-clock budget (default 3,
its own default); THREADS: its threads (default 1).
"""
import csv
import resource
import sys


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    try:
        from omnimalloc._cpp import Allocation
        from omnimalloc.allocators.supermalloc import SupermallocAllocator
    except ImportError:
        sys.exit("needs the `omnimalloc` package: pip install omnimalloc")
    with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))

    def clock(text):
        # A vector clock (OmniMalloc's `3:0:17`) or a whole number.
        parts = [int(c) for c in text.split(":")]
        return parts[0] if len(parts) == 1 else tuple(parts)

    allocations = tuple(
        Allocation(int(r["id"]), int(r["size"]), clock(r["lower"]), clock(r["upper"]))
        for r in rows
    )
    before = resource.getrusage(resource.RUSAGE_SELF)
    result = SupermallocAllocator(timeout=timeout, num_threads=threads).solve(allocations)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{result.peak} {cpu:.2f}")


if __name__ == "__main__":
    main()
