#!/usr/bin/env bash
# Hostile and clumsy input (issue "Hostile and broken input"): each numbered defect reproduced as an
# attacker or a careless user would, and the behaviour railyard must show instead.
# Usage: hostile_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=../integration/lib.sh
. "$SRC/tests/integration/lib.sh"
FIXTURES="$SRC/tests/fixtures"
SPEC="$SRC/examples/lab-8-node.yaml"

# 1. A symlink planted where the old predictable temporary file went, and one at the output itself:
#    neither victim is written; plan.json ends up a regular file.
mkdir -p "$WORK/out1"
echo "precious" > "$WORK/victim1"; echo "precious" > "$WORK/victim2"
ln -s "$WORK/victim1" "$WORK/out1/plan.json.tmp"
ln -s "$WORK/victim2" "$WORK/out1/plan.json"
"$RAILYARD" plan "$SPEC" -o "$WORK/out1" > /dev/null 2>&1
check "1: plan -o succeeds" test $? -eq 0
check "1: the victim of a planted .tmp symlink is untouched" test "$(cat "$WORK/victim1")" = "precious"
check "1: the victim of a symlink at the output is untouched" test "$(cat "$WORK/victim2")" = "precious"
check "1: plan.json is a regular file now" test -f "$WORK/out1/plan.json" -a ! -L "$WORK/out1/plan.json"
check "1: no temporary file is left" test -z "$(ls -A "$WORK/out1" | grep '^\.')"
ln -s "$WORK/victim1" "$WORK/facts.json.tmp"
"$RAILYARD" collect --from "$WORK/out1" -q -o "$WORK/facts.json" > /dev/null 2>&1
check "1: collect -o does not follow a planted symlink either" test "$(cat "$WORK/victim1")" = "precious"

# 2. A wrong --as records nothing and exits 2; the right import of the same file then works.
"$RAILYARD" ledger --db "$WORK/l2.db" import --as lspci "$FIXTURES/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt" > /dev/null 2> "$WORK/2.err"
check "2: a flint query imported as lspci exits 2" test $? -eq 2
check "2: it says nothing was recorded" grep -q "nothing was recorded" "$WORK/2.err"
"$RAILYARD" ledger --db "$WORK/l2.db" import --as lspci "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > /dev/null
"$RAILYARD" ledger --db "$WORK/l2.db" import --batch B1 "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > "$WORK/2.out"
check "2: the same file with another batch is another import" grep -q "1 assets" "$WORK/2.out"

# 3. A damaged ledger is refused by every verb; read verbs never create a ledger.
cp "$WORK/l2.db" "$WORK/l3.db"
sqlite3 "$WORK/l3.db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
size=$(stat -c %s "$WORK/l3.db")
printf '\xde\xad\xbe\xef%.0s' $(seq 1 256) | dd of="$WORK/l3.db" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
"$RAILYARD" ledger --db "$WORK/l3.db" import "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > /dev/null 2> "$WORK/3.err"
check "3: import into a damaged ledger exits 2" test $? -eq 2
check "3: and says it is damaged, and how to recover" grep -q "damaged.*recover" "$WORK/3.err"
"$RAILYARD" ledger --db "$WORK/l3.db" list > "$WORK/3.out" 2> /dev/null
check "3: list of a damaged ledger exits 2 and prints no row" test $? -eq 2 -a ! -s "$WORK/3.out"
"$RAILYARD" ledger --db "$WORK/no-such.db" list 2> "$WORK/3b.err"
check "3: list with a mistyped --db exits 2" test $? -eq 2
check "3: and creates no database" test ! -e "$WORK/no-such.db"
chmod 0444 "$WORK/l2.db"
"$RAILYARD" ledger --db "$WORK/l2.db" list > /dev/null 2>&1
check "3: a read-only ledger can be listed" test $? -eq 0
chmod 0644 "$WORK/l2.db"

# 12. accept report with a bad second path writes neither file.
"$RAILYARD" accept --db "$WORK/l2.db" report --csv "$WORK/12.csv" --html "$WORK/no-such-dir/12.html" > /dev/null 2>&1
check "12: a bad --html path exits 2" test $? -eq 2
check "12: and the CSV was not written either" test ! -e "$WORK/12.csv"

finish
