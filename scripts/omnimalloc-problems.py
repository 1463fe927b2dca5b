#!/usr/bin/env python3
"""Writes a problem of known optimum from OmniMalloc's generators (the PyPI
package `omnimalloc`, Apache-2.0: `pip install omnimalloc`) in MiniMalloc's
CSV form, its rows shuffled (the generators list tiles in the order they were
cut, and a first fit in that order rebuilds a strip tiling exactly).

    scripts/omnimalloc-problems.py FAMILY BUFFERS SEED [MAKESPAN [THREADS]] > problem.csv

FAMILY: pinwheel, tiling or concurrent. The optimum (the generators'
capacity, 1 MiB) is printed on standard error. MAKESPAN: the generators'
span of time (default 1,048,576; at 1,024 many buffers share their start
and end times). `concurrent` is `ConcurrentTilingSource`: THREADS workers
(default 2) each tile their own band of the capacity on their own
timeline, joined by 16 messages; its buffers are timed by vector clocks
(`lower` and `upper` as components joined by `:`, OmniMalloc's own CSV
form), which `arena-plan` reads as they are: no linearisation keeps every
pair of buffers that may be live at once.
"""
import random
import sys


def main():
    if len(sys.argv) not in (4, 5, 6):
        sys.exit(__doc__)
    family, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    makespan = int(sys.argv[4]) if len(sys.argv) >= 5 else 1024 * 1024
    try:
        from omnimalloc.benchmark.sources import concurrent_tiling, pinwheel, tiling
    except ImportError:
        sys.exit("needs the `omnimalloc` package: pip install omnimalloc")
    sources = {
        "pinwheel": pinwheel.PinwheelSource,
        "tiling": tiling.TilingSource,
        "concurrent": concurrent_tiling.ConcurrentTilingSource,
    }
    if family not in sources:
        sys.exit(f"unknown family {family!r}: one of {', '.join(sources)}")
    extra = {}
    if family == "concurrent" and len(sys.argv) == 6:
        extra["num_threads"] = int(sys.argv[5])
    source = sources[family](num_allocations=n, makespan=makespan, seed=seed, **extra)

    def clock(t):
        return ":".join(map(str, t)) if isinstance(t, tuple) else str(t)

    rows = [(clock(a.start), clock(a.end), a.size) for a in source.get_allocations()]
    random.Random(seed).shuffle(rows)
    lines = ["id,lower,upper,size"]
    lines += [f"{k},{lo},{hi},{size}" for k, (lo, hi, size) in enumerate(rows)]
    sys.stdout.write("\n".join(lines) + "\n")
    print(f"optimum {source.get_known_optimum()}", file=sys.stderr)


if __name__ == "__main__":
    main()
