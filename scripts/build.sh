#!/usr/bin/env bash
# Installs what is missing, then configures and builds pipesim with a CMake preset (default: "default").
# PIPESIM_TARGET=T builds that target only (and what it needs) instead of everything.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
bash scripts/setup.sh
# PIPESIM_DEBUG_LEVEL=1 (set by CI) builds with -g1 instead of -g; unset, the presets' flags are unchanged.
cmake --preset "$preset" -DPIPESIM_DEBUG_LEVEL="${PIPESIM_DEBUG_LEVEL:-}" >/dev/null
cmake --build --preset "$preset" ${PIPESIM_TARGET:+--target "$PIPESIM_TARGET"}
