#!/usr/bin/env bash
# Benchmark of record for the switch side of `railyard doctor` (issue "Switch side"): 12,500 hosts'
# facts (one capture of real samples, a distinct name each) and 2,000 switches x 64 ports of switch
# facts (`railyard collect --switch` over an EOS `show interfaces status` of 64 rows in the layout of
# the real 7280SR2A capture, every 32nd port errdisabled), in one doctor run. Target <= 5 s.
# Checks that every injected errdisabled port is found, once.
set -euo pipefail
BUILD=${1:-build}
HOSTS=${HOSTS:-12500}
SWITCHES=${SWITCHES:-2000}
cd "$(dirname "$0")/.."
command -v jq > /dev/null || { echo "SKIP: needs jq"; exit 0; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/cap" "$WORK/sw"
cp tests/fixtures/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt "$WORK/cap/lspci-vvv.txt"
cp tests/fixtures/ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt "$WORK/cap/ibstat.txt"
echo base > "$WORK/cap/hostname.txt"
"./$BUILD/railyard" collect -q --from "$WORK/cap" > "$WORK/base.json"
jq -c --argjson n "$HOSTS" '. as $b | range(0; $n) as $i | $b | .host.hostname = ("gpu" + ($i | tostring))' "$WORK/base.json" > "$WORK/hosts.ndjson"
{
  head -n 1 tests/fixtures/switch-interfaces/arista-eos-show-interfaces-status-errdisabled-not-present.txt
  for p in $(seq 1 64); do
    if [ $((p % 32)) -eq 0 ]; then st=errdisabled; else st=connected; fi
    printf '%-10s %-11s %-12s routed   full   400G   400GBASE-SR4                   \n' "Et$p/1" "COMP-$p" "$st"
  done
} > "$WORK/sw/eos-show-interfaces-status.txt"
echo leaf > "$WORK/sw/hostname.txt"
"./$BUILD/railyard" collect -q --switch --from "$WORK/sw" > "$WORK/leaf.json"
jq -c --argjson n "$SWITCHES" '. as $b | range(0; $n) as $i | $b | .hostname = ("leaf" + ($i | tostring))' "$WORK/leaf.json" > "$WORK/switches.ndjson"
best=""
for i in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" doctor "$WORK/hosts.ndjson" "$WORK/switches.ndjson" --format json \
    > "$WORK/findings.json" 2> /dev/null || true
  read -r wall rss < <(tail -n 1 "$WORK/time")
  if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_rss=$rss; fi
done
verdict=met
awk "BEGIN{exit !($best <= 5)}" || verdict=MISSED
echo "railyard doctor, $HOSTS hosts + $SWITCHES switches x 64 ports: ${best} s wall (best of 3), peak RSS $((best_rss / 1024)) MiB"
echo "  target <= 5 s: $verdict"
got=$(jq '[.findings[] | select(.rule == "switch-port-errdisabled")] | length' "$WORK/findings.json")
want=$((SWITCHES * 2))
[ "$got" -eq "$want" ] && echo "  every injected errdisabled port found once ($got)" || { echo "  MISMATCH: $got errdisabled findings, $want injected"; exit 1; }
