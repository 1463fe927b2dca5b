#!/usr/bin/env python3
"""Writes a problem of known optimum from OmniMalloc's generators (the PyPI
package `omnimalloc`, Apache-2.0: `pip install omnimalloc`) in MiniMalloc's
CSV form, its rows shuffled (the generators list tiles in the order they were
cut, and a first fit in that order rebuilds a strip tiling exactly).

    scripts/omnimalloc-problems.py FAMILY BUFFERS SEED [MAKESPAN] > problem.csv

FAMILY: pinwheel or tiling. The optimum (the generators' capacity, 1 MiB) is
printed on standard error. MAKESPAN: the generators' span of time (default
1,048,576; at 1,024 many buffers share their start and end times).
`ConcurrentTilingSource` is not written: it times its buffers by vector
clocks, a partial order, and two buffers of concurrent workers may be live
at once in one order of events and not in another. MiniMalloc's form (one
interval of time a buffer) cannot say that; a linearisation would drop
those conflicts and let a plan share bytes the workers use at once.
"""
import random
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    family, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    makespan = int(sys.argv[4]) if len(sys.argv) == 5 else 1024 * 1024
    try:
        from omnimalloc.benchmark.sources import pinwheel, tiling
    except ImportError:
        sys.exit("needs the `omnimalloc` package: pip install omnimalloc")
    sources = {
        "pinwheel": pinwheel.PinwheelSource,
        "tiling": tiling.TilingSource,
    }
    if family not in sources:
        sys.exit(f"unknown family {family!r}: one of {', '.join(sources)}")
    source = sources[family](num_allocations=n, makespan=makespan, seed=seed)
    rows = [(a.start, a.end, a.size) for a in source.get_allocations()]
    random.Random(seed).shuffle(rows)
    lines = ["id,lower,upper,size"]
    lines += [f"{k},{lo},{hi},{size}" for k, (lo, hi, size) in enumerate(rows)]
    sys.stdout.write("\n".join(lines) + "\n")
    print(f"optimum {source.get_known_optimum()}", file=sys.stderr)


if __name__ == "__main__":
    main()
