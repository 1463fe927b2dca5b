#!/usr/bin/env bash
# Instructions per call of the generated sizing and of its hand-written twins,
# counted by callgrind (BENCHMARKS.md): the difference between a run of
# CALLS+1000 calls and one of 1000 calls, divided by CALLS, so setup cancels.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${CALLS:-20000}
cargo build -q --release -p arena-tools --bin sizing-loop
bin=target/release/sizing-loop
count() {
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}
printf '%-12s %-15s %10s\n' config variant instr/call
for config in qwen3_next deepseek_v4; do
  for variant in generated checked checked_full unchecked unchecked_full; do
    lo=$(count "$variant" "$config" 1000)
    hi=$(count "$variant" "$config" $((calls + 1000)))
    printf '%-12s %-15s %10.1f\n' "$config" "$variant" "$(awk "BEGIN { print ($hi - $lo) / $calls }")"
  done
done
