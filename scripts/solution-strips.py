#!/usr/bin/env python3
"""The top-level strips of a plan at the optimum, each planned on its own:
where a part no time cut splits is a stack of strips in the plan a problem
was cut from (`guillotine-problems.py --solution`), is each strip, alone,
planned at the optimum? Where the part is not and its strips are, what the
planner misses is which pieces go together in a strip.

    scripts/solution-strips.py SOLUTION [--plan BIN] [--keep DIR] [--most K]

SOLUTION is `id,lower,upper,size,offset` (the plan at the optimum; a strip
keeps its rows in the order they are there). The
parts are the spans no piece crosses; in each part of more than K pieces
(default 100), the strips are cut at every byte no piece of the part
crosses. One line a part (its span, pieces, the strips' pieces), then one a
strip: its pieces, its height and `arena-plan`'s height over it (BIN
defaults to `target/release/arena-plan`, built first). `--keep DIR` keeps
each strip as a problem, `DIR/PART-STRIP.csv`.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import planrun


def parts(rows):
    """The pieces in runs of time that no piece crosses, in time order."""
    return planrun.runs(rows, lambda r: r[1], lambda r: r[2])


def strips(part):
    """The pieces of `part` cut at every byte that no piece crosses."""
    return planrun.runs(part, lambda r: r[4], lambda r: r[4] + r[3])


def height(binary, rows, keep):
    with open(keep, "w") as f:
        f.write("id,lower,upper,size\n")
        # In the solution's order (sorted by offset, a first fit would
        # rebuild the cut at once).
        f.writelines(f"{r[0]},{r[1]},{r[2]},{r[3]}\n" for r in sorted(rows, key=lambda r: r[5]))
    out = keep + ".out"
    _, top, _ = planrun.plan(binary, keep, out)
    os.remove(out)
    return top


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("solution")
    ap.add_argument("--plan", metavar="BIN")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--most", type=int, default=100, metavar="K")
    a = ap.parse_args()
    binary = planrun.binary(a.plan)
    try:
        with open(a.solution) as f:
            rows = [(r["id"], int(r["lower"]), int(r["upper"]), int(r["size"]),
                     int(r["offset"]), k) for k, r in enumerate(csv.DictReader(f))]
    except (OSError, KeyError, TypeError, ValueError) as e:
        sys.exit(f"{a.solution}: not a plan with columns id,lower,upper,size,offset "
                 f"of whole numbers ({e!r})")
    if not rows:
        sys.exit("no pieces")
    keep = a.keep or tempfile.mkdtemp()
    os.makedirs(keep, exist_ok=True)
    for k, part in enumerate(parts(rows)):
        if len(part) <= a.most:
            continue
        cut = strips(part)
        lo, hi = min(r[1] for r in part), max(r[2] for r in part)
        print(f"part {k} [{lo}, {hi}): {len(part)} pieces, strips of "
              + ", ".join(str(len(s)) for s in cut))
        for j, s in enumerate(cut):
            tall = max(r[4] + r[3] for r in s) - min(r[4] for r in s)
            try:
                got = height(binary, s, os.path.join(keep, f"{k}-{j}.csv"))
            except (OSError, subprocess.CalledProcessError) as e:
                sys.exit(f"part {k}, strip {j}: {binary} failed ({e})")
            ratio = f"{got / tall:.4f}" if tall else "-"
            print(f"  strip {j}: {len(s)} pieces, height {tall}, planned {ratio}")
        if not a.keep:
            for j in range(len(cut)):
                os.remove(os.path.join(keep, f"{k}-{j}.csv"))
    if not a.keep:
        os.rmdir(keep)


if __name__ == "__main__":
    main()
