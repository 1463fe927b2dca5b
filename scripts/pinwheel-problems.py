#!/usr/bin/env python3
"""Writes a problem of known optimum in MiniMalloc's CSV form: the rectangle
[0, 1,000,000) x [0, 1 MiB) of time x bytes cut into about N buffers by
pinwheels (a piece becomes a centre ringed by four blades that no straight
cut crosses, turning either way), on 1 KiB steps, rows shuffled. The
construction of `arena-runtime/tests/plan/tilings.rs`, written again here
with Python's generator. Every time is full to 1,048,576: the bound and the
optimum.

    scripts/pinwheel-problems.py N SEED [even|own] > problem.csv

even: opposite blades of one thickness (as OmniMalloc's PinwheelSource);
own (default): each blade of its own thickness.
"""
import random
import sys


def pinwheels(n, width, seed, even, unit=1024, height=1 << 20):
    rng = random.Random(seed)
    rects = [(0, width, 0, height)]
    stuck = 0
    while len(rects) + 4 <= n and stuck < 1000:
        rects.sort(key=lambda r: ((r[1] - r[0]) * (r[3] - r[2]), r[0], r[2]))
        half = len(rects) // 2
        k = half + rng.randrange(len(rects) - half)
        x0, x1, y0, y1 = rects[k]
        units = (y1 - y0) // unit
        if x1 - x0 < 3 or units < 3:
            stuck += 1
            continue
        rects.pop(k)
        if even:
            p = 1 + rng.randrange((x1 - x0 - 1) // 2)
            q = unit * (1 + rng.randrange((units - 1) // 2))
            a, b, c, d = x0 + p, x1 - p, y0 + q, y1 - q
        else:
            a = x0 + 1 + rng.randrange(x1 - x0 - 2)
            b = a + 1 + rng.randrange(x1 - a - 1)
            c = y0 + unit * (1 + rng.randrange(units - 2))
            d = c + unit * (1 + rng.randrange((y1 - c) // unit - 1))
        pieces = [(x0, b, y0, c), (b, x1, y0, d), (a, x1, d, y1), (x0, a, c, y1), (a, b, c, d)]
        mirror = rng.randrange(2) == 1
        rects += [
            (x0 + x1 - q2, x0 + x1 - p2, lo, hi) if mirror else (p2, q2, lo, hi)
            for (p2, q2, lo, hi) in pieces
        ]
    rng.shuffle(rects)
    return rects


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in ("even", "own")):
        sys.exit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    even = len(sys.argv) == 4 and sys.argv[3] == "even"
    lines = ["id,lower,upper,size"]
    for k, (a, b, lo, hi) in enumerate(pinwheels(n, 1_000_000, seed, even)):
        lines.append(f"{k},{a},{b},{hi - lo}")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
