#!/usr/bin/env python3
"""Writes a problem of known optimum from OmniMalloc's generators (the PyPI
package `omnimalloc`, Apache-2.0: `pip install omnimalloc`) in MiniMalloc's
CSV form, its rows shuffled (the generators list tiles in the order they were
cut, and a first fit in that order rebuilds a strip tiling exactly).

    scripts/omnimalloc-problems.py FAMILY BUFFERS SEED [MAKESPAN] > problem.csv

FAMILY: pinwheel or tiling. The optimum (the generators' capacity, 1 MiB) is
printed on standard error. (`ConcurrentTilingSource` times its buffers by
vector clocks, a partial order: it needs a linearisation first, not written
yet.)
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
