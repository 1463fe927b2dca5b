#!/usr/bin/env python3
"""Writes the adversarial family of the reliability probe in MiniMalloc's CSV
form: N heavily overlapping buffers, starts uniform in [0, 100,000), lengths
in [1, 100,000], sizes 1 to 65,536. Greedy is far above the bound and every
search node meets most of the buffers: a test of what the budget bounds.

    scripts/adversarial-problems.py N SEED > problem.csv

With a third argument `colive`, every buffer meets every other (each range
holds the time 100,000: starts in [0, 100,000), ends in (100,000, 200,000]),
the family where greedy's walk over the placed buffers was quadratic:

    scripts/adversarial-problems.py 30000 1 colive > problem.csv

With `onespan`, every buffer lives over the one span [0, 1): a perfect
packing to the search, with a pair for every two buffers.

With `scattered [PHASES [LONGEST]]`, starts uniform in [0, PHASES) (default
100,000), lengths in [1, LONGEST] (default 2,000): buffers scattered in
time, each meeting a few in a hundred, too crowded for greedy's buckets of
time, where its walk over the placed buffers passed most of them:

    scripts/adversarial-problems.py 50000 1 scattered > problem.csv
    scripts/adversarial-problems.py 1000000 1 scattered 1000000 1000 > problem.csv
"""
import random
import sys


def problem(n, seed, colive=False, onespan=False, scattered=None):
    rng = random.Random(seed)
    lines = ["id,lower,upper,size"]
    for k in range(n):
        if onespan:
            lines.append(f"{k},0,1,{rng.randint(1, 65_536)}")
            continue
        if scattered:
            phases, longest = scattered
            lower = rng.randrange(0, phases)
            upper = lower + rng.randint(1, longest)
            lines.append(f"{k},{lower},{upper},{rng.randint(1, 65_536)}")
            continue
        lower = rng.randrange(0, 100_000)
        if colive:
            upper = 100_001 + rng.randrange(0, 100_000)
        else:
            upper = lower + rng.randint(1, 100_000)
        lines.append(f"{k},{lower},{upper},{rng.randint(1, 65_536)}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    mode = sys.argv[3] if len(sys.argv) > 3 else ""
    scattered = None
    if mode == "scattered":
        phases = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
        longest = int(sys.argv[5]) if len(sys.argv) > 5 else 2_000
        if phases < 1 or longest < 1:
            sys.exit("scattered: PHASES and LONGEST are at least 1")
        scattered = (phases, longest)
    elif mode not in ("", "colive", "onespan"):
        sys.exit(f"unknown mode {mode!r}: colive, onespan or scattered")
    sys.stdout.write(problem(n, seed, mode == "colive", mode == "onespan", scattered))
