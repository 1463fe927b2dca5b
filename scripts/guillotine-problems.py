#!/usr/bin/env python3
"""Writes a static allocation problem in MiniMalloc's CSV form whose optimum
is known: the rectangle [0, T) x [0, C) cut by random guillotine cuts (in time
or in space, on 1 KiB steps) into N buffers. Every time is filled to C, so
the lower bound and the optimum are both C (1,048,576).

    scripts/guillotine-problems.py N SEED > problem.csv
"""
import random
import sys


def problem(n, seed, times=1_000_000, capacity=1_048_576, unit=1024):
    rng = random.Random(seed)
    rects = [(0, times, 0, capacity)]
    while len(rects) < n:
        # Cut one of the larger half of the pieces.
        rects.sort(key=lambda r: (r[1] - r[0]) * (r[3] - r[2]))
        t0, t1, o0, o1 = rects.pop(rng.randrange(len(rects) // 2, len(rects)))
        if rng.random() < 0.5 and t1 - t0 >= 2:
            cut = rng.randrange(t0 + 1, t1)
            rects += [(t0, cut, o0, o1), (cut, t1, o0, o1)]
        elif (o1 - o0) // unit >= 2:
            cut = o0 + unit * rng.randrange(1, (o1 - o0) // unit)
            rects += [(t0, t1, o0, cut), (t0, t1, cut, o1)]
        else:
            rects.append((t0, t1, o0, o1))
    rng.shuffle(rects)
    lines = ["id,lower,upper,size"]
    lines += [f"{k},{t0},{t1},{o1 - o0}" for k, (t0, t1, o0, o1) in enumerate(rects)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2])))
