#!/usr/bin/env python3
"""Plans a problem in MiniMalloc's CSV form with OR-Tools' CP-SAT solver
(the PyPI package `ortools`, Apache-2.0: `pip install ortools`), a general
exact solver, for BENCHMARKS.md's side-by-side with `arena-plan`.

    scripts/cpsat-run.py PROBLEM.csv [TIMEOUT_S] [WORKERS]

The model: each buffer's offset a variable, every two buffers live together
apart in bytes (one `NoOverlap2D` over their fixed spans of time), the
height at least the busiest phase's bytes and at least every buffer's top,
minimised. Sizes are divided by their greatest common divisor first.

Prints `height CPU_SECONDS STATUS`: the user + system CPU time of the
solve (every worker counted, the model's building not), and CP-SAT's
status: OPTIMAL where the height is proved least, FEASIBLE where time ran
out with a plan, UNKNOWN where it ran out with none (the height printed is
then 0). TIMEOUT_S: CP-SAT's wall-clock limit (default 30); WORKERS: its
threads (default 1).
"""
import csv
import resource
import sys
from math import gcd


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        sys.exit("needs the `ortools` package: pip install ortools")
    with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
        rows = [(int(r["lower"]), int(r["upper"]), int(r["size"]))
                for r in csv.DictReader(f)]
    rows = [r for r in rows if r[2] > 0 and r[1] > r[0]]
    if not rows:
        print("0 0.00 OPTIMAL")
        return
    unit = 0
    for _, _, size in rows:
        unit = gcd(unit, size)
    # The busiest phase's bytes: a height no plan goes below.
    events = sorted([(lo, size) for lo, _, size in rows] + [(hi, -size) for _, hi, size in rows])
    load = bound = 0
    for _, delta in events:
        load += delta
        bound = max(bound, load)
    top = sum(size for _, _, size in rows) // unit
    model = cp_model.CpModel()
    height = model.NewIntVar(bound // unit, top, "height")
    spans, bytes_ = [], []
    for k, (lo, hi, size) in enumerate(rows):
        h = size // unit
        y = model.NewIntVar(0, top - h, f"y{k}")
        model.Add(y + h <= height)
        spans.append(model.NewFixedSizeIntervalVar(lo, hi - lo, f"t{k}"))
        bytes_.append(model.NewFixedSizeIntervalVar(y, h, f"b{k}"))
    model.AddNoOverlap2D(spans, bytes_)
    model.Minimize(height)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = timeout
    solver.parameters.num_workers = workers
    before = resource.getrusage(resource.RUSAGE_SELF)
    status = solver.Solve(model)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    best = solver.Value(height) * unit if found else 0
    print(f"{best} {cpu:.2f} {solver.StatusName(status)}")


if __name__ == "__main__":
    main()
