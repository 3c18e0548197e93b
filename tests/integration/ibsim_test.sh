#!/usr/bin/env bash
# Real InfiniBand peers: railyard's exported topology is loaded into ibsim, discovered by the
# real ibnetdiscover, and verified against the plan: first as planned (no findings), then with
# the cabling mutated the way technicians get it wrong (two cables swapped, one removed, one
# moved to a wrong port, one extra cable) -- the verifier must report exactly those faults.
# Usage: ibsim_test.sh RAILYARD SOURCE_DIR FABRIC_MUTATOR. Exits 77 (skipped) without ibsim.
set -u
RAILYARD=$1
SRC=$2
MUTATOR=$3
if ! command -v ibsim > /dev/null || ! command -v ibsim-run > /dev/null || ! command -v ibnetdiscover > /dev/null; then
  echo "SKIP: ibsim, ibsim-run or ibnetdiscover not installed (scripts/install-deps.sh installs them)"
  exit 77
fi
WORK=$(mktemp -d)
SIM_PID=""
cleanup() {
  if [ -n "$SIM_PID" ]; then kill "$SIM_PID" 2> /dev/null; wait "$SIM_PID" 2> /dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# discover TOPO OUT: run the fabric in ibsim and write what ibnetdiscover sees.
discover() {
  local topo=$1 out=$2
  (cd "$WORK" && exec ibsim -s "$topo" > "$WORK/ibsim.log" 2>&1) &
  SIM_PID=$!
  for _ in $(seq 1 100); do
    grep -q "Network simulator ready" "$WORK/ibsim.log" 2> /dev/null && break
    sleep 0.1
  done
  if ! grep -q "Network simulator ready" "$WORK/ibsim.log"; then
    echo "FAIL: ibsim did not start"; cat "$WORK/ibsim.log"; exit 1
  fi
  timeout 60 ibsim-run ibnetdiscover > "$out" 2> "$WORK/ibnetdiscover.err"
  kill "$SIM_PID" 2> /dev/null
  wait "$SIM_PID" 2> /dev/null
  SIM_PID=""
  if [ ! -s "$out" ]; then echo "FAIL: ibnetdiscover printed nothing"; cat "$WORK/ibnetdiscover.err"; exit 1; fi
}

SPEC="$SRC/tests/integration/superpod-1su.yaml"
"$RAILYARD" plan "$SPEC" -o "$WORK/plan" > /dev/null 2>&1 || { echo "FAIL: plan"; exit 1; }

# ibsim 0.10 reports every link at SDR, so link speeds are not compared (--ignore-speed);
# widths are. As planned: every planned link is discovered, nothing else.
discover "$WORK/plan/ibnetdiscover-compute.topo" "$WORK/clean.txt"
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --ibnetdiscover "$WORK/clean.txt" --ignore-speed > "$WORK/clean.out" 2>&1
check "clean fabric verifies with exit 0" test $? -eq 0
check "clean fabric: all 508 links ok" grep -q "^508 planned links: 508 ok, 0 missing, 0 miswired" "$WORK/clean.out"
check "clean fabric: no findings" grep -q "^no findings" "$WORK/clean.out"

# Mutated: COMP-000001/COMP-000009 swapped at the leaf, COMP-000020 pulled, COMP-000005 moved
# from leaf r5 port 1 to the free port 32, an extra cable between the r6 and r7 leaves.
"$MUTATOR" "$SPEC" "$WORK/mutated.topo" --swap COMP-000001,COMP-000009 --remove COMP-000020 \
  --move COMP-000005:32 --add compute-leaf-su01-r6:32,compute-leaf-su01-r7:32 || { echo "FAIL: mutator"; exit 1; }
discover "$WORK/mutated.topo" "$WORK/mutated.txt"
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --ibnetdiscover "$WORK/mutated.txt" --ignore-speed --format csv > "$WORK/mutated.csv" 2> "$WORK/mutated.err"
check "mutated fabric exits 1" test $? -eq 1
findings=$(($(wc -l < "$WORK/mutated.csv") - 1))
check "exactly four findings (got $findings)" test "$findings" -eq 4
check "the swap is one finding naming both cables" grep -q '^swapped,error,,cables COMP-000001 and COMP-000009,.*,compute,COMP-000001;COMP-000009,' "$WORK/mutated.csv"
check "the swap says which plugs to exchange" grep -q 'exchange the plugs in compute-leaf-su01-r1:1 and compute-leaf-su01-r1:2' "$WORK/mutated.csv"
check "the pulled cable is missing" grep -q '^missing,error,,cable COMP-000020,.*,compute,COMP-000020,' "$WORK/mutated.csv"
check "the moved cable is miswired to port 32" grep -q '^miswired,error,,cable COMP-000005,.*,compute,COMP-000005,dgx001:mlx5_4,compute-leaf-su01-r5:1,dgx001:mlx5_4,compute-leaf-su01-r5:32$' "$WORK/mutated.csv"
check "the extra cable is unexpected" grep -q '^unexpected,warning,,compute-leaf-su01-r6:32 - compute-leaf-su01-r7:32,.*,compute,,,,compute-leaf-su01-r6:32,compute-leaf-su01-r7:32$' "$WORK/mutated.csv"
if [ "$fail" -ne 0 ]; then head -20 "$WORK/mutated.csv"; fi

finish
