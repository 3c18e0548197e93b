#!/usr/bin/env bash
# Benchmark of record for `railyard rollout plan` (issue "Staged firmware and driver rollout"):
# 12,500 hosts x 8 ConnectX-7 (100,000 devices; the nodes of bench/cluster-100k.yaml) whose facts are
# one capture of real samples with a distinct hostname each, against that plan's scalable units and
# leaves. Target: <= 2 s on the 2-core reference machine. Baseline: the spreadsheet-and-for-loop a
# team uses instead has no planner to time; the bench reports railyard alone, and jq reading the
# same facts once (the least any tool must do) for scale.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
command -v jq > /dev/null || { echo "SKIP: needs jq"; exit 0; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/cap"
cp tests/fixtures/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt "$WORK/cap/lspci-vvv.txt"
for d in 19 1a 1b 1c 99 9a 9b 9c; do
  cp tests/fixtures/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt "$WORK/cap/flint-q-$d:00.0.txt"
done
echo base > "$WORK/cap/hostname.txt"
"./$BUILD/railyard" collect -q --from "$WORK/cap" > "$WORK/base.json"
jq -c '. as $b | range(1; 12501) as $i | $b | .host.hostname = ("node" + ($i | tostring | ("00000" + .)[-5:]))
  | .host.ofed = "MLNX_OFED_LINUX-24.10-1.1.4.0"' "$WORK/base.json" > "$WORK/fleet.ndjson"
"./$BUILD/railyard" plan bench/cluster-100k.yaml -o "$WORK/plan" > /dev/null 2>&1 || true
devices=$(($(jq -c '.firmware | length' "$WORK/base.json") * 12500))
# Every compute switch below Quantum-2's minimum: the switch waves are planned too.
{ echo switch,firmware; jq -r '.devices[] | select(.role == "switch" and .plane == "compute") | .name + ",31.2014.0946"' "$WORK/plan/plan.json"; } > "$WORK/switches.csv"
switches=$(($(wc -l < "$WORK/switches.csv") - 1))
# run NAME ARGS...: best of 3 wall seconds and its peak RSS, into $best and $best_rss.
run() {
  best=""
  for i in 1 2 3; do
    rm -rf "$WORK/state"
    /usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" rollout plan --facts "$WORK/fleet.ndjson" \
      --target examples/rollout/target.yaml --plan "$WORK/plan/plan.json" "$@" -o "$WORK/state" > "$WORK/out.txt" 2>&1
    read -r wall rss < <(tail -n 1 "$WORK/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_rss=$rss; fi
  done
  waves=$(jq '.waves | length' "$WORK/state/rollout.json")
  moved=$(jq '[.waves[].devices | length] | add' "$WORK/state/rollout.json")
}
# The benchmark of record (the issue's): the hosts' 100,000 devices.
run
echo "railyard rollout plan: ${best} s wall (best of 3), peak RSS $((best_rss / 1024)) MiB; 12500 hosts, $devices devices, $moved planned in $waves waves"
verdict=met
awk "BEGIN{exit !($best <= 2)}" || verdict=MISSED
echo "  target <= 2 s: $verdict"
# With the switches too (no target of record: most of the extra time is the kernel creating the
# four files of each of the ~600 switch waves).
run --switches "$WORK/switches.csv"
echo "  with $switches switches as well: ${best} s, peak RSS $((best_rss / 1024)) MiB, $moved planned in $waves waves"
start=$(date +%s.%N)
jq -c '[.host.hostname, (.firmware | length)]' "$WORK/fleet.ndjson" > /dev/null
end=$(date +%s.%N)
echo "  jq reading the same facts once: $(awk "BEGIN{printf \"%.2f\", $end - $start}") s"
