#!/usr/bin/env python3
"""Writes a hostile problem timed by vector clocks: N buffers whose two-
component clocks are drawn at random (each `lower` anywhere in a million
steps of each worker, each `upper` up to 50,000 steps after it in each
component), so that no two buffers share a clock (no worker to find) and
about half the pairs are unordered and meet. For BENCHMARKS.md's "Vector
clocks" (time against budget) and "Clocks that share nothing".

    scripts/random-clocks.py N SEED > problem.csv
"""
import random
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    lines = ["id,lower,upper,size"]
    for k in range(n):
        lower = [rng.randrange(1_000_000) for _ in range(2)]
        upper = [x + rng.randrange(1, 50_000) for x in lower]
        size = rng.randrange(1, 100_000)
        lines.append(f"{k},{lower[0]}:{lower[1]},{upper[0]}:{upper[1]},{size}")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
