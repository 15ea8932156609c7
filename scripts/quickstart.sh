#!/usr/bin/env bash
# Set-up, build, then the quickstart scenario: map, analytic period, simulation, comparison table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh default
./build/apps/pipesim simulate scenarios/examples/quickstart.yaml "$@"
