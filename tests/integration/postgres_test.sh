#!/usr/bin/env bash
# The ledger on a real PostgreSQL server (started here, tests/integration/pg.sh): the backend
# suite of railyard_tests (LedgerBackends/postgres.*: the same tests the SQLite ledger passes),
# then the CLI: import, the same document again (recorded once), events that refuse UPDATE, DELETE
# and TRUNCATE, four importers at once losing nothing, and --db that names no ledger.
# Usage: postgres_test.sh RAILYARD RAILYARD_TESTS SOURCE_DIR. Exits 77 without PostgreSQL.
set -u
RAILYARD=$1
TESTS=$2
SRC=$3
WORK=$(mktemp -d)
# shellcheck source=pg.sh
. "$(dirname "$0")/pg.sh"
pg_available || { echo "SKIP: PostgreSQL not installed (scripts/install-deps.sh installs it)"; rm -rf "$WORK"; exit 77; }
trap 'pg_stop; rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
pg_start || { echo "FAIL: the PostgreSQL server did not start"; exit 1; }

RAILYARD_TEST_POSTGRES=$PG_URL "$TESTS" --gtest_filter='Store/LedgerBackends.*' --gtest_brief=1 > "$WORK/suite.out" 2>&1
check "the ledger backend suite passes on PostgreSQL and SQLite" test $? -eq 0
check "and the PostgreSQL half of it ran" grep -q "postgres" <("$TESTS" --gtest_list_tests --gtest_filter='Store/LedgerBackends.*' 2>&1; \
  RAILYARD_TEST_POSTGRES=$PG_URL "$TESTS" --gtest_list_tests --gtest_filter='Store/LedgerBackends.*')
pg_psql -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public;" > /dev/null 2>&1

csv="$WORK/receiving.csv"
printf 'serial,opn,kind,batch,po,location,note\nMT2347J0100T,MCX75310AAS-NEAT,nic,B1,PO-1,gpu001 19:00.0,first\nMT2019VS04757,MCP7Y00-N001,cable,B1,PO-1,,\n' > "$csv"
"$RAILYARD" ledger --db "$PG_URL" import --as receiving-csv "$csv" > "$WORK/i1.out" 2>&1
check "ledger import into PostgreSQL exits 0" test $? -eq 0
"$RAILYARD" ledger --db "$PG_URL" import --as receiving-csv "$csv" > "$WORK/i2.out" 2>&1
check "the same document again is recorded once" grep -qi "already" "$WORK/i2.out"
check "ledger show reads it back" bash -c "'$RAILYARD' ledger --db '$PG_URL' show MT2347J0100T 2>&1 | grep -q MCX75310AAS-NEAT"
check "UPDATE on events is refused" bash -c "! pg_psql -c \"UPDATE events SET serial = 'x'\" 2> /dev/null"
check "DELETE on events is refused" bash -c "! pg_psql -c 'DELETE FROM events' 2> /dev/null"
check "TRUNCATE on events is refused" bash -c "! pg_psql -c 'TRUNCATE events CASCADE' 2> /dev/null"
check "the events are all still there" test "$(pg_psql -t -A -c 'SELECT count(*) FROM events')" -eq 2

# Four importers at once, each its own document of 200 cards: nothing lost, nothing doubled.
for n in 1 2 3 4; do
  { echo "serial,opn,kind,batch"; for i in $(seq 1 200); do printf 'MT24%02dX%05d,MCX75310AAS-NEAT,nic,B%d\n' "$n" "$i" "$n"; done; } > "$WORK/c$n.csv"
done
for n in 1 2 3 4; do "$RAILYARD" ledger --db "$PG_URL" import --as receiving-csv "$WORK/c$n.csv" > "$WORK/c$n.out" 2>&1 & done
wait
check "four concurrent importers: 800 more cards, 2 + 800 assets" test "$(pg_psql -t -A -c 'SELECT count(*) FROM assets')" -eq 802
check "one import row per document" test "$(pg_psql -t -A -c 'SELECT count(*) FROM imports')" -eq 5

PG_DB=postgres pg_psql -c "CREATE DATABASE empty" > /dev/null 2>&1
"$RAILYARD" ledger --db "${PG_URL%/railyard}/empty" list > /dev/null 2> "$WORK/empty.err"
rc=$?
check "a read on a database with no ledger exits 2" test "$rc" -eq 2
check "and says so" grep -q 'no ledger here' "$WORK/empty.err"
check "and creates nothing" test "$(PG_DB=empty pg_psql -t -A -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0
if [ "$fail" -ne 0 ]; then tail -30 "$WORK/suite.out"; cat "$WORK"/c1.out "$WORK/i1.out"; fi
finish
