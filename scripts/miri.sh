#!/usr/bin/env bash
# The host tests that touch a slab (carving, phases, guards, poison, steps,
# nested and one-of regions, the planner), under Miri. Not part of CI: Miri
# needs a nightly toolchain with the `miri` component
#   rustup component add --toolchain nightly miri rust-src
# Usage: scripts/miri.sh [extra cargo test args, before any `--`]
#   MIRI_TOOLCHAIN   the toolchain (default nightly)
#   PROPTEST_CASES   cases per property test (default 8: Miri runs ~1000x slower)
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${MIRI_TOOLCHAIN:-nightly}
# Floats as IEEE says, without Miri's deliberate imprecision: the forward pass
# compares the planned and unplanned runs bit for bit. Isolation off: proptest
# reads its environment and its regression files.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-deterministic-floats -Zmiri-disable-isolation}"
export PROPTEST_CASES=${PROPTEST_CASES:-8}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/miri}
run() { echo "== miri: $*"; cargo +"$tc" miri test "$@"; }
run -p arena-runtime --lib "$@"
run -p arena-runtime --test plan "$@" -- properties::
run -p arena --test integration "$@" -- safety:: phases:: step:: derive:: card:: planned_forward::
echo "== miri: clean"
