#!/usr/bin/env bash
# Loads railyard's exported InfiniBand topology into a real simulated fabric (ibsim), discovers
# it with the real ibnetdiscover, and checks that every planned link (from the cut-sheet, an
# independent rendering of the plan) is discovered and nothing else is.
# Usage: ibsim_test.sh RAILYARD SOURCE_DIR. Exits 77 (skipped) when ibsim is not installed.
set -u
RAILYARD=$1
SRC=$2
if ! command -v ibsim > /dev/null || ! command -v ibsim-run > /dev/null || ! command -v ibnetdiscover > /dev/null; then
  echo "SKIP: ibsim, ibsim-run or ibnetdiscover not installed (scripts/install-deps.sh installs them)"
  exit 77
fi
WORK=$(mktemp -d)
SIM_PID=""
cleanup() {
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2> /dev/null && wait "$SIM_PID" 2> /dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

"$RAILYARD" plan "$SRC/tests/integration/superpod-1su.yaml" -o "$WORK/plan" > /dev/null || {
  echo "FAIL: plan"
  exit 1
}
TOPO="$WORK/plan/ibnetdiscover-compute.topo"

# ibsim serves the fabric on a socket named after the user; keep it private to this run.
export IBSIM_SOCKNAME="railyard-test-$$"
(cd "$WORK" && exec ibsim -s "$TOPO" > "$WORK/ibsim.log" 2>&1) &
SIM_PID=$!
for _ in $(seq 1 50); do
  grep -q "Network simulator ready" "$WORK/ibsim.log" 2> /dev/null && break
  sleep 0.2
done
if ! grep -q "Network simulator ready" "$WORK/ibsim.log"; then
  echo "FAIL: ibsim did not start"
  cat "$WORK/ibsim.log"
  exit 1
fi
timeout 60 ibsim-run ibnetdiscover > "$WORK/discovered.txt" 2> "$WORK/ibnetdiscover.err"
if [ ! -s "$WORK/discovered.txt" ]; then
  echo "FAIL: ibnetdiscover printed nothing"
  cat "$WORK/ibnetdiscover.err"
  exit 1
fi

# Discovered links from the switch blocks: "desc:port" pairs, each link once.
awk '
  /^Switch/ { match($0, /# "[^"]*"/); sw = substr($0, RSTART + 3, RLENGTH - 4); next }
  /^(Ca|Hca)/ { sw = ""; next }
  /^\[/ && sw != "" {
    match($0, /^\[[0-9]+\]/); lp = substr($0, 2, RLENGTH - 2)
    match($0, /"\]*[HS]-[0-9a-f]+"\[[0-9]+\]/); rem = substr($0, RSTART, RLENGTH); sub(/.*\[/, "", rem); sub(/\]/, "", rem)
    match($0, /# "[^"]*"/); rd = substr($0, RSTART + 3, RLENGTH - 4)
    a = sw ":" lp; b = rd ":" rem
    print (a < b) ? a " <-> " b : b " <-> " a
  }' "$WORK/discovered.txt" | sort -u > "$WORK/discovered.links"

# Planned links from the cut-sheet: a CA is "host mlx5_N" port 1, switches by port number.
awk -F, 'NR > 1 && $2 == "compute" {
    a = ($3 == "endpoint-leaf") ? $5 " " $6 ":1" : $5 ":" $6
    b = $9 ":" $10
    print (a < b) ? a " <-> " b : b " <-> " a
  }' "$WORK/plan/cutsheet.csv" | sort -u > "$WORK/planned.links"

planned=$(wc -l < "$WORK/planned.links")
discovered=$(wc -l < "$WORK/discovered.links")
if ! diff "$WORK/planned.links" "$WORK/discovered.links" > "$WORK/diff.txt"; then
  echo "FAIL: planned and discovered links differ (< planned only, > discovered only):"
  head -20 "$WORK/diff.txt"
  echo "0 passed, 1 failed"
  exit 1
fi
if [ "$planned" -ne 508 ]; then  # 31 x 8 + 4 node/UFM links + 8 leaves x 32 uplinks
  echo "FAIL: expected 508 planned links, got $planned"
  exit 1
fi
echo "ibsim: all $planned planned links discovered by ibnetdiscover ($discovered discovered)"
echo "1 passed, 0 failed"
