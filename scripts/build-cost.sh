#!/usr/bin/env bash
# What the derive costs at build time (BENCHMARKS.md):
#  1. the incremental `cargo check` of a crate holding the metrale arena written
#     with the derive, against the same crate with the generated code pasted in
#     (touch sizes.rs, re-check; median of 5);
#  2. the clean build of arena-macros and of the syn/quote/proc-macro2 it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/build-cost
runs=${RUNS:-5}
rm -rf "$work"
mkdir -p "$work"
export CARGO_TARGET_DIR=$work/target

for variant in derive expanded; do
  dir=$work/$variant
  mkdir -p "$dir/src"
  cp layouts/src/{config.rs,families.rs,read.rs,rules.rs,splitk.rs,sizes.rs,sublayouts.rs} "$dir/src/"
  cat > "$dir/src/lib.rs" <<'RS'
#![allow(unused_imports)]
pub mod config;
mod families;
mod read;
mod rules;
pub mod sizes;
pub mod splitk;
pub mod sublayouts;
pub use config::{ConfigError, ModelConfig};
RS
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "build-cost-$variant"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
arena = { path = "$root" }
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[workspace]
TOML
done

for f in sizes sublayouts; do
  ARENA_EXPAND_IN=$root/layouts/src/$f.rs ARENA_EXPAND_OUT=$work/expanded/src/$f.rs \
    CARGO_TARGET_DIR=$root/target cargo test -q -p arena-macros expand_files >/dev/null
done
grep -q 'derive(Arena' "$work/expanded/src/sizes.rs" && { echo "expansion failed"; exit 1; }

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
check_time() {
  local dir=$1
  (cd "$dir" && cargo check -q 2>/dev/null)  # warm: dependencies built once
  for _ in $(seq "$runs"); do
    touch "$dir/src/sizes.rs"
    local t0; t0=$(now)
    (cd "$dir" && cargo check -q 2>/dev/null)
    calc "$(now) - $t0"
  done | median
}

d=$(check_time "$work/derive")
e=$(check_time "$work/expanded")
printf 'incremental cargo check, median of %s: derive %.3f s, pasted expansion %.3f s, derive adds %.3f s (ratio %.2f)\n' \
  "$runs" "$d" "$e" "$(calc "$d - $e")" "$(calc "$d / $e")"
echo "expanded source: $(wc -l < "$work/expanded/src/sizes.rs") + $(wc -l < "$work/expanded/src/sublayouts.rs") lines (derive: $(wc -l < layouts/src/sizes.rs) + $(wc -l < layouts/src/sublayouts.rs))"

clean=$work/clean
rm -rf "$clean"
t0=$(now)
CARGO_TARGET_DIR=$clean cargo build -q -p syn@3
t1=$(now)
CARGO_TARGET_DIR=$clean cargo build -q -p arena-macros
t2=$(now)
printf 'clean build: syn + quote + proc-macro2 %.1f s, then arena-macros itself %.1f s, total %.1f s\n' \
  "$(calc "$t1 - $t0")" "$(calc "$t2 - $t1")" "$(calc "$t2 - $t0")"
