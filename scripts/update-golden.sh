#!/usr/bin/env bash
# Rewrites the golden texts of `pipesim map` and `pipesim simulate` (apps/golden/*.txt) from the current build, after
# an intended change of the printed outputs; review `git diff apps/golden` before committing them.
# Usage: scripts/update-golden.sh [build directory, default build]
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
cmake --build "$build" --target apps_tests -- -j2
PIPESIM_UPDATE_GOLDEN=1 "$build/apps/apps_tests" --gtest_filter='*Golden*'
git status --short apps/golden
