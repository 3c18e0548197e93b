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

# The InfiniBand fabric of a 100,000-GPU cluster from one host: iblinkinfo over 12,500 hosts x 8 NDR
# ports = 100,000 host links on 3,125 leaves x 64 ports (the layout of the real ibsim capture:
# tests/fixtures/switch/ib/iblinkinfo-ibsim-lab8-leaf-port7-unlinked.txt), every 64th port
# Down/Polling, plus ibqueryerrors with symbol errors on every 100th leaf. What a user would run
# instead: awk over the same iblinkinfo counting the ports that are not Active (it names no cable,
# reads no counters and knows no plan).
LEAVES=${LEAVES:-3125}
mkdir -p "$WORK/ib"
awk -v leaves="$LEAVES" 'BEGIN {
  for (s = 0; s < leaves; s++) {
    printf "Switch: 0x%016x compute-leaf-%05d:\n", 268435456 + s, s
    for (p = 1; p <= 64; p++) {
      if (p % 64 == 0) printf "        %4d %4d[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n", s + 1, p
      else printf "        %4d %4d[  ] ==( 4X         106.25 Gbps Active/  LinkUp)==>    %5d    1[  ] \"gpu%05d mlx5_%d\" ( )\n", s + 1, p, 1 + (s * 64 + p) % 49151, s * 4 + int((p - 1) / 16), (p - 1) % 8
    }
  }
}' > "$WORK/ib/iblinkinfo.txt"
awk -v leaves="$LEAVES" 'BEGIN {
  for (s = 0; s < leaves; s += 100) {
    printf "Errors for 0x%x \"compute-leaf-%05d\"\n   GUID 0x%x port 3: [SymbolErrorCounter == 250] [LinkDownedCounter == 3]\n", 268435456 + s, s, 268435456 + s
  }
  printf "\n## Summary: %d nodes checked, %d bad nodes found\n##          %d ports checked, %d ports have errors beyond threshold\n", leaves, int((leaves + 99) / 100), leaves * 64, int((leaves + 99) / 100)
}' > "$WORK/ib/ibqueryerrors.txt"
best=""
for i in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" collect -q --switch --from "$WORK/ib" -o "$WORK/ib.ndjson"
  read -r wall rss < <(tail -n 1 "$WORK/time")
  if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_rss=$rss; fi
done
lines=$(wc -l < "$WORK/ib/iblinkinfo.txt")
echo "railyard collect --switch, iblinkinfo of $LEAVES leaves x 64 ports ($lines lines, $(($(stat -c %s "$WORK/ib/iblinkinfo.txt") / 1048576)) MiB): ${best} s wall (best of 3), peak RSS $((best_rss / 1024)) MiB"
/usr/bin/time -f "%e" -o "$WORK/time" awk '/==\(/ && !/Active/ {n++} END {print n + 0}' "$WORK/ib/iblinkinfo.txt" > "$WORK/awk.out"
echo "  awk counting the ports that are not Active, the same file: $(tail -n 1 "$WORK/time") s ($(cat "$WORK/awk.out") ports)"
/usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" doctor "$WORK/ib.ndjson" --format json > "$WORK/ib-findings.json" 2> /dev/null || true
read -r wall rss < <(tail -n 1 "$WORK/time")
got=$(jq '[.findings[] | select(.rule == "port-error-counters-high")] | length' "$WORK/ib-findings.json")
want=$(((LEAVES + 99) / 100))
echo "railyard doctor over those $LEAVES switch documents: ${wall} s wall, peak RSS $((rss / 1024)) MiB"
[ "$got" -eq "$want" ] && echo "  every injected error counter found once ($got)" || { echo "  MISMATCH: $got counter findings, $want injected"; exit 1; }
