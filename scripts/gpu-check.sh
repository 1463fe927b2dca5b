#!/usr/bin/env bash
# Every GPU check in one command, for a machine with an NVIDIA GPU and driver.
#   scripts/gpu-check.sh           build and run the GPU tests, print a summary
#   scripts/gpu-check.sh --build   only build the test binaries into gpu-bin/
#   scripts/gpu-check.sh --run     only run binaries already in gpu-bin/
#   scripts/gpu-check.sh --list    list the binaries in gpu-bin/ and their tests
# (--build here, then --run on a GPU machine that cannot reach a registry.)
# Exit: 0 all passed; 1 a build or a test failed; 2 no GPU here (every check
# skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
bin=gpu-bin

# Builds one cargo test target and copies its test executables (only the
# artifacts cargo marks `"test": true`) into gpu-bin/, named after the
# package and the target. Compile errors are printed, not swallowed.
build() {
  local name=$1
  shift
  local json
  json=$(mktemp)
  if ! cargo test --release "$@" --no-run --message-format=json >"$json"; then
    echo "== build FAILED: cargo test --release $* --no-run" >&2
    python3 - "$json" <<'EOF' >&2
import json, sys
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-message" and m["message"].get("level") in ("error", "warning"):
        print(m["message"].get("rendered", ""), end="")
EOF
    rm -f "$json"
    return 1
  fi
  python3 - "$json" "$bin" "$name" <<'EOF'
import json, shutil, sys
path, out, name = sys.argv[1:]
copied = 0
for line in open(path):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    if not m.get("profile", {}).get("test"):
        continue
    dest = f"{out}/{name}"
    shutil.copy(m["executable"], dest)
    print(f"built {dest} <- {m['target']['name']} ({m['package_id'].split('#')[-1]})")
    copied += 1
if copied != 1:
    sys.exit(f"expected one test binary for {name}, cargo reported {copied}")
EOF
  rm -f "$json"
}

if [ "$mode" = "all" ] || [ "$mode" = "--build" ]; then
  rm -rf "$bin"
  mkdir -p "$bin"
  build layouts-gpu -p layouts --features cuda --test gpu
  build runtime-unit -p arena-runtime --features cuda --lib
fi

if [ "$mode" = "--list" ]; then
  for exe in "$bin"/*; do
    echo "== $exe"
    "$exe" --list 2>&1 | grep ': test$' || true
  done
  exit 0
fi
[ "$mode" = "--build" ] && exit 0

echo "== GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not found')"
echo "== date: $(date -u +%Y-%m-%dT%H:%MZ)"
if ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so' || ls /usr/local/cuda*/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "== NVRTC: present"
else
  echo "== NVRTC: absent (no libnvrtc): the tests that compile a kernel skip, saying so"
fi

logs=gpu-logs
mkdir -p "$logs"
status=0
run=0 passed=0 failed=0 skipped=0
for exe in "$bin"/runtime-unit "$bin"/layouts-gpu; do
  name=$(basename "$exe")
  log="$logs/$name.log"
  filter=()
  [ "$name" = runtime-unit ] && filter=(device)
  # One test at a time (they share one GPU); the output of every test shown,
  # failing ones included, and kept in gpu-logs/.
  if ! "$exe" "${filter[@]}" --test-threads=1 --show-output >"$log" 2>&1; then
    status=1
  fi
  grep -E '^(gpu:|skipped:|test .* \.\.\. )' "$log" || true
  if grep -q '^failures:' "$log"; then
    echo "== failures in $name (full log: $log)"
    sed -n '/^failures:$/,$p' "$log"
  fi
  r=$(grep -cE '^test .* \.\.\. (ok|FAILED)' "$log" || true)
  p=$(grep -cE '^test .* \.\.\. ok' "$log" || true)
  f=$(grep -cE '^test .* \.\.\. FAILED' "$log" || true)
  s=$(grep -c '^skipped:' "$log" || true)
  run=$((run + r)) passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  if [ "$r" = 0 ]; then
    echo "== $name ran no test:"
    tail -n 20 "$log"
    status=1
  fi
done

echo "== summary: $run run, $passed passed, $failed failed, $skipped skipped"
if [ $status != 0 ]; then
  echo "== summary: FAILED"
elif grep -q 'no CUDA driver\|skipped: .*driver' "$logs"/*.log; then
  echo "== summary: no GPU here, every GPU check skipped"
  status=2
else
  echo "== summary: all GPU checks passed"
fi
exit $status
