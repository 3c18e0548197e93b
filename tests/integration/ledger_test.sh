#!/usr/bin/env bash
# The ledger under kill -9 and under concurrent importers (separate processes), checked with
# sqlite3's own integrity check. Usage: ledger_test.sh RAILYARD SOURCE_DIR
#   crash: an import of 100,000 assets is killed with SIGKILL at several moments; each time the
#          ledger is intact and holds exactly the state before or after that import, and
#          importing the document again completes it (or says it already is).
#   concurrency: four processes import four disjoint lists at once, and two import the same list
#          at once: every event is there once, none twice.
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
command -v sqlite3 > /dev/null || { echo "SKIP: needs sqlite3"; exit 77; }

gen() {  # gen FILE FIRST COUNT: a receiving list of COUNT ConnectX-7 serials
  awk -v first="$2" -v n="$3" 'BEGIN { print "serial,opn,batch,po";
    for (i = first; i < first + n; i++) printf "MT24%08dX,MCX75310AAS-NEAT,B%d,PO-%d\n", i, int(i / 1000), int(i / 5000) }' > "$1"
}
count() { sqlite3 "$1" "SELECT (SELECT COUNT(*) FROM assets) || ' ' || (SELECT COALESCE(SUM(n_changes), 0) FROM events)"; }

# A ledger with 1,000 assets before the crash-tested import.
gen "$WORK/before.csv" 0 1000
gen "$WORK/big.csv" 1000 100000
"$RAILYARD" ledger --db "$WORK/base.db" import "$WORK/before.csv" > /dev/null
check "base ledger" test "$(count "$WORK/base.db")" = "1000 4000"
before="1000 4000"
after="101000 404000"
for delay in 0.02 0.1 0.2 0.3 0.5 1.5; do
  rm -f "$WORK"/crash.db*
  sqlite3 "$WORK/base.db" ".backup '$WORK/crash.db'"
  "$RAILYARD" ledger --db "$WORK/crash.db" import "$WORK/big.csv" > /dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  check "kill -9 after ${delay}s: integrity" test "$(sqlite3 "$WORK/crash.db" 'PRAGMA integrity_check')" = "ok"
  state=$(count "$WORK/crash.db")
  echo "killed after ${delay}s: $( [ "$state" = "$before" ] && echo before || echo after) the import"
  check "kill -9 after ${delay}s: before or after, nothing between (got $state)" test "$state" = "$before" -o "$state" = "$after"
  "$RAILYARD" ledger --db "$WORK/crash.db" import "$WORK/big.csv" > /dev/null
  check "kill -9 after ${delay}s: the import then completes" test "$(count "$WORK/crash.db")" = "$after"
done

# Four importers at once on disjoint lists, and two on the same list.
for i in 0 1 2 3; do gen "$WORK/part$i.csv" $((100000 + i * 20000)) 20000; done
pids=()
for i in 0 1 2 3; do
  "$RAILYARD" ledger --db "$WORK/shared.db" import "$WORK/part$i.csv" --actor "importer$i" > "$WORK/out$i" 2>&1 &
  pids+=($!)
done
"$RAILYARD" ledger --db "$WORK/shared.db" import "$WORK/before.csv" --actor twin-a > "$WORK/twin-a" 2>&1 &
pids+=($!)
"$RAILYARD" ledger --db "$WORK/shared.db" import "$WORK/before.csv" --actor twin-b > "$WORK/twin-b" 2>&1 &
pids+=($!)
ok=0
for p in "${pids[@]}"; do wait "$p" || ok=1; done
check "six concurrent importers all exit 0" test "$ok" -eq 0
check "concurrent: integrity" test "$(sqlite3 "$WORK/shared.db" 'PRAGMA integrity_check')" = "ok"
check "concurrent: every asset and event once" test "$(count "$WORK/shared.db")" = "81000 324000"
check "concurrent: the same list recorded once" test "$(cat "$WORK/twin-a" "$WORK/twin-b" | grep -c 'already imported')" -eq 1
check "concurrent: four actors' events" test "$(sqlite3 "$WORK/shared.db" "SELECT COUNT(DISTINCT i.actor) FROM events e JOIN imports i ON i.id = e.import_id WHERE i.actor LIKE 'importer%'")" -eq 4
# The CLI contract: bad input exits 2 naming file:line:field and writes nothing.
printf 'serial,opn,batch\nMT2347J0100T,MCX75310AAS-NEAT,B9\nMT2347J0100U,MCX75310AAS-NEAX,B9\n' > "$WORK/typo.csv"
"$RAILYARD" ledger --db "$WORK/cli.db" import "$WORK/typo.csv" 2> "$WORK/typo.err"
check "unknown OPN exits 2" test $? -eq 2
check "unknown OPN names file:line:field and the fix" grep -q "typo.csv:3: opn: MCX75310AAS-NEAX is not in railyard's catalog; did you mean MCX75310AAS-NEAT?" "$WORK/typo.err"
check "nothing half-applied" test "$(sqlite3 "$WORK/cli.db" 'SELECT COUNT(*) FROM events')" -eq 0
head -2 "$WORK/typo.csv" > "$WORK/good.csv"
"$RAILYARD" ledger --db "$WORK/cli.db" import "$WORK/good.csv" --actor alice > /dev/null
check "receiving list imports" test $? -eq 0
"$RAILYARD" ledger --db "$WORK/cli.db" import "$WORK/good.csv" | grep -q "already imported"
check "the same list twice changes nothing" test $? -eq 0
FIXTURES="$SRC/tests/fixtures"
"$RAILYARD" ledger --db "$WORK/cli.db" import --as lspci "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > /dev/null
check "real lspci VPD imports" test $? -eq 0
"$RAILYARD" ledger --db "$WORK/cli.db" history MT2347J0100T > "$WORK/history.txt"
check "history: receiving first, then the VPD" grep -q "alice .*opn .*MCX75310AAS-NEAT .*good.csv:2" "$WORK/history.txt"
check "history: the VPD's serial check" grep -q "vpd.checksum .*good" "$WORK/history.txt"
"$RAILYARD" ledger --db "$WORK/cli.db" check > "$WORK/check.txt"
check "a genuine card has no authenticity finding" test $? -eq 0
"$RAILYARD" accept --db "$WORK/cli.db" run --batch B9 > "$WORK/run.txt"
check "accept run: waits for the firmware identity" grep -q "1 received" "$WORK/run.txt"
"$RAILYARD" accept --db "$WORK/cli.db" report --batch B9 --html "$WORK/b9.html" --csv "$WORK/b9.csv"
check "accept report writes HTML" grep -q "Acceptance report: batch B9" "$WORK/b9.html"
check "accept report writes CSV" grep -q "^MT2347J0100T,nic,MCX75310AAS-NEAT,B9,received," "$WORK/b9.csv"
"$RAILYARD" accept --db "$WORK/cli.db" report --batch NOPE 2> /dev/null
check "report of an unknown batch exits 2" test $? -eq 2
"$RAILYARD" ledger --db "$WORK/cli.db" history NO-SUCH 2> /dev/null
check "history of an unknown serial exits 2" test $? -eq 2
finish
