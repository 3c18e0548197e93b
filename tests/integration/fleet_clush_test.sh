#!/usr/bin/env bash
# The fleet recipe of docs/doctor.md and docs/facts.md, run as written with ClusterShell: `clush -N`
# gathers one `railyard collect` line per host into NDJSON that doctor reads. ClusterShell's exec
# worker (-R exec) runs the command locally once per node, %h naming the node, so each "host"
# collects from its own saved capture of real tool outputs. It also shows why the old recipe's
# `clush -b` cannot work: its headers are not JSON, and doctor says so with the line.
# Usage: fleet_clush_test.sh RAILYARD SOURCE_DIR. Exits 77 without clush.
set -u
RAILYARD=$1
SRC=$2
command -v clush > /dev/null || { echo "SKIP: clush not installed (scripts/install-deps.sh installs clustershell)"; exit 77; }
WORK=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
F="$SRC/tests/fixtures"

# Four hosts, each a capture of real samples; gpu004 runs other firmware, so the fleet drifts.
for n in 1 2 3 4; do
  d="$WORK/captures/gpu00$n"
  mkdir -p "$d"
  echo "gpu00$n" > "$d/hostname.txt"
  cp "$F/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" "$d/lspci-vvv.txt"
  cp "$F/ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt" "$d/ibstat.txt"
  cp "$F/ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt" "$d/ip-d-link.txt"
done

# The recipe: one line per host, no node prefix.
clush -R exec -w 'gpu[001-004]' -N "$RAILYARD collect -q --from $WORK/captures/%h" > "$WORK/fleet.ndjson" 2> "$WORK/clush.err"
check "clush -N collect exits 0" test $? -eq 0
check "one line per host" test "$(wc -l < "$WORK/fleet.ndjson")" -eq 4
check "every line is a JSON object" test "$(grep -c '^{' "$WORK/fleet.ndjson")" -eq 4
"$RAILYARD" doctor "$WORK/fleet.ndjson" --format json > "$WORK/doctor.json" 2> "$WORK/doctor.err"
status=$?
check "doctor reads the gathered fleet" test "$status" -le 1
check "doctor counts four hosts" grep -q '"hosts": 4' "$WORK/doctor.json"
for n in 1 2 3 4; do check "gpu00$n is in the report" grep -q "gpu00$n" "$WORK/doctor.json"; done

# The old recipe: -b gathers under ---- node ---- headers, which no JSON reader takes.
clush -R exec -w 'gpu[001-002]' -b "$RAILYARD collect -q --from $WORK/captures/%h" > "$WORK/gathered.txt" 2> /dev/null
"$RAILYARD" doctor "$WORK/gathered.txt" > /dev/null 2> "$WORK/gathered.err"
check "doctor refuses clush -b output" test $? -eq 2
check "and names the line" grep -q "gathered.txt:1" "$WORK/gathered.err"
finish
