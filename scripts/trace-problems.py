#!/usr/bin/env python3
"""Writes a trace-like static allocation problem in MiniMalloc's CSV form:
200 long-lived buffers (weights, caches) over the whole time, then at about
every other time step an activation, most short-lived (1 to 8 steps), one in
ten longer (50 to 2,000). A synthetic stand-in for the traces of real graphs
(BENCHMARKS.md, the planner at graph scale).

    scripts/trace-problems.py TIMES SEED > problem.csv
"""
import random
import sys


def problem(times, seed):
    rng = random.Random(seed)
    lines = ["id,lower,upper,size"]
    k = 0
    for _ in range(200):
        lines.append(f"{k},0,{times},{rng.randint(1, 64) * 65536}")
        k += 1
    for t in range(times):
        if rng.random() < 0.5:
            life = rng.randint(1, 8) if rng.random() < 0.9 else rng.randint(50, 2000)
            size = rng.choice([1, 2, 4, 8, 16]) * rng.randint(1, 256) * 1024
            lines.append(f"{k},{t},{min(times, t + life)},{size}")
            k += 1
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    times = int(sys.argv[1]) if len(sys.argv) > 1 else 60_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sys.stdout.write(problem(times, seed))
