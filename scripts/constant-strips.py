#!/usr/bin/env python3
"""A perfect packing planned by cutting it into strips top down, each strip
a set of buffers whose bytes add up to the same height in every span of
time, found by OR-Tools' CP-SAT solver (`pip install ortools`), and each
side planned by `arena-plan`: a prototype, to measure how far the cut
alone goes where `arena-plan` stays above the optimum (BENCHMARKS.md,
"Strips as sets of one load, found top down (stop 78)").

    scripts/constant-strips.py PROBLEM.csv [--plan BIN] [--seconds S] [--paths]

A set of buffers is planned at its busiest phase's bytes (its bound): by
`arena-plan` where that reaches the bound; else, where no buffer crosses
some time, each side apart; else, for each height `h` from the smallest
(multiples of the sizes' greatest common divisor up to half the bound),
CP-SAT finds a set of the buffers adding up to `h` in every span (or
proves there is none), the set is planned at `h` and the rest above it at
the bound less `h`, each in the same way; where either fails, the next
height. Rows keep their file order in every set handed to `arena-plan`
(its rebuild's orders depend on it).

With `--paths` (no `ortools` needed), the sets are paths instead: for each
size of buffer below the bound, the smallest first, buffers of that size
end to end across the set's time, found depth first in three orders (the
longest buffer first, the shortest, shuffled; BENCHMARKS.md, "Paths of one
height, joins that are certain, and fresh draws (stop 79)").

Prints `PROBLEM OPTIMUM|ABOVE SECONDS CUTS`: OPTIMUM where the offsets
put together are a plan at the whole's bound (checked: no two buffers live
together share a byte), the wall seconds (CP-SAT and every `arena-plan` run
together) and the cuts tried in order (those a later failure undid
too), each `depth:buffers:h:strip buffers`. BIN
defaults to `target/release/arena-plan` (built first); S (default 120) is
when to stop trying heights.
"""
import argparse
import math
import os
import random
import sys
import tempfile
import time

import planrun


def bound_of(rows, idx):
    """The busiest phase's bytes of the buffers `idx`, and whether every
    span of their time holds that much."""
    events = sorted([(rows[i][0], rows[i][2]) for i in idx] +
                    [(rows[i][1], -rows[i][2]) for i in idx])
    load, most, loads = 0, 0, []
    for k, (t, delta) in enumerate(events):
        load += delta
        if k + 1 == len(events) or events[k + 1][0] != t:
            loads.append(load)
            most = max(most, load)
    return most, all(x == most for x in loads[:-1])


class Cutter:
    def __init__(self, rows, binary, seconds, work, paths=False):
        self.rows, self.binary, self.work, self.paths = rows, binary, work, paths
        self.deadline = time.time() + seconds
        self.cuts = []

    def arena_plan(self, idx):
        """`arena-plan`'s offsets of the buffers `idx` (file order), or
        `None` where it stays above their bound."""
        path = os.path.join(self.work, "set.csv")
        out = os.path.join(self.work, "set.out.csv")
        with open(path, "w") as f:
            f.write("id,lower,upper,size\n")
            for i in idx:
                lo, hi, size = self.rows[i]
                f.write(f"{i},{lo},{hi},{size}\n")
        found, _, _ = planrun.plan(self.binary, path, out)
        offsets = {int(i): o for i, o in found.items()}
        bound, _ = bound_of(self.rows, idx)
        top = max(offsets[i] + self.rows[i][2] for i in idx)
        return offsets if top <= bound else None

    def parts(self, idx):
        """The buffers `idx` split where none crosses a time, file order."""
        runs = planrun.runs(idx, lambda i: self.rows[i][0], lambda i: self.rows[i][1])
        return [sorted(p) for p in runs]

    def strip(self, idx, h):
        """A set of `idx` adding up to `h` in every span: a list, `None`
        where CP-SAT proves there is none, `False` where it runs out."""
        from ortools.sat.python import cp_model
        model = cp_model.CpModel()
        take = {i: model.NewBoolVar(f"x{i}") for i in idx}
        starting = {}
        for i in idx:
            starting.setdefault(self.rows[i][0], []).append(i)
        times = sorted({self.rows[i][0] for i in idx} | {self.rows[i][1] for i in idx})
        live = set()
        for t in times[:-1]:
            live = {i for i in live if self.rows[i][1] > t} | set(starting.get(t, []))
            model.Add(sum(self.rows[i][2] * take[i] for i in live) == h)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = max(0.1, min(5.0, self.deadline - time.time()))
        status = solver.Solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return [i for i in idx if solver.Value(take[i])]
        return None if status == cp_model.INFEASIBLE else False

    def sets(self, idx, bound):
        """The sets of one load to cut `idx` at, in the order tried, each
        with its height, until the deadline."""
        if self.paths:
            heights = sorted({self.rows[i][2] for i in idx if self.rows[i][2] < bound})
        else:
            unit = 0
            for i in idx:
                unit = math.gcd(unit, self.rows[i][2])
            heights = range(unit, bound // 2 + 1, unit)
        for h in heights:
            if time.time() > self.deadline:
                return
            if not self.paths:
                chosen = self.strip(idx, h)
                if chosen:
                    yield h, chosen
                continue
            for chosen in self.chains(idx, h):
                if time.time() > self.deadline:
                    return
                yield h, chosen

    def chains(self, idx, h):
        """Buffers of `idx` of size `h` end to end from the first time of
        `idx` to its last: one path found depth first with the longest
        buffer first, one with the shortest, one in a shuffled order (the
        distinct ones)."""
        lo = min(self.rows[i][0] for i in idx)
        hi = max(self.rows[i][1] for i in idx)
        starting = {}
        for i in idx:
            if self.rows[i][2] == h:
                starting.setdefault(self.rows[i][0], []).append(i)
        found = []
        for way in ("long", "short", "shuffled"):
            rng = random.Random(1)
            edges = {}
            for t, out in starting.items():
                out = list(out)
                if way == "long":
                    out.sort(key=lambda i: -self.rows[i][1])
                elif way == "short":
                    out.sort(key=lambda i: self.rows[i][1])
                else:
                    rng.shuffle(out)
                edges[t] = out
            # Depth first, a time from which no path goes on is dead;
            # `stack`: each step's buffers still to try.
            dead, path, stack = set(), [], [list(reversed(edges.get(lo, [])))]
            while stack:
                at = self.rows[path[-1]][1] if path else lo
                if at == hi:
                    break
                if stack[-1] and at not in dead:
                    i = stack[-1].pop()
                    nxt = self.rows[i][1]
                    if nxt in dead:
                        continue
                    path.append(i)
                    stack.append(list(reversed(edges.get(nxt, []))))
                    continue
                dead.add(at)
                stack.pop()
                if path:
                    path.pop()
            if path and self.rows[path[-1]][1] == hi and sorted(path) not in found:
                found.append(sorted(path))
        return found

    def plan(self, idx, depth=0):
        """Offsets of `idx` at their bound (from 0), or `None`."""
        found = self.arena_plan(idx)
        if found is not None:
            return found
        parts = self.parts(idx)
        if len(parts) > 1:
            offsets = {}
            for part in parts:
                got = self.plan(part, depth + 1)
                if got is None:
                    return None
                offsets.update(got)
            return offsets
        bound, perfect = bound_of(self.rows, idx)
        if not perfect:
            return None
        for h, chosen in self.sets(idx, bound):
            self.cuts.append(f"{depth}:{len(idx)}:{h}:{len(chosen)}")
            low = self.plan(chosen, depth + 1)
            if low is None:
                continue
            inside = set(chosen)
            high = self.plan([i for i in idx if i not in inside], depth + 1)
            if high is None:
                continue
            low.update({i: o + h for i, o in high.items()})
            return low
        return None


def clear(rows, offsets):
    """No two buffers live together share a byte."""
    order = sorted(range(len(rows)), key=lambda i: rows[i][0])
    live = []
    for i in order:
        lo, hi, size = rows[i]
        live = [j for j in live if rows[j][1] > lo]
        for j in live:
            if offsets[j] < offsets[i] + size and offsets[i] < offsets[j] + rows[j][2]:
                return False
        live.append(i)
    return True


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("problem")
    ap.add_argument("--plan", metavar="BIN")
    ap.add_argument("--seconds", type=float, default=120.0, metavar="S")
    ap.add_argument("--paths", action="store_true")
    a = ap.parse_args()
    try:
        if not a.paths:
            import ortools  # noqa: F401
    except ImportError:
        sys.exit("needs the `ortools` package: pip install ortools")
    rows = planrun.problem(a.problem)
    binary = planrun.binary(a.plan)
    started = time.time()
    with tempfile.TemporaryDirectory() as work:
        cutter = Cutter(rows, binary, a.seconds, work, a.paths)
        offsets = cutter.plan(list(range(len(rows))))
    bound, _ = bound_of(rows, range(len(rows)))
    ok = (offsets is not None and len(offsets) == len(rows) and clear(rows, offsets)
          and max(offsets[i] + rows[i][2] for i in range(len(rows))) == bound)
    print(f"{a.problem} {'OPTIMUM' if ok else 'ABOVE'} {time.time() - started:.1f} "
          f"{' '.join(cutter.cuts) or '-'}")


if __name__ == "__main__":
    main()
