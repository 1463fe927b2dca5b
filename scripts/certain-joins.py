#!/usr/bin/env python3
"""The joins of a perfect packing that hold in every plan at its bound,
made until none is left, and the problem of the tiles they make: a
prototype, to measure how much of a strip tiling they rebuild before any
choice (BENCHMARKS.md, "Paths of one height, joins that are certain, and
fresh draws (stop 79)").

    scripts/certain-joins.py PROBLEM.csv [--write FILE]

In a plan with no byte free, the buffers that end at a time and those that
start there cover the same bytes (those that cross it keep theirs). So
where one tile ends at a time and one starts there, the two are at one
offset and of one size: joined side by side, they are a rectangle in every
plan at the bound. Where one ends and those that start all end together,
they fill its bytes: stacked, a rectangle too; the same the other way
round. Each join makes a tile of the rectangle; the rules run again on the
tiles until none applies. (A problem that is not a perfect packing breaks
the rules' premise: the script stops, naming the time.)

Prints `PROBLEM PIECES -> TILES`, the joins of each kind and the pieces of
the largest tiles. `--write FILE` writes the tiles as a problem
(`id,lower,upper,size`, in the order of each one's first row in PROBLEM):
a plan of it at the bound, each tile's pieces inside it, is one of
PROBLEM's.
"""
import argparse
import sys
from collections import Counter, defaultdict

import planrun


def closure(rows):
    """The tiles the certain joins leave: `(lower, upper, size, pieces,
    first row)` each, and the joins made, by kind."""
    tiles = {k: (lo, hi, size, 1, k) for k, (lo, hi, size) in enumerate(rows)}
    made, joins = len(rows), Counter()

    def new(lo, hi, size, parts):
        nonlocal made
        tiles[made] = (lo, hi, size, sum(tiles[k][3] for k in parts),
                       min(tiles[k][4] for k in parts))
        for k in parts:
            del tiles[k]
        made += 1
        return made - 1

    changed = True
    while changed:
        changed = False
        ends, starts = defaultdict(list), defaultdict(list)
        for k, (lo, hi, _, _, _) in tiles.items():
            ends[hi].append(k)
            starts[lo].append(k)
        # A tile joined at one time is not joined again in this pass.
        touched = set()
        for t in sorted(set(ends) & set(starts)):
            e, s = ends[t], starts[t]
            if touched & (set(e) | set(s)):
                continue
            size = lambda ks: sum(tiles[k][2] for k in ks)
            if size(e) != size(s):
                sys.exit(f"time {t}: the tiles that end and those that start differ in "
                         "bytes: not a perfect packing")
            if len(e) == 1 and len(s) == 1:
                a, b = e[0], s[0]
                touched |= {a, b, new(tiles[a][0], tiles[b][1], tiles[a][2], [a, b])}
                joins["side by side"] += 1
            elif len(e) == 1 and len({tiles[k][1] for k in s}) == 1:
                touched |= set(e) | set(s) | {new(t, tiles[s[0]][1], size(s), s)}
                joins["stacked, starting"] += 1
            elif len(s) == 1 and len({tiles[k][0] for k in e}) == 1:
                touched |= set(e) | set(s) | {new(tiles[e[0]][0], t, size(e), e)}
                joins["stacked, ending"] += 1
            else:
                continue
            changed = True
    return sorted(tiles.values(), key=lambda tile: tile[4]), joins


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("problem")
    ap.add_argument("--write", metavar="FILE")
    a = ap.parse_args()
    rows = planrun.problem(a.problem)
    tiles, joins = closure(rows)
    largest = sorted((tile[3] for tile in tiles), reverse=True)[:5]
    print(f"{a.problem} {len(rows)} -> {len(tiles)}  "
          + ", ".join(f"{kind} {n}" for kind, n in sorted(joins.items()))
          + f"  largest tiles: {largest} pieces")
    if a.write:
        with open(a.write, "w") as f:
            f.write("id,lower,upper,size\n")
            f.writelines(f"{k},{lo},{hi},{size}\n"
                         for k, (lo, hi, size, _, _) in enumerate(tiles))


if __name__ == "__main__":
    main()
