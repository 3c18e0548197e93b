#!/usr/bin/env bash
# Runs a build's tests with ctest and fails when any test did not run: a skipped test is a test
# that proved nothing, so it must not read as a pass (RAILYARD_ALLOW_SKIP=1 lets a developer
# without network namespaces run the rest).
set -uo pipefail
BUILD=${1:?usage: run-tests.sh BUILD_DIR [CTEST_ARGS...]}
shift
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
ctest --test-dir "$BUILD" --output-on-failure -j2 "$@" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || exit "$status"
if grep -q "The following tests did not run" "$LOG" && [ "${RAILYARD_ALLOW_SKIP:-0}" != 1 ]; then
  echo "FAILED: tests were skipped (listed above); every test must run (RAILYARD_ALLOW_SKIP=1 to accept)" >&2
  exit 1
fi
