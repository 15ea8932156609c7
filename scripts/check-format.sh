#!/usr/bin/env bash
# Fails when a C++ file is not formatted as .clang-format says (run clang-format -i on the files it names).
set -euo pipefail
cd "$(dirname "$0")/.."
bad=$(git ls-files '*.cpp' '*.hpp' | while read -r f; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$bad" ]; then
  echo "check-format: not clang-formatted:" $bad >&2
  exit 1
fi
echo "check-format: all C++ files formatted"
