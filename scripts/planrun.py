"""What the scripts that hand problems to `arena-plan` share: finding the
binary (built first where none is given), running it on one problem,
reading a problem file, and cutting rows into runs that no row crosses.
Imported by `strip-draws.py`, `solution-strips.py`, `constant-strips.py`
and `certain-joins.py` (they run from any folder: Python puts a script's
own folder first on its path).
"""
import csv
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def binary(given):
    """`given`, or `target/release/arena-plan` built first."""
    if given is not None:
        return given
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "arena-tools",
                    "--bin", "arena-plan"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "arena-plan")


def plan(binary, problem, out):
    """`binary`'s plan of the file `problem` at the default budget, written
    to `out`: its offsets by id, its height and the CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([binary, "--input", problem, "--output", out], check=True,
                   stdout=subprocess.DEVNULL)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    with open(out) as f:
        rows = list(csv.DictReader(f))
    offsets = {r["id"]: int(r["offset"]) for r in rows}
    height = max((int(r["offset"]) + int(r["size"]) for r in rows), default=0)
    return offsets, height, cpu


def problem(path):
    """The buffers of the problem file `path` (`id,lower,upper,size`), as
    `(lower, upper, size)`; exits naming the file where it is not one, or
    has no buffer, or a buffer of no time or no bytes."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = [(int(r["lower"]), int(r["upper"]), int(r["size"]))
                    for r in csv.DictReader(f)]
    except (OSError, KeyError, ValueError, TypeError) as why:
        sys.exit(f"{path}: not a problem in id,lower,upper,size form ({why})")
    if not rows or any(lo >= hi or size <= 0 for lo, hi, size in rows):
        sys.exit(f"{path}: needs buffers, each with lower < upper and size > 0")
    return rows


def runs(rows, low, high):
    """`rows` in runs that no row crosses, by `low`: a row starts a run
    where its `low` is at or above every `high` before it."""
    out, top = [], None
    for r in sorted(rows, key=low):
        if top is None or low(r) >= top:
            out.append([])
            top = high(r)
        out[-1].append(r)
        top = max(top, high(r))
    return out
