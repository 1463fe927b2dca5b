#!/usr/bin/env python3
"""How often the blocks of `plan/search/sides.rs` are the runs of a plan with
no byte free: at each phase boundary, the buffers that end there and those
that start cover the same bytes, in runs where both sides change at once; the
blocks are the smallest sets of equal sums (one set of the buffers that end,
one of those that start), joined where they share a buffer.

    scripts/sums-at-boundaries.py SOLUTION.csv [...]

SOLUTION.csv: `arena-plan --output` of a perfect packing planned at its bound
(columns id,lower,upper,size,offset). Prints, for each file and in all, the
boundaries (with buffers on both sides and at most ten on each, as the
planner looks at), those whose blocks are the plan's runs, and the buffers
that start beside one that ends in another block (where the hint misleads).
"""
import itertools
import sys
from collections import defaultdict

MOST_SIDE = 10


def blocks(ending, starting, size):
    """Each buffer's block root, as `sides.rs` makes them."""
    def sums(ids):
        out = defaultdict(list)
        for r in range(1, len(ids) + 1):
            for c in itertools.combinations(ids, r):
                out[sum(size[i] for i in c)].append(frozenset(c))
        return out

    left, right = sums(ending), sums(starting)
    pairs = [a | b for t, sets in right.items() if t in left for b in sets for a in left[t]]
    pairs.sort(key=len)
    least = []
    for p in pairs:
        if not any(q <= p for q in least):
            least.append(p)
    root = {i: i for i in ending + starting}

    def find(i):
        while root[i] != i:
            i = root[i]
        return i

    for p in least:
        p = sorted(p)
        for i in p[1:]:
            a, b = find(p[0]), find(i)
            if a != b:
                root[max(a, b)] = min(a, b)
    return {i: find(i) for i in root}


def runs(ending, starting, offset, size):
    """Each buffer's run in the plan: between the heights where both sides
    have an edge."""
    edges = lambda ids: {offset[i] for i in ids} | {offset[i] + size[i] for i in ids}
    cuts = sorted(edges(ending) & edges(starting))
    return {i: max(k for k, c in enumerate(cuts) if c <= offset[i]) for i in ending + starting}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    total = [0, 0, 0, 0]
    for path in sys.argv[1:]:
        with open(path) as f:
            rows = [line.strip().split(",") for line in f][1:]
        lower = [int(r[1]) for r in rows]
        upper = [int(r[2]) for r in rows]
        size = [int(r[3]) for r in rows]
        offset = [int(r[4]) for r in rows]
        ends, starts = defaultdict(list), defaultdict(list)
        for i in range(len(rows)):
            ends[upper[i]].append(i)
            starts[lower[i]].append(i)
        counts = [0, 0, 0, 0]
        for t in sorted(set(ends) & set(starts)):
            e, s = ends[t], starts[t]
            if len(e) > MOST_SIDE or len(s) > MOST_SIDE:
                continue
            block = blocks(e, s, size)
            run = runs(e, s, offset, size)
            same = all((block[a] == block[b]) == (run[a] == run[b]) for a in run for b in run)
            counts[0] += 1
            counts[1] += same
            # A buffer that starts beside one that ends, in another block.
            for j in s:
                counts[3] += 1
                beside = [i for i in e if offset[i] <= offset[j] < offset[i] + size[i]]
                counts[2] += any(block[i] != block[j] for i in beside)
        print(f"{path}: {counts[1]} of {counts[0]} boundaries, "
              f"{counts[2]} of {counts[3]} buffers beside another block")
        total = [a + b for a, b in zip(total, counts)]
    print(f"in all: {total[1]} of {total[0]} boundaries ({100 * total[1] / max(total[0], 1):.1f} %), "
          f"{total[2]} of {total[3]} buffers beside another block")


if __name__ == "__main__":
    main()
