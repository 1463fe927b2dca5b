#!/usr/bin/env bash
# Every GPU check in one command, for a machine with an NVIDIA GPU and driver.
#   scripts/gpu-check.sh           build and run the GPU tests, print a summary
#   scripts/gpu-check.sh --build   only build the test binaries into gpu-bin/
#   scripts/gpu-check.sh --run     only run binaries already in gpu-bin/
# (--build here, then --run on a GPU machine that cannot reach a registry.)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}

if [ "$mode" != "--run" ]; then
  mkdir -p gpu-bin
  cargo test --release -p layouts --features cuda --test gpu --no-run --message-format=json 2>/dev/null \
    | grep -o '"executable":"[^"]*"' | cut -d'"' -f4 | grep -v '^$' \
    | while read -r exe; do cp "$exe" gpu-bin/layouts-gpu; done
  cargo test --release -p arena-runtime --features cuda --lib --no-run --message-format=json 2>/dev/null \
    | grep -o '"executable":"[^"]*"' | cut -d'"' -f4 | grep -v '^$' \
    | while read -r exe; do cp "$exe" gpu-bin/runtime-unit; done
  ls -la gpu-bin
fi
[ "$mode" = "--build" ] && exit 0

echo "== GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not found')"
echo "== date: $(date -u +%Y-%m-%dT%H:%MZ)"
status=0
out=$(mktemp)
./gpu-bin/runtime-unit device --test-threads=1 > "$out" 2>&1 || status=1
tail -n 3 "$out"
./gpu-bin/layouts-gpu --test-threads=1 --nocapture >> "$out" 2>&1 || status=1
grep -E '^(gpu|test |skipped|test result)' "$out" | grep -v '^test result: ok. 1 passed' || true
if [ $status != 0 ]; then
  echo "== summary: FAILED"
elif grep -q 'skipped: ' "$out"; then
  echo "== summary: no GPU here, every GPU check skipped"
  status=2
else
  echo "== summary: all GPU checks passed"
fi
rm -f "$out"
exit $status
