#!/usr/bin/env bash
# Benchmark of record for `railyard serve` (issue "See the cluster"): /api/v1/findings over 10,000
# hosts' facts (one capture of real samples, a distinct name each, against the 100,000-GPU bench
# plan) must answer in <= 50 ms. Beside it, what a user runs without the server: doctor over the
# same facts.
set -euo pipefail
BUILD=${1:-build}
HOSTS=${HOSTS:-10000}
cd "$(dirname "$0")/.."
command -v curl > /dev/null && command -v jq > /dev/null || { echo "SKIP: needs curl and jq"; exit 0; }
WORK=$(mktemp -d)
PID=""
trap '[ -n "$PID" ] && kill $PID 2> /dev/null; rm -rf "$WORK"' EXIT
"./$BUILD/railyard" plan bench/cluster-100k.yaml -o "$WORK/plan" > /dev/null 2>&1
mkdir -p "$WORK/cap"
cp tests/fixtures/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt "$WORK/cap/lspci-vvv.txt"
cp tests/fixtures/ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt "$WORK/cap/ibstat.txt"
echo base > "$WORK/cap/hostname.txt"
"./$BUILD/railyard" collect -q --from "$WORK/cap" > "$WORK/base.json"
jq -c --argjson n "$HOSTS" '. as $b | range(0; $n) as $i | $b | .host.hostname = ("node" + ($i + 1 | tostring | ("00000" + .)[-5:]))' \
  "$WORK/base.json" > "$WORK/fleet.ndjson"
start=$(date +%s.%N)
"./$BUILD/railyard" serve --plan "$WORK/plan/plan.json" --facts "$WORK/fleet.ndjson" --listen 127.0.0.1:0 > "$WORK/addr" 2> /dev/null &
PID=$!
until [ -s "$WORK/addr" ]; do sleep 0.1; done
URL=$(head -1 "$WORK/addr")
echo "railyard serve: $HOSTS hosts loaded (doctor run once) in $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $start}") s"
count=$(curl -s "${URL}api/v1/findings" | jq .count)
for q in "" "?severity=error" "?rack=r01-01"; do
  best=""
  for i in 1 2 3 4 5; do
    t=$(curl -s -o /dev/null -w '%{time_total}' "${URL}api/v1/findings$q")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  ms=$(awk "BEGIN{printf \"%.1f\", $best * 1000}")
  verdict=met
  awk "BEGIN{exit !($ms <= 50)}" || verdict=MISSED
  echo "  GET /api/v1/findings$q: ${ms} ms (best of 5; target <= 50 ms: $verdict)"
done
echo "  ($count findings in all)"
/usr/bin/time -f "%e" -o "$WORK/time" "./$BUILD/railyard" doctor "$WORK/fleet.ndjson" --plan "$WORK/plan/plan.json" --format json > /dev/null 2>&1 || true
echo "railyard doctor over the same facts, without the server: $(tail -1 "$WORK/time") s"
