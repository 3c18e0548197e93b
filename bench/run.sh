#!/usr/bin/env bash
# Benchmarks of record: the CLI end to end on the 100,000-GPU spec (wall time and peak RSS
# from /usr/bin/time, best of 3), then the Google Benchmark binary.
# Targets (issue "Foundation and fabric planner"): <= 1 s and <= 1 GiB on a 2-core machine.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
SPEC=bench/cluster-100k.yaml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
best_wall=""
best_rss=""
for i in 1 2 3; do
  rm -rf "$OUT/plan"
  # Exit 1 (findings) is a result, not a failure; time's last line holds the figures.
  /usr/bin/time -f "%e %M" -o "$OUT/time" "./$BUILD/railyard" plan "$SPEC" -o "$OUT/plan" > "$OUT/summary.txt" 2> /dev/null || true
  read -r wall rss < <(tail -n 1 "$OUT/time")
  if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; best_rss=$rss; fi
done
links=$(($(wc -l < "$OUT/plan/cutsheet.csv") - 1))
bytes=$(du -sb "$OUT/plan" | cut -f1)
echo "railyard plan $SPEC -o DIR: ${best_wall} s wall (best of 3), peak RSS $((best_rss / 1024)) MiB," \
  "$links links, $((bytes / 1000000)) MB written"
head -8 "$OUT/summary.txt"
"./$BUILD/plan_bench" --benchmark_counters_tabular=true
