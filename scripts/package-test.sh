#!/usr/bin/env bash
# The published packages as a registry, a distribution or crater gets them:
# each `.crate` of `cargo package` unpacked alone (outside this workspace),
# then its own `cargo test` (arena also with `--features report`, and its
# examples built). The crates this project publishes are patched to their
# unpacked siblings (a config file above them), so nothing of the workspace
# is in reach.
#   cargo package --workspace --exclude layouts --exclude arena-testkit --exclude arena-tools && scripts/package-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
packages=$(pwd)/target/package
root=${TMPDIR:-/tmp}/arena-package-test
rm -rf "$root/src"
mkdir -p "$root/src"
for c in arena-runtime arena-macros arena; do
  # -m: the files dated now, so cargo rebuilds what an earlier run built.
  tar -xzmf "$packages/$c-$version.crate" -C "$root/src"
done
# The patch in a config file above the packages, so that what their tests
# build (the doctest crate of tests/user_doctest.rs) gets it too.
mkdir -p "$root/.cargo"
cat >"$root/.cargo/config.toml" <<TOML
[patch.crates-io]
arena-macros = { path = "$root/src/arena-macros-$version" }
arena-runtime = { path = "$root/src/arena-runtime-$version" }
TOML
export CARGO_TARGET_DIR="$root/target"
# Every relative link of a package's README (for arena, also its crate
# docs) names a file the package holds.
for c in arena-runtime arena-macros arena; do
  dir="$root/src/$c-$version"
  missing=$( (grep -oE '\]\([^)#:]+\)' "$dir/README.md" || true) | sed 's/^](//; s/)$//' | while read -r link; do
    [ -e "$dir/$link" ] || echo "$link"
  done)
  if [ -n "$missing" ]; then
    echo "== package $c: README.md links to files the package does not hold: $missing" >&2
    exit 1
  fi
done
echo "== packages: every relative link of the READMEs is in its package"
log=$(mktemp)
# `run NAME ARGS...`: cargo ARGS in the unpacked package NAME, a summary, the
# whole log when it fails.
run() {
  local name=$1; shift
  echo "== package $name: cargo $*"
  if ! (cd "$root/src/$name-$version" && cargo "$@") >"$log" 2>&1; then
    tail -60 "$log" >&2
    echo "== package $name: cargo $* FAILED" >&2
    exit 1
  fi
  grep -qE '^test result' "$log" || return 0
  grep -E '^test result' "$log" | awk '{ p += $4; f += $6 } END { printf "   %d passed, %d failed\n", p, f }'
}
run arena-runtime test -q
run arena-macros test -q
run arena test -q
run arena test -q --features report
run arena build -q --features report --examples
rm -f "$log"
echo "== packages: every test passed, the examples built"
