#!/usr/bin/env bash
# Installs the Debian packages pipesim needs (only what is missing); safe to rerun.
set -euo pipefail
pkgs=(build-essential cmake pkg-config ninja-build clang-format
      libsimgrid-dev libboost-graph-dev libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev
      libcli11-dev libfmt-dev nlohmann-json3-dev coinor-libcbc-dev gnuplot-nox
      slurmctld slurmd slurm-client munge
      clang-14 libfuzzer-14-dev
      pybind11-dev python3-dev python3-pandas python3-matplotlib python3-pytest python3-nbclient python3-ipykernel
      python3-nbformat)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
