#!/usr/bin/env bash
# Installs what is missing, then configures and builds pipesim with a CMake preset (default: "default").
# PIPESIM_TARGET=T builds that target only (and what it needs) instead of everything.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
bash scripts/setup.sh
# PIPESIM_DEBUG_LEVEL=1 (set by CI) builds with -g1 instead of -g; unset, the presets' flags are unchanged.
# PIPESIM_UNITY=1 (set by scripts/test.sh and scripts/quickstart.sh) compiles each target as unity units of 32 source
# files: a third of the compiler time of a fresh build (docs/library.md), but a one-file edit recompiles its unit.
unity=OFF
[ "${PIPESIM_UNITY:-0}" = 1 ] && unity=ON
# PIPESIM_TEST_OPT_LEVEL=0 (set by CI) compiles the test programs' own code at -O0; the libraries keep their level.
cmake --preset "$preset" -DPIPESIM_DEBUG_LEVEL="${PIPESIM_DEBUG_LEVEL:-}" -DCMAKE_UNITY_BUILD="$unity" \
      -DCMAKE_UNITY_BUILD_BATCH_SIZE=32 -DPIPESIM_TEST_OPT_LEVEL="${PIPESIM_TEST_OPT_LEVEL:-}" >/dev/null
cmake --build --preset "$preset" ${PIPESIM_TARGET:+--target "$PIPESIM_TARGET"}
