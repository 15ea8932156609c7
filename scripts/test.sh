#!/usr/bin/env bash
# Set-up, formatting check, build, and the whole test suite (then the same under ASan/UBSan unless FAST=1).
set -euo pipefail
cd "$(dirname "$0")/.."
# Fresh builds: unity units (scripts/build.sh). PIPESIM_UNITY=0 builds file by file.
export PIPESIM_UNITY="${PIPESIM_UNITY:-1}"
bash scripts/setup.sh
bash scripts/check-format.sh
bash scripts/build.sh default
ctest --preset default
if [ "${FAST:-0}" != "1" ]; then
  bash scripts/build.sh asan
  ctest --preset asan
fi
