#!/usr/bin/env bash
# arena-plan beside OmniMalloc's SuperMalloc on the same problems, in one
# run (BENCHMARKS.md, "Whole descents and learning from failed runs"):
# OmniMalloc's pinwheels and strip tilings of known optimum (its
# generators, seeds of this repository's, 101 to 10,001 buffers, makespans
# 1,048,576, 65,536 and 1,024, rows shuffled), this
# repository's guillotine tilings (three of its first construction, twelve
# drawn across its options), MiniMalloc's eleven files and a trace.
# Height over the bound (the optimum where known) and CPU seconds of each;
# arena-plan at its default budget, SuperMalloc at its default (3 s, one
# thread). Needs the `omnimalloc` package (`pip install omnimalloc`; PYTHON
# names the interpreter that has it).
#
#   scripts/side-by-side.sh            # builds arena-plan, then measures
#   scripts/side-by-side.sh clocks     # the vector clocks' table instead
#
# `clocks` (BENCHMARKS.md, "Vector clocks"): OmniMalloc's
# `ConcurrentTilingSource` (workers tiling their own bands on their own
# timelines, joined by 16 messages; optimum 1 MiB), 2 and 4 workers, 101 to
# 10,001 buffers, makespans 1,048,576 and 1,024, seed 101; beside
# OmniMalloc's OmniAllocator (its greedy portfolio) and
# SimulatedAnnealingAllocator (3 s), at their defaults: its SuperMalloc
# takes intervals only.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
cargo build -q --release -p arena-tools --bin arena-plan
plan=target/release/arena-plan
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

row() {
  local name=$1 csv=$2 n
  n=$(($(wc -l <"$csv") - 1))
  /usr/bin/time -o "$work/time" -f '%U %S' "$plan" --input "$csv" --output "$work/out.csv" >"$work/log" 2>&1
  local h b t
  h=$(sed -n 's/.*height \([0-9]*\).*/\1/p' "$work/log")
  b=$(sed -n 's/.*lower bound \([0-9]*\).*/\1/p' "$work/log")
  t=$(awk '{ print $1 + $2 }' "$work/time")
  read -r sh st < <("$py" scripts/supermalloc-run.py "$csv")
  printf '| %s | %d | %.4f | %.2f | %.4f | %.2f |\n' "$name" "$n" \
    "$(awk "BEGIN { print $h / $b }")" "$t" "$(awk "BEGIN { print $sh / $b }")" "$st"
}

if [ "${1:-}" = clocks ]; then
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
  exit 0
fi

echo '| problem | buffers | arena-plan height / bound | CPU s | SuperMalloc height / bound | CPU s |'
echo '|---|---|---|---|---|---|'
for family in pinwheel tiling; do
  for makespan in 1048576 65536 1024; do
    for n in 101 501 1001 2001 5001 10001; do
      for seed in 101 202; do
        "$py" scripts/omnimalloc-problems.py $family $n $seed $makespan >"$work/p.csv" 2>/dev/null
        row "OmniMalloc $family, makespan $makespan, seed $seed" "$work/p.csv"
      done
    done
  done
done
for spec in "1000 5" "2500 11" "5000 77"; do
  python3 scripts/guillotine-problems.py $spec >"$work/p.csv"
  row "guillotine-problems.py $spec" "$work/p.csv"
done
# Strip tilings of other constructions: the first twelve that
# strip-draws.py draws from seed 7401 (drawn, not chosen).
while read -r spec; do
  python3 scripts/guillotine-problems.py $spec >"$work/p.csv"
  row "guillotine-problems.py $spec" "$work/p.csv"
done < <(python3 scripts/strip-draws.py 12 7401 --specs)
for f in layouts/tests/data/minimalloc/*.csv; do
  row "MiniMalloc $(basename "$f" | cut -c1)" "$f"
done
python3 scripts/trace-problems.py 60000 5 >"$work/p.csv"
row "trace-problems.py 60000 5" "$work/p.csv"
