"""What the scripts that hand problems to `arena-plan` share: finding the
binary (built first where none is given) and running it on one problem.
Imported by `strip-draws.py`, `solution-strips.py` and
`constant-strips.py` (they run from any folder: Python puts a script's own
folder first on its path).
"""
import csv
import os
import resource
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def binary(given):
    """`given`, or `target/release/arena-plan` built first."""
    if given is not None:
        return given
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "arena-tools",
                    "--bin", "arena-plan"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "arena-plan")


def plan(binary, problem, out, *extra):
    """`binary`'s plan of the file `problem` at the default budget (or as
    `extra` asks), written to `out`: its offsets by id, its height and the
    CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([binary, "--input", problem, "--output", out, *extra], check=True,
                   stdout=subprocess.DEVNULL)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    with open(out) as f:
        rows = list(csv.DictReader(f))
    offsets = {r["id"]: int(r["offset"]) for r in rows}
    height = max((int(r["offset"]) + int(r["size"]) for r in rows), default=0)
    return offsets, height, cpu
