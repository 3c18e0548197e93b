#!/usr/bin/env bash
# railyard burnin end to end, through the scripts it writes: `burnin plan` on the README's example,
# every round run by run-all.sh with stand-ins for ssh and ib_write_bw (the stand-in prints a real
# ib_write_bw capture from tests/fixtures/burnin, its bandwidth set per host), then `burnin check`:
# a healthy fleet passes with no suspect; one slow host is named; `burnin bisect` writes the next
# round, which runs into the same results and is checked with the campaign's history.
# Usage: burnin_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$(cd "$2" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1
"$RAILYARD" burnin plan --plan "$WORK/plan/plan.json" --hosts 'dgx[001-016]' --duration 5 -o "$WORK/b" 2> "$WORK/plan.err"
check "burnin plan: exit 0" test $? -eq 0
check "burnin plan: says rounds, pairs and hosts" grep -q "rail pattern on plane compute: 3 round(s), 192 pair(s) over 16 host(s)" "$WORK/plan.err"
check "burnin plan: burnin-plan.json, three round scripts and run-all.sh" sh -c "test -s '$WORK/b/burnin-plan.json' && test -x '$WORK/b/round-002.sh' && test -x '$WORK/b/run-all.sh'"
bad=0
for f in "$WORK"/b/*.sh; do sh -n "$f" || bad=$((bad + 1)); done
check "burnin plan: every script is valid sh" test "$bad" -eq 0
check "burnin plan: the client runs ib_write_bw on its NIC against the server's host, for DURATION seconds" \
  grep -q '^on dgx[0-9]* "ib_write_bw -d mlx5_[0-7] -F --report_gbits -D $DURATION -p 185[0-9][0-9] dgx[0-9]*" ' "$WORK/b/round-000.sh"

# Stand-ins: `ssh -n -o BatchMode=yes HOST CMD` runs CMD here with RY_HOST=HOST; ib_write_bw prints the
# real capture (a server prints nothing and waits a moment), slow where either end is $RY_SLOW.
mkdir -p "$WORK/bin"
cat > "$WORK/bin/ssh" << 'SSH'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -n) shift ;; -o) shift 2 ;; *) break ;; esac; done
RY_HOST=$1 PATH="$RY_BIN:$PATH" exec sh -c "$2"
SSH
# RY_SLOW_DEV: only that NIC of the slow host, and only through its cable (its loopback is fast).
cat > "$WORK/bin/ib_write_bw" << 'BW'
#!/bin/sh
last=""; dev=""; prev=""
for a in "$@"; do [ "$prev" = "-d" ] && dev=$a; prev=$a; last=$a; done
case $last in dgx*|localhost) ;; *) sleep 0.2; exit 0 ;; esac
rate=392.34
if [ "$RY_HOST" = "${RY_SLOW:-none}" ] || [ "$last" = "${RY_SLOW:-none}" ]; then
  if [ -z "${RY_SLOW_DEV:-}" ] || { [ "$dev" = "$RY_SLOW_DEV" ] && [ "$last" != localhost ]; }; then rate=151.20; fi
fi
sed "s/392.38             392.34/$rate             $rate/" "$RY_FIXTURE"
BW
# mlxlink: the real BlueField-3 capture with its counters, for the snapshots around each round.
cat > "$WORK/bin/mlxlink" << MLX
#!/bin/sh
cat "$SRC/tests/fixtures/mlxlink/bluefield3-qsfp28-fs-passive-dac-temperature-na-with-counters.txt"
MLX
chmod +x "$WORK/bin/ssh" "$WORK/bin/ib_write_bw" "$WORK/bin/mlxlink"
export LISTEN_WAIT=0.1 RY_BIN="$WORK/bin" RY_FIXTURE="$SRC/tests/fixtures/burnin/perftest/ib_write_bw-gbits-ib-ndr400-cx7-client-392g.txt"
PATH="$WORK/bin:$PATH" sh "$WORK/b/run-all.sh" > /dev/null 2>&1
check "run-all.sh: a result per pair (192)" test "$(find "$WORK/b/results" -name 'pair-*.txt' ! -name '*.server.txt' | wc -l)" -eq 192
"$RAILYARD" burnin check --plan "$WORK/plan/plan.json" "$WORK/b/results" > "$WORK/clean.txt" 2>&1
check "burnin check, a healthy fleet: exit 0" test $? -eq 0
check "burnin check: passed 192, no suspect" sh -c "grep -q 'passed 192, failed 0, missing 0' '$WORK/clean.txt' && grep -q 'no suspect' '$WORK/clean.txt'"
check "burnin check: every NIC's counters read before and after each round (3 x 128)" grep -q 'counters under load: 384 NIC snapshot pair(s) read, 0 missing' "$WORK/clean.txt"

# One slow host.
rm -rf "$WORK/b/results"
RY_SLOW=dgx007 PATH="$WORK/bin:$PATH" sh "$WORK/b/run-all.sh" > /dev/null 2>&1
"$RAILYARD" burnin check --plan "$WORK/plan/plan.json" "$WORK/b/results" --format json > "$WORK/slow.json" 2> /dev/null
check "burnin check, one slow host: exit 1" test $? -eq 1
check "burnin check: the host is the one suspect, confirmed, with its evidence" \
  jq -e '.schema == "railyard.burnin/1" and (.suspects | length) == 1 and .suspects[0].kind == "host" and .suspects[0].name == "dgx007"
         and .suspects[0].confidence == "confirmed" and (.suspects[0].evidence | map(select(.failed)) | length) == 24' "$WORK/slow.json"
"$RAILYARD" burnin bisect --plan "$WORK/plan/plan.json" "$WORK/b/results" -o "$WORK/none" 2> "$WORK/none.err"
check "burnin bisect, the host confirmed already: nothing to bisect, nothing written" sh -c "grep -q 'no suspect to bisect' '$WORK/none.err' && test ! -e '$WORK/none'"

# One bad link: dgx007's rail-4 NIC, slow through its cable, fast on its own.
rm -rf "$WORK/b/results"
RY_SLOW=dgx007 RY_SLOW_DEV=mlx5_3 PATH="$WORK/bin:$PATH" sh "$WORK/b/run-all.sh" > /dev/null 2>&1
"$RAILYARD" burnin check --plan "$WORK/plan/plan.json" "$WORK/b/results" --format json > "$WORK/link.json" 2> /dev/null
check "burnin check, one bad link: that NIC and its cable, confirmed" \
  jq -e '(.suspects | length) == 1 and .suspects[0].kind == "link" and .suspects[0].name == "dgx007 mlx5_3" and .suspects[0].confidence == "confirmed"
         and (.suspects[0].cable | startswith("COMP-")) and .next_round.pairs[0].server == .next_round.pairs[0].client' "$WORK/link.json"
"$RAILYARD" burnin bisect --plan "$WORK/plan/plan.json" "$WORK/b/results" -o "$WORK/b1" 2> "$WORK/bisect.err"
check "burnin bisect: the next round, a loopback of the NIC" sh -c "test -x '$WORK/b1/round-003.sh' && test ! -e '$WORK/b1/round-000.sh' && grep -q 'localhost' '$WORK/b1/round-003.sh'"
RY_SLOW=dgx007 RY_SLOW_DEV=mlx5_3 PATH="$WORK/bin:$PATH" sh "$WORK/b1/run-all.sh" > /dev/null 2>&1
check "bisect round: its results go beside the campaign's" test -d "$WORK/b/results/bisect-round-003"
"$RAILYARD" burnin check --plan "$WORK/plan/plan.json" "$WORK/b/results" --burnin "$WORK/b1/burnin-plan.json" --format json > "$WORK/after.json" 2> /dev/null
check "after the loopback: the cable or the leaf port, not the card; nothing left to bisect" \
  jq -e '(.suspects | length) == 1 and .suspects[0].kind == "link" and (.suspects[0].reason | test("loopback was fast"))
         and (.next_round.pairs | length) == 0' "$WORK/after.json"

# Bad input: exit 2, a message naming what is wrong.
"$RAILYARD" burnin plan --plan "$WORK/plan/plan.json" --hosts 'dgx[001-004],nosuch' -o "$WORK/x" 2> "$WORK/bad.err"
check "burnin plan --hosts naming an unknown host: exit 2, naming it, nothing written" sh -c "test $? -eq 2 && grep -q nosuch '$WORK/bad.err' && test ! -e '$WORK/x'"
echo '{"schema":"railyard.burnin-plan/1","rounds":[' > "$WORK/cut.json"
"$RAILYARD" burnin check --plan "$WORK/plan/plan.json" "$WORK/b/results" --burnin "$WORK/cut.json" 2> "$WORK/cut.err"
check "burnin check on a cut burnin-plan.json: exit 2, naming the file" sh -c "test $? -eq 2 && grep -q 'cut.json' '$WORK/cut.err'"
finish
