#!/usr/bin/env bash
# Set-up, build of `pipesim` alone (no tests, benchmarks or examples), then the quickstart scenario: map, analytic
# period, simulation, comparison table. Prints how long set-up and build took (stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
bash scripts/setup.sh
setup_done=$SECONDS
PIPESIM_UNITY="${PIPESIM_UNITY:-1}" PIPESIM_TARGET=pipesim bash scripts/build.sh default
build_done=$SECONDS
echo "quickstart: set-up $((setup_done - start)) s, build $((build_done - setup_done)) s" >&2
./build/apps/pipesim simulate scenarios/examples/quickstart.yaml "$@"
