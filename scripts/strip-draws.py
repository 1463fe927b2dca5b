#!/usr/bin/env python3
"""Strip tilings of known optimum drawn across the options of
`guillotine-problems.py`, and how `arena-plan` plans them.

Each draw picks a construction at random (the buffers, the strips, the
span of time, the odds of a cut in time, the size floor and which piece is
cut next), writes the problem and plans it at the default budget:

    scripts/strip-draws.py COUNT SEED [--plan BIN] [--shuffle S] [--keep DIR] [--span T]
    scripts/strip-draws.py COUNT SEED --specs [--span T]

One line a draw: its name, the construction (the arguments of
`guillotine-problems.py`), the height over the optimum and the CPU seconds
of `arena-plan`; then how many are at the optimum, by which piece is cut.
`--shuffle S` shuffles the rows first (Python's `random.Random(S)`): the
same problem, another draw of the rebuild's orders. `--keep DIR` keeps the
problems. BIN defaults to `target/release/arena-plan` (built first).
`--span T` gives every draw the span T (at least 6, the most strips a draw
takes) instead of the one drawn, the other options those of the same seed:
with T 1000000, the issue's variations alone over `guillotine-problems.py`'s
default span. `--specs` only prints each draw's arguments of
`guillotine-problems.py`, one a line (`side-by-side.sh` plans them beside
SuperMalloc).
"""
import argparse
import importlib.util
import os
import random
import sys
import tempfile

import planrun

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "guillotine", os.path.join(HERE, "guillotine-problems.py"))
guillotine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(guillotine)

CAPACITY = 1_048_576


def draw(rng):
    """One construction: (n, strips, span, time odds, unit, pick)."""
    return (rng.choice([500, 800, 1200, 1600, 2000, 2300]), rng.randint(1, 6),
            rng.choice([600, 800, 1024, 1500, 2048, 4096, 65536, 1_000_000]),
            rng.choice([0.3, 0.4, 0.5, 0.6, 0.7]),
            rng.choice([1024, 1024, 2048, 4096, 16384]),
            rng.choice(["large", "area", "any"]))


def spec(seed, construction):
    """The arguments of `guillotine-problems.py` that write a draw."""
    n, strips, span, odds, unit, pick = construction
    return (f"{n} {seed} {strips} --span {span} --time-odds {odds} "
            f"--unit {unit} --pick {pick}")


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("count", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--plan", metavar="BIN")
    ap.add_argument("--shuffle", type=int, metavar="S")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--specs", action="store_true")
    ap.add_argument("--span", type=int, metavar="T")
    a = ap.parse_args()
    if a.span is not None and a.span < 6:
        ap.error("--span T: T is at least 6, the most strips a draw takes")

    def chosen(rng):
        construction = draw(rng)
        if a.span is None:
            return construction
        return construction[:2] + (a.span,) + construction[3:]

    if a.specs:
        rng = random.Random(a.seed)
        for k in range(a.count):
            print(spec(a.seed + k, chosen(rng)))
        return
    binary = planrun.binary(a.plan)
    work = a.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    rng = random.Random(a.seed)
    at, drawn = {}, {}
    for k in range(a.count):
        seed = a.seed + k
        construction = chosen(rng)
        n, strips, span, odds, unit, pick = construction
        args = spec(seed, construction)
        try:
            rects = guillotine.problem(n, seed, strips, span, CAPACITY, unit, odds, pick)
        except SystemExit as why:
            print(f"d{seed}  {args}  not drawn: {why}", flush=True)
            continue
        rows = guillotine.csv(rects).splitlines()
        if a.shuffle is not None:
            body = rows[1:]
            random.Random(a.shuffle).shuffle(body)
            rows = rows[:1] + body
        path = os.path.join(work, f"d{seed}.csv")
        with open(path, "w") as f:
            f.write("\n".join(rows) + "\n")
        _, height, cpu = planrun.plan(binary, path, os.path.join(work, f"d{seed}.out.csv"))
        print(f"d{seed}  {args}  {height / CAPACITY:.4f}  {cpu:.2f} s", flush=True)
        drawn[pick] = drawn.get(pick, 0) + 1
        at[pick] = at.get(pick, 0) + (height == CAPACITY)
    total = sum(at.values())
    by = ", ".join(f"{p} {at[p]} of {drawn[p]}" for p in sorted(drawn))
    print(f"at the optimum: {total} of {sum(drawn.values())} ({by})")


if __name__ == "__main__":
    sys.exit(main())
