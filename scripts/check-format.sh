#!/usr/bin/env bash
# Fails when a C++ file is not formatted as .clang-format says (run clang-format -i on the files it names).
set -euo pipefail
cd "$(dirname "$0")/.."
# Two processes of 40 files each at a time (one clang-format per file took half a minute); the files it names are
# those of its "code should be clang-formatted" warnings.
bad=$(git ls-files -z '*.cpp' '*.hpp' | xargs -0 -P 2 -n 40 clang-format --dry-run -Werror 2>&1 >/dev/null |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u || true)
if [ -n "$bad" ]; then
  echo "check-format: not clang-formatted:" $bad >&2
  exit 1
fi
echo "check-format: all C++ files formatted"
