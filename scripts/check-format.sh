#!/usr/bin/env bash
# Fails when a C++ file of the tree (src/, bench/, fuzz/) is not laid out as .clang-format says, and
# names each such file; with --fix, rewrites them instead. Usage: check-format.sh SOURCE_DIR [--fix]
set -euo pipefail
SRC=${1:?usage: check-format.sh SOURCE_DIR [--fix]}
cd "$SRC"
command -v clang-format > /dev/null || { echo "check-format: clang-format is not installed (make deps)" >&2; exit 1; }
mapfile -t files < <(find src bench fuzz -name '*.cc' -o -name '*.h' | sort)
if [ "${2:-}" = "--fix" ]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
# One run over every file: each place that differs is reported as file:line:column.
if ! report=$(clang-format --style=file --dry-run -Werror "${files[@]}" 2>&1); then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<< "$report" | cut -d: -f1 | sort -u | sed 's/^/check-format: not formatted (make format rewrites it): /' >&2
  exit 1
fi
echo "check-format: ${#files[@]} files as .clang-format says"
