#!/usr/bin/env bash
# scripts/check-layers.sh passes on the tree as it is, and fails, naming file and line, on a copy
# with one include across the layers, a cycle in the table, a part missing from it, or a CLI function
# over 60 lines.
# Usage: layering_test.sh SOURCE_DIR
set -euo pipefail
src=$1
check=$src/scripts/check-layers.sh
"$check" "$src"

work=$(mktemp -d "${TMPDIR:-/tmp}/railyard-layering.XXXXXX")
trap 'rm -rf "$work"' EXIT
fresh_copy() {
  rm -rf "$work/tree" && mkdir -p "$work/tree" && cp -r "$src/src" "$work/tree/"
}
expect_breach() {  # what, expected text
  if out=$("$check" "$work/tree" 2>&1); then
    echo "FAIL: $1 passed the check"; exit 1
  fi
  grep -qF -- "$2" <<<"$out" || { echo "FAIL: $1: expected '$2' in:"; echo "$out"; exit 1; }
  echo "ok: $1"
}

fresh_copy  # model is the bottom layer: reaching up to the ledger is a breach, named by file and line
printf '#include "util/csv.h"\n#include "ledger/ledger.h"\n' >> "$work/tree/src/model/units.cc"
line=$(grep -n 'ledger/ledger.h' "$work/tree/src/model/units.cc" | cut -d: -f1)
expect_breach "an include across the layers" "src/model/units.cc:$line: includes \"ledger/ledger.h\", but model may use only: util"

fresh_copy  # a test may include what it needs: tests are not a part's code
printf '#include "ledger/ledger.h"\n' >> "$work/tree/src/model/units_test.cc"
"$check" "$work/tree" > /dev/null || { echo "FAIL: a test's include counted"; exit 1; }
echo "ok: tests are outside the table"

fresh_copy
sed -i 's/^util:$/util: ledger/' "$work/tree/src/layers.txt"
expect_breach "a cycle in the table" "cycle:"

fresh_copy
mkdir "$work/tree/src/telemetry" && touch "$work/tree/src/telemetry/counters.cc"
expect_breach "a part missing from the table" "src/telemetry/: a part missing from src/layers.txt"

fresh_copy  # the CLI is thin: a command function grown past 60 lines is named with its line
{
  printf 'int TooLong() {\n'
  for i in $(seq 1 60); do printf '  int x%d = %d;\n' "$i" "$i"; done
  printf '  return 0;\n}\n'
} >> "$work/tree/src/cli/catalog_cmd.cc"
line=$(grep -n '^int TooLong' "$work/tree/src/cli/catalog_cmd.cc" | cut -d: -f1)
expect_breach "a CLI function over 60 lines" "src/cli/catalog_cmd.cc:$line: 63 lines, over the CLI's 60: int TooLong() {"
