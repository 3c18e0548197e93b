#!/usr/bin/env bash
# Benchmark of record for `railyard verify` (issue "Verify the cabling as built"): the
# 100,000-GPU plan (bench/cluster-100k.yaml) against synthetic `lldpctl -f json` from every
# switch with injected faults (swaps, pulls, moves); reports wall time and peak RSS, checks the
# findings are exactly the injected faults, and times jq extracting the same neighbour tuples
# as a baseline. Targets (issue #12): >= 20x faster than jq, <= 250 MiB peak RSS. verify reads
# plan.index (written beside plan.json by `plan -o`); the same run without it is timed too.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"./$BUILD/railyard" plan bench/cluster-100k.yaml -o "$WORK/plan" > /dev/null 2>&1 || true
"./$BUILD/lldp_gen" bench/cluster-100k.yaml "$WORK/lldp" 10
files=$(ls "$WORK/lldp" | wc -l)
mb=$(du -sm "$WORK/lldp" | cut -f1)
cat "$WORK"/lldp/*.json > /dev/null  # warm the page cache for both contenders

best=""
for i in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" verify --plan "$WORK/plan/plan.json" \
    --lldp "$WORK/lldp" --format csv > "$WORK/findings.csv" 2> "$WORK/verify.err" || true
  read -r wall rss < <(tail -n 1 "$WORK/time")
  if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_rss=$rss; fi
done
swapped=$(grep -c '^swapped,' "$WORK/findings.csv" || true)
missing=$(grep -c '^missing,' "$WORK/findings.csv" || true)
miswired=$(grep -c '^miswired,' "$WORK/findings.csv" || true)
other=$(($(wc -l < "$WORK/findings.csv") - 1 - swapped - missing - miswired))
echo "railyard verify: ${best} s wall (best of 3), peak RSS $((best_rss / 1024)) MiB; $files switch files, ${mb} MB of LLDP JSON"
echo "  findings: $swapped swapped, $missing missing, $miswired miswired, $other other (injected: 10, 10, 10, 0)"
expected_ok=1
for want in "swapped:$swapped" "missing:$missing" "miswired:$miswired"; do
  [ "${want#*:}" -eq 10 ] || expected_ok=0
done
[ "$other" -eq 0 ] || expected_ok=0
[ "$expected_ok" -eq 1 ] && echo "  exactly the injected faults were found" || echo "  MISMATCH with the injected faults"

# The same plan without its index (a plan.json from elsewhere, or edited): read as JSON.
mv "$WORK/plan/plan.index" "$WORK/plan.index.aside"
/usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" verify --plan "$WORK/plan/plan.json" \
  --lldp "$WORK/lldp" --format csv > /dev/null 2>&1 || true
read -r json_wall json_rss < <(tail -n 1 "$WORK/time")
mv "$WORK/plan.index.aside" "$WORK/plan/plan.index"
echo "  without plan.index (plan.json read as JSON): ${json_wall} s, peak RSS $((json_rss / 1024)) MiB"

if command -v jq > /dev/null; then
  start=$(date +%s.%N)
  jq -r '.lldp.interface[] | to_entries[] | [.key, (.value.chassis | keys[0]), .value.port.id.value] | @tsv' \
    "$WORK"/lldp/*.json > "$WORK/jq.tsv"
  end=$(date +%s.%N)
  jq_s=$(awk "BEGIN{printf \"%.2f\", $end - $start}")
  ratio=$(awk "BEGIN{printf \"%.1f\", $jq_s / $best}")
  echo "jq neighbour extraction of the same JSON: ${jq_s} s ($(wc -l < "$WORK/jq.tsv") tuples); railyard verify is ${ratio}x faster"
  rss_mib=$((best_rss / 1024))
  verdict="met"
  awk "BEGIN{exit !($ratio >= 20)}" || verdict="MISSED"
  [ "$rss_mib" -le 250 ] || verdict="MISSED"
  echo "  target >= 20x jq and <= 250 MiB: $verdict (${ratio}x, ${rss_mib} MiB)"
else
  echo "jq not installed: no baseline"
fi
