#!/usr/bin/env python3
"""Writes a static allocation problem in MiniMalloc's CSV form whose optimum
is known: the rectangle [0, T) x [0, C) cut by random guillotine cuts (in time
or in space, on 1 KiB steps) into N buffers. Every time is filled to C, so
the lower bound and the optimum are both C (1,048,576).

With STRIPS (default 1), time is first cut into that many strips, each
tiled on its own with its share of the N buffers: a longer problem made of
independent parts (nothing crosses from one strip into the next), as the
tilings of 1,000 to 2,500 buffers of the planner's benchmark at graph scale.

    scripts/guillotine-problems.py N SEED [STRIPS] [OPTIONS] > problem.csv

Options vary the construction (the defaults are the one above): --span T
(time is [0, T), default 1,000,000), --time-odds P (the odds of a cut in
time rather than in bytes, default 0.5), --unit BYTES (the size floor and
step of a cut in bytes, default 1,024) and --pick RULE (which piece is cut
next: `large`, one of the larger half by area, the default; `area`, drawn
with odds by area; `any`, drawn evenly). --solution FILE also writes the
plan the buffers were cut from, at the optimum, in `arena-plan`'s output
form (id,lower,upper,size,offset): where a planner stays above the optimum,
it tells which of its joins or placements the cut does not have.
"""
import random
import sys


def tile(rng, n, t0, t1, capacity, unit, odds=0.5, pick="large"):
    """n rectangles tiling [t0, t1) x [0, capacity)."""
    rects = [(t0, t1, 0, capacity)]
    tries = 0
    while len(rects) < n:
        tries += 1
        if tries > 100 * n + 1000:
            sys.exit(f"cannot cut {n} pieces with unit {unit} over [{t0}, {t1})")
        area = lambda r: (r[1] - r[0]) * (r[3] - r[2])
        if pick == "large":
            # One of the larger half of the pieces.
            rects.sort(key=area)
            k = rng.randrange(len(rects) // 2, len(rects))
        elif pick == "area":
            k = rng.choices(range(len(rects)), weights=[area(r) for r in rects])[0]
        else:
            k = rng.randrange(len(rects))
        a0, a1, o0, o1 = rects.pop(k)
        if rng.random() < odds and a1 - a0 >= 2:
            cut = rng.randrange(a0 + 1, a1)
            rects += [(a0, cut, o0, o1), (cut, a1, o0, o1)]
        elif (o1 - o0) // unit >= 2:
            cut = o0 + unit * rng.randrange(1, (o1 - o0) // unit)
            rects += [(a0, a1, o0, cut), (a0, a1, cut, o1)]
        else:
            rects.append((a0, a1, o0, o1))
    return rects


def problem(n, seed, strips=1, times=1_000_000, capacity=1_048_576, unit=1024,
            odds=0.5, pick="large"):
    rng = random.Random(seed)
    if strips == 1:
        rects = tile(rng, n, 0, times, capacity, unit, odds, pick)
    else:
        # Strip boundaries, and each strip's share of the buffers (at least
        # one each), about in proportion to its length.
        cuts = sorted(rng.sample(range(1, times), strips - 1))
        edges = [0] + cuts + [times]
        rects = []
        left = n
        for i in range(strips):
            t0, t1 = edges[i], edges[i + 1]
            share = left - (strips - 1 - i) if i == strips - 1 else max(
                1, min(left - (strips - 1 - i), round(n * (t1 - t0) / times)))
            rects += tile(rng, share, t0, t1, capacity, unit, odds, pick)
            left -= share
    rng.shuffle(rects)
    return rects


def csv(rects, offsets=False):
    """The buffers in MiniMalloc's form, with their offsets if asked."""
    extra = lambda o0: f",{o0}" if offsets else ""
    lines = ["id,lower,upper,size" + (",offset" if offsets else "")]
    lines += [f"{k},{t0},{t1},{o1 - o0}" + extra(o0) for k, (t0, t1, o0, o1) in enumerate(rects)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("strips", type=int, nargs="?", default=1)
    ap.add_argument("--span", type=int, default=1_000_000)
    ap.add_argument("--time-odds", type=float, default=0.5)
    ap.add_argument("--unit", type=int, default=1024)
    ap.add_argument("--pick", choices=["large", "area", "any"], default="large")
    ap.add_argument("--solution", metavar="FILE")
    a = ap.parse_args()
    if a.n < 1 or a.strips < 1 or a.strips > a.n or a.span < a.strips or a.unit < 1:
        sys.exit(__doc__)
    rects = problem(a.n, a.seed, a.strips, a.span, 1_048_576, a.unit,
                    a.time_odds, a.pick)
    if a.solution:
        with open(a.solution, "w") as out:
            out.write(csv(rects, offsets=True))
    sys.stdout.write(csv(rects))
