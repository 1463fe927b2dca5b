#!/usr/bin/env bash
# arena-plan beside OmniMalloc's allocators that take vector clocks, on
# OmniMalloc's `ConcurrentTilingSource` (workers tiling their own bands on
# their own timelines, joined by 16 messages; optimum 1 MiB), in one run
# (BENCHMARKS.md, "Vector clocks"): 2 and 4 workers, 101 to 10,001
# buffers, makespans 1,048,576 and 1,024, seed 101. Height over the
# optimum and CPU seconds: arena-plan at its default budget, OmniMalloc's
# OmniAllocator (its greedy portfolio) and SimulatedAnnealingAllocator (3 s)
# at their defaults (its SuperMalloc takes intervals only). Needs the
# `omnimalloc` package (PYTHON names the interpreter that has it).
#
#   scripts/clock-side-by-side.sh      # builds arena-plan, then measures
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
cargo build -q --release -p arena-tools --bin arena-plan
plan=target/release/arena-plan
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
opt=1048576
echo '| workers | buffers | makespan | arena-plan height / optimum | CPU s | OmniAllocator | CPU s | SimulatedAnnealing | CPU s |'
echo '|---|---|---|---|---|---|---|---|---|'
for threads in 2 4; do
  for makespan in 1048576 1024; do
    for n in 101 501 2001 10001; do
      "$py" scripts/omnimalloc-problems.py concurrent $n 101 $makespan $threads >"$work/p.csv" 2>/dev/null
      /usr/bin/time -o "$work/time" -f '%U %S' "$plan" --input "$work/p.csv" --output "$work/out.csv" >"$work/log" 2>&1
      h=$(sed -n 's/.*height \([0-9]*\).*/\1/p' "$work/log")
      t=$(awk '{ print $1 + $2 }' "$work/time")
      read -r oh ot < <("$py" scripts/omnimalloc-run.py "$work/p.csv" OmniAllocator)
      read -r sh st < <("$py" scripts/omnimalloc-run.py "$work/p.csv" SimulatedAnnealingAllocator)
      printf '| %d | %d | %d | %.4f | %.2f | %.4f | %.2f | %.4f | %.2f |\n' "$threads" "$n" "$makespan" \
        "$(awk "BEGIN { print $h / $opt }")" "$t" "$(awk "BEGIN { print $oh / $opt }")" "$ot" \
        "$(awk "BEGIN { print $sh / $opt }")" "$st"
    done
  done
done
