#!/usr/bin/env bash
# OpenSM's fat-tree routing over the planned fabric, in ibsim: with railyard's root and compute-node
# GUID files (opensm -a / -u), ftree ranks the planned roots even after every host of one leaf is gone
# (a half-cabled build), and a route between two hosts of one rail in different scalable units goes
# leaf -> spine -> leaf as planned. Usage: opensm_test.sh RAILYARD SOURCE_DIR. Exits 77 without ibsim/opensm.
set -u
RAILYARD=$1
SRC=$2
for tool in ibsim ibsim-run opensm ibnetdiscover ibtracert; do
  command -v $tool > /dev/null || { echo "SKIP: $tool not installed (scripts/install-deps.sh installs it)"; exit 77; }
done
WORK=$(mktemp -d)
SIM_PID=""
stop_sim() {
  if [ -n "$SIM_PID" ]; then kill "$SIM_PID" 2> /dev/null; wait "$SIM_PID" 2> /dev/null; fi
  SIM_PID=""
}
trap 'stop_sim; rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

start_sim() {  # start_sim TOPO
  (cd "$WORK" && exec ibsim -s "$1" > "$WORK/ibsim.log" 2>&1) &
  SIM_PID=$!
  for _ in $(seq 1 100); do
    grep -q "Network simulator ready" "$WORK/ibsim.log" 2> /dev/null && return 0
    sleep 0.1
  done
  echo "FAIL: ibsim did not start"; cat "$WORK/ibsim.log"; exit 1
}

"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1 || { echo "FAIL: plan"; exit 1; }
ROOTS="$WORK/plan/opensm-root-guids-compute.txt"
CNS="$WORK/plan/opensm-cn-guids-compute.txt"
check "16 root GUIDs (the spines)" test "$(wc -l < "$ROOTS")" -eq 16
check "a CN GUID per compute-node port (not the UFM appliances)" test "$(wc -l < "$CNS")" -eq "$(grep -c '^Ca.*"dgx' "$WORK/plan/ibnetdiscover-compute.topo")"

# Every host of compute-leaf-su01-r1 removed: its Ca blocks, and the leaf's ports that reached them.
awk -v RS= -v ORS='\n\n' '!/^vendid=0x2c9\ndevid=0x1021/ || !/"compute-leaf-su01-r1"/' "$WORK/plan/ibnetdiscover-compute.topo" |
  awk '/^Switch/ {leaf = ($0 ~ /"compute-leaf-su01-r1"/)} !(leaf && /^\[[0-9]+\]\t"H-/) {print}' > "$WORK/no-hosts-r1.topo"
check "the mutated fabric lost 32 hosts" test "$(grep -c '^Ca' "$WORK/no-hosts-r1.topo")" -eq "$(($(grep -c '^Ca' "$WORK/plan/ibnetdiscover-compute.topo") - 32))"

start_sim "$WORK/no-hosts-r1.topo"
timeout 120 ibsim-run opensm -o -R ftree -a "$ROOTS" -u "$CNS" -f "$WORK/osm.log" > "$WORK/osm.out" 2>&1
check "opensm ftree runs with the GUID files" test $? -eq 0
check "ftree: the planned rank (2)" grep -q "FatTree rank (roots to leaf switches): 2" "$WORK/osm.log"
check "ftree: the planned roots (16 spines)" grep -q "Fabric has 16 switches at rank 0 (roots)" "$WORK/osm.log"
check "ftree: every leaf a leaf, the empty one too" grep -q "Fabric has 32 switches at rank 1 (32 of them leafs)" "$WORK/osm.log"
check "ftree: tables configured" grep -q "ftree tables configured on all switches" "$WORK/osm.log"
stop_sim

# The whole fabric: a route between two rail-1 hosts of different scalable units.
start_sim "$WORK/plan/ibnetdiscover-compute.topo"
timeout 120 ibsim-run opensm -o -R ftree -a "$ROOTS" -u "$CNS" -f "$WORK/osm-full.log" > /dev/null 2>&1
timeout 60 ibsim-run ibnetdiscover > "$WORK/lids.txt" 2> /dev/null
lid() { grep -A1 "^Ca.*\"$1\"" "$WORK/lids.txt" | tail -1 | sed -n 's/.*# lid \([0-9]*\) .*/\1/p'; }
src=$(lid "dgx001 mlx5_0"); dst=$(lid "dgx033 mlx5_0")
timeout 60 ibsim-run ibtracert "$src" "$dst" > "$WORK/trace.txt" 2> /dev/null
hops=$(grep -o '"[^"]*"' "$WORK/trace.txt" | tr -d '"' | paste -sd' ' -)
check "route dgx001 -> dgx033 (rail 1): leaf su01-r1, a spine, leaf su02-r1 ($hops)" \
  bash -c "echo '$hops' | grep -Eq '^dgx001 mlx5_0 compute-leaf-su01-r1 compute-spine-[0-9]+ compute-leaf-su02-r1 dgx033 mlx5_0'"
stop_sim
if [ "$fail" -ne 0 ]; then tail -20 "$WORK/osm.log"; cat "$WORK/trace.txt"; fi

finish
