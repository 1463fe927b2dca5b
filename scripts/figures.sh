#!/usr/bin/env bash
# The planner's current figures (BENCHMARKS.md, "Current figures"), measured
# in one run: the derive's default path (instructions and time a plan), then
# `arena-plan` on MiniMalloc's eleven files, the adversarial family, a trace,
# tilings of known optimum and buffers that all meet. User CPU seconds.
#
#   scripts/figures.sh                 # builds and measures this tree
#   TARGET=/other/target scripts/figures.sh --no-build
#                                      # binaries built elsewhere (a baseline)
set -euo pipefail
cd "$(dirname "$0")/.."
target=${TARGET:-${CARGO_TARGET_DIR:-target}}
if [ "${1:-}" != "--no-build" ]; then
  cargo build -q --release -p arena-tools --bin plan-loop --bin arena-plan
fi
loop=$target/release/plan-loop
plan=$target/release/arena-plan
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$loop" 46 "$1" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}
if command -v valgrind >/dev/null; then
  hi=$(count 1100); lo=$(count 100)
  echo "default path, 46 buffers: $(( (hi - lo) / 1000 )) instructions a plan"
fi
echo "default path, 46 buffers: $("$loop" time 46 | sed 's/^46 buffers: //')"

# One run of arena-plan: "height bound seconds".
run() {
  local csv=$1; shift
  local t
  /usr/bin/time -o "$work/time" -f %U "$plan" --input "$csv" --output "$work/out.csv" "$@" \
    >"$work/log" 2>&1 || true
  t=$(tail -1 "$work/time")
  local height bound
  height=$(sed -n 's/.*height \([0-9]*\).*/\1/p' "$work/log")
  bound=$(sed -n 's/.*lower bound \([0-9]*\).*/\1/p' "$work/log")
  echo "$height $bound $t"
}

for cap in "" 1048576; do
  at=0; n=0; most=0; heights=""
  for f in layouts/tests/data/minimalloc/*.csv; do
    name=$(basename "$f" | cut -c1)
    read -r h b t < <(run "$f" ${cap:+--capacity $cap})
    n=$((n + 1)); [ "$h" = "$b" ] && at=$((at + 1))
    most=$(awk "BEGIN { print ($t > $most) ? $t : $most }")
    heights="$heights $name=$h"
  done
  echo "MiniMalloc's $n files${cap:+, --capacity $cap}: $at at their bound, slowest ${most} s;$heights"
done

python3 scripts/adversarial-problems.py 20000 1 > "$work/adv20000.csv"
for b in 0 10000 150000; do
  read -r h bd t < <(run "$work/adv20000.csv" --budget $b)
  echo "adversarial 20000 1, budget $b: $t s, height / bound $(awk "BEGIN { printf \"%.4f\", $h / $bd }")"
done
python3 scripts/adversarial-problems.py 2048 1 > "$work/adv2048.csv"
read -r h bd t < <(run "$work/adv2048.csv")
echo "adversarial 2048 1, default budget: $t s"
python3 scripts/trace-problems.py 60000 5 > "$work/trace.csv"
read -r h bd t < <(run "$work/trace.csv")
echo "trace 60000 5 (30,171 buffers), default budget: $t s, height / bound $(awk "BEGIN { printf \"%.4f\", $h / $bd }")"
python3 scripts/guillotine-problems.py 5000 77 5 > "$work/tiling.csv"
read -r h bd t < <(run "$work/tiling.csv")
echo "tiling 5000 77 5, default budget: $t s, height $h, optimum 1048576"
python3 scripts/adversarial-problems.py 60000 1 colive > "$work/colive.csv"
read -r h bd t < <(run "$work/colive.csv" --budget 0)
echo "60,000 co-live, budget 0: $t s, height / bound $(awk "BEGIN { printf \"%.4f\", $h / $bd }")"
