#!/usr/bin/env python3
"""An exact search for a perfect packing, filled bottom up: a measure of how
hard a tiling is for a method that needs no joins (an experiment, not the
planner).

    scripts/fill-search.py PROBLEM.csv [--limit N] [--lowest] [--plain]
        [--stack-spans] [--solution SOLUTION.csv]

PROBLEM.csv is in MiniMalloc's form (id,lower,upper,size) and must be a
perfect packing: every time as full as the highest. Its parts (no buffer
crossing a boundary of time) are searched one by one, each until it is
filled or N nodes (default 20,000) are spent; a line per part says its
pieces, whether it was filled (`None`: the limit came first), the nodes
and the most pieces placed at once.

The search keeps the filled region as a skyline over the sections. A
*valley* is a run of sections at one level with higher ground (or the
part's edge) on both sides: the piece covering its left corner starts
there, sits on that level and ends inside the valley, so a node tries
those pieces (one of each end and size), in the valley with the fewest
(`--lowest`: the lowest, leftmost valley). Each valley must be covered by
a chain of unplaced pieces, end to start, from its left to its right
edge; each run with higher ground on its left must have an unplaced piece
starting there that fits. Unless `--plain`, each candidate is placed and
these checks run around it before it counts, and filled states that
failed are remembered. `--stack-spans` first stacks the pieces of one
span into one. `--solution` (the cut plan, with an offset column) keeps
to that plan: at each node, the rank of its piece among the candidates
is counted, which says how often the search's first choice is not the
plan's.
"""
import argparse
import csv
import sys
from collections import Counter, defaultdict


def load(path):
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        pieces = [(int(r["lower"]), int(r["upper"]), int(r["size"]), int(r["id"]))
                  for r in rows]
    except (OSError, KeyError, ValueError, TypeError) as e:
        sys.exit(f"{path}: not a problem in MiniMalloc's form (id,lower,upper,size): {e!r}")
    for s, e, h, k in pieces:
        if not s < e or h < 0:
            sys.exit(f"{path}: buffer {k} has lower {s}, upper {e} and size {h}")
    return pieces


def stack_spans(pieces):
    spans = defaultdict(int)
    for s, e, h, _ in pieces:
        spans[(s, e)] += h
    return [(s, e, h, k) for k, ((s, e), h) in enumerate(sorted(spans.items()))]


def parts(pieces):
    """The pieces split where no piece crosses a boundary of time."""
    out, cur, reach = [], [], None
    for p in sorted(pieces):
        if cur and p[0] >= reach:
            out.append(cur)
            cur = []
        reach = p[1] if not cur else max(reach, p[1])
        cur.append(p)
    if cur:
        out.append(cur)
    return out


class Fill:
    def __init__(self, pieces, height, args, plan=None):
        times = sorted({t for p in pieces for t in p[:2]})
        at = {t: i for i, t in enumerate(times)}
        self.m = len(times) - 1
        self.p = [(at[s], at[e], h, k) for s, e, h, k in pieces]
        self.height, self.args, self.plan = height, args, plan
        self.starts = defaultdict(list)
        for i, (s, e, h, _) in enumerate(self.p):
            self.starts[s].append(i)
        for s in self.starts:
            self.starts[s].sort(key=lambda i: (-self.p[i][1], -self.p[i][2]))
        self.used = [False] * len(self.p)
        self.sky = [0] * self.m
        self.placed = 0
        self.nodes = self.most = 0
        self.failed = set()
        self.counts = Counter()
        self.ranks = Counter()

    def chain(self, a, b):
        seen, todo = {a}, [a]
        while todo:
            x = todo.pop()
            if x == b:
                return True
            for i in self.starts.get(x, ()):
                e = self.p[i][1]
                if not self.used[i] and e <= b and e not in seen:
                    seen.add(e)
                    todo.append(e)
        return False

    def runs(self, lo, hi):
        """Runs with higher ground on the left that touch [lo, hi]:
        (a, b, r, y, valley), r the end of the ground at or below y."""
        sky, m = self.sky, self.m
        a = lo
        while a > 0 and sky[a - 1] == sky[a]:
            a -= 1
        out = []
        while a < m and a <= hi:
            y, b = sky[a], a + 1
            while b < m and sky[b] == y:
                b += 1
            if y < self.height and (a == 0 or sky[a - 1] > y):
                r = b
                while r < m and sky[r] <= y:
                    r += 1
                out.append((a, b, r, y, b == m or sky[b] > y))
            a = b
        return out

    def run_ok(self, a, b, r, y, valley):
        if valley:
            return self.chain(a, b)
        return any(not self.used[i] and self.p[i][1] <= r and y + self.p[i][2] <= self.height
                   for i in self.starts.get(a, ()))

    def put(self, i, d):
        s, e, h, k = self.p[i]
        self.used[i] = d > 0
        self.placed += d
        for x in range(s, e):
            self.sky[x] += d * h
        self.counts[(s, e, h)] += d

    def candidates(self, a, b, y):
        out, seen = [], set()
        for i in self.starts.get(a, ()):
            s, e, h, _ = self.p[i]
            if self.used[i] or e > b or y + h > self.height or (e, h) in seen:
                continue
            if not self.args.plain:
                self.put(i, 1)
                ok = all(self.run_ok(*run) for run in self.runs(max(0, s - 1), min(self.m - 1, e)))
                self.put(i, -1)
                if not ok:
                    continue
            seen.add((e, h))
            out.append(i)
        return out

    def choose(self):
        best = None
        for a, b, r, y, valley in self.runs(0, self.m - 1):
            if not self.run_ok(a, b, r, y, valley):
                return None
            if not valley:
                continue
            cands = self.candidates(a, b, y)
            if not cands:
                return None
            if best is None or len(cands) < len(best[2]):
                best = (a, y, cands)
            if self.args.lowest:
                break
        return best

    def keep_to_plan(self, a, y, cands):
        """The candidate the plan has at (a, y), its twin swapped in."""
        truth = [i for i in self.starts[a] if not self.used[i] and self.plan[self.p[i][3]] == y]
        if not truth:
            return []
        t = truth[0]
        same = [r for r, i in enumerate(cands) if self.p[i][1:3] == self.p[t][1:3]]
        if not same:
            return []
        self.ranks[same[0]] += 1
        i = cands[same[0]]
        ki, kt = self.p[i][3], self.p[t][3]
        self.plan[ki], self.plan[kt] = self.plan[kt], self.plan[ki]
        return [i]

    def search(self):
        """True (filled), False (no fill), None (limit)."""
        # An explicit stack of [level, candidates, the one placed, state].
        stack = []
        while True:
            self.nodes += 1
            if self.nodes > self.args.limit:
                return None
            if self.placed == len(self.p):
                return True
            key = (tuple(self.sky), frozenset((+self.counts).items()))
            choice = None if key in self.failed else self.choose()
            if choice is not None and self.plan is not None:
                choice = (choice[0], choice[1], self.keep_to_plan(*choice))
            if choice is not None and choice[2]:
                stack.append([choice[1], choice[2], 0, key])
            else:
                if not self.args.plain:
                    self.failed.add(key)
                # Back up to a node with a candidate left.
                while stack:
                    y, cands, n, k = stack[-1]
                    self.put(cands[n], -1)
                    if n + 1 < len(cands):
                        stack[-1][2] = n + 1
                        break
                    stack.pop()
                    if not self.args.plain:
                        self.failed.add(k)
                if not stack:
                    return False
            y, cands, n, _ = stack[-1]
            self.put(cands[n], 1)
            self.most = max(self.most, self.placed)


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("problem")
    ap.add_argument("--limit", type=int, default=20_000)
    ap.add_argument("--lowest", action="store_true")
    ap.add_argument("--plain", action="store_true")
    ap.add_argument("--stack-spans", action="store_true")
    ap.add_argument("--solution")
    args = ap.parse_args()
    pieces = load(args.problem)
    if not pieces:
        sys.exit(f"{args.problem}: no buffers")
    plan = None
    if args.solution:
        if args.stack_spans:
            sys.exit("--solution keeps to the pieces as cut: leave out --stack-spans")
        with open(args.solution) as f:
            plan = {int(r["id"]): int(r["offset"]) for r in csv.DictReader(f)}
    if args.stack_spans:
        pieces = stack_spans(pieces)
    sections = sorted({t for p in pieces for t in p[:2]})
    load_at = [0] * (len(sections) - 1)
    at = {t: i for i, t in enumerate(sections)}
    for s, e, h, _ in pieces:
        for x in range(at[s], at[e]):
            load_at[x] += h
    height = max(load_at)
    if any(x not in (0, height) for x in load_at):
        sys.exit(f"{args.problem}: not a perfect packing (sections of {min(load_at)} to {height} bytes)")
    ranks = Counter()
    for part in parts(pieces):
        fill = Fill(part, height, args, plan)
        found = fill.search()
        ranks += fill.ranks
        print(f"{len(part)} pieces: {found}, {fill.nodes} nodes, at most {fill.most} placed")
    if plan is not None:
        print("plan's piece at rank (0: the first tried):", dict(sorted(ranks.items())))


if __name__ == "__main__":
    main()
