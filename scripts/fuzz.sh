#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (the `fuzz` preset: clang-14, -fsanitize=fuzzer,address,undefined, in
# build-fuzz/) and runs one for SECONDS, or each in turn with --all (docs/library.md "Fuzzing").
#   scripts/fuzz.sh NAME SECONDS [libFuzzer options...]  (NAME: scenario campaign platform mapping edits xml task_chain)
#   scripts/fuzz.sh --all SECONDS
# The corpus of NAME grows in build-fuzz/corpus/NAME (seeded from the shipped examples and fuzz/seeds/NAME); a crash,
# hang or sanitizer report stops the run with a non-zero exit and leaves the input in build-fuzz/findings/NAME/.
# FUZZ_JOBS sets the build's parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
names=(scenario campaign platform mapping edits xml task_chain)
usage() { echo "usage: $0 NAME|--all SECONDS [libFuzzer options...] (NAME: ${names[*]})" >&2; exit 2; }
[ $# -ge 2 ] || usage
name=$1 seconds=$2
shift 2
[[ $seconds =~ ^[0-9]+$ ]] || usage
if [ "$name" = --all ]; then
  targets=("${names[@]}")
else
  [[ " ${names[*]} " == *" $name "* ]] || usage
  targets=("$name")
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
[ -f build-fuzz/build.ninja ] || cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}" -- -j"${FUZZ_JOBS:-2}"

seeds() { # the shipped inputs of a harness
  case $1 in
  scenario | platform | mapping) echo scenarios/examples/*.yaml ;;
  campaign) echo validation/campaigns/*.yaml ;;
  edits) echo scenarios/examples/edits/*.yaml ;;
  xml) echo platforms/examples/*.xml ;;
  task_chain) echo scenarios/examples/sv95-*.yaml scenarios/examples/fft-hist*.yaml ;;
  esac
  [ -d "fuzz/seeds/$1" ] && echo fuzz/seeds/"$1"/*
  return 0
}

status=0
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t findings=build-fuzz/findings/$t
  mkdir -p "$corpus" "$findings"
  # shellcheck disable=SC2046
  cp -n $(seeds "$t") "$corpus"/ 2>/dev/null || true
  echo "fuzz: $t for ${seconds}s" >&2
  # The XML harness forks a SimGrid child per input: its stderr (SimGrid's messages) is closed, and ASan keeps no
  # quarantine and short allocation stacks there: a fork copies the parent's page tables, and the default 256 MB
  # quarantine made it 1.7 times slower (47 against 79 inputs/s). Replay a finding with the defaults for full reports.
  extra=() asan=detect_leaks=0:detect_stack_use_after_return=0:abort_on_error=1
  [ "$t" = xml ] && extra=(-close_fd_mask=2) asan+=:quarantine_size_mb=0:malloc_context_size=2
  if ! (cd "$findings" && UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ASAN_OPTIONS=$asan \
        "$root/build-fuzz/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
        -print_final_stats=1 "${extra[@]}" "$@" "$root/$corpus"); then
    echo "fuzz: $t found a problem (inputs in $findings)" >&2
    status=1
  fi
done
exit $status
