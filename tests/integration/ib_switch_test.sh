#!/usr/bin/env bash
# The InfiniBand switch side on real peers: the lab plan's fabric in ibsim under opensm, faults
# injected on ibsim's console (symbol errors and link downs on one leaf port, transmit discards on
# another, a third port unlinked), then the real iblinkinfo, ibqueryerrors and perfquery saved to a
# directory. `collect --switch` must give one document per leaf and `doctor --plan` exactly the three
# faults, each naming its cable. Usage: ib_switch_test.sh RAILYARD SOURCE_DIR. Exits 77 without the tools.
set -u
RAILYARD=$1
SRC=$2
for tool in ibsim ibsim-run opensm iblinkinfo ibqueryerrors perfquery; do
  command -v $tool > /dev/null || { echo "SKIP: $tool not installed (scripts/install-deps.sh installs it)"; exit 77; }
done
WORK=$(mktemp -d)
SIM_PID=""
OSM_PID=""
cleanup() {
  [ -n "$OSM_PID" ] && kill "$OSM_PID" 2> /dev/null && wait "$OSM_PID" 2> /dev/null
  exec 3>&- 2> /dev/null
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2> /dev/null && wait "$SIM_PID" 2> /dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

"$RAILYARD" plan "$SRC/examples/lab-8-node.yaml" -o "$WORK/plan" > /dev/null 2>&1 || { echo "FAIL: plan"; exit 1; }
mkfifo "$WORK/console"
(cd "$WORK" && exec ibsim -s "$WORK/plan/ibnetdiscover-compute.topo" < "$WORK/console" > "$WORK/ibsim.log" 2>&1) &
SIM_PID=$!
exec 3> "$WORK/console"  # ibsim's console: held open so that it reads commands until the end
for _ in $(seq 1 100); do
  grep -q "Network simulator ready" "$WORK/ibsim.log" 2> /dev/null && break
  sleep 0.1
done
grep -q "Network simulator ready" "$WORK/ibsim.log" || { echo "FAIL: ibsim did not start"; cat "$WORK/ibsim.log"; exit 1; }
(cd "$WORK" && exec ibsim-run opensm -d2 -f "$WORK/osm.log" > "$WORK/osm.out" 2>&1) &
OSM_PID=$!
# Until opensm has brought the fabric up (every switch port with a LID, the CAs Active).
for _ in $(seq 1 150); do
  grep -q "SUBNET UP" "$WORK/osm.log" 2> /dev/null && break
  sleep 0.2
done
check "opensm brought the subnet up" grep -q "SUBNET UP" "$WORK/osm.log"
# compute-leaf-001 is S-0002c90300000800, compute-leaf-002 S-0002c90300000900 (the plan's GUIDs).
{
  echo 'PerformanceSet "S-0002c90300000800"[3] PortCounters.SymbolErrorCounter=250'
  echo 'PerformanceSet "S-0002c90300000800"[3] PortCounters.LinkDownedCounter=3'
  echo 'PerformanceSet "S-0002c90300000900"[5] PortCounters.PortXmitDiscards=2000'
  echo 'Unlink "S-0002c90300000800"[7]'
} >&3
for _ in $(seq 1 50); do
  grep -q 'Unlink' "$WORK/ibsim.log" 2> /dev/null && grep -q 'PortXmitDiscards has been set' "$WORK/ibsim.log" && break
  sleep 0.1
done
mkdir "$WORK/fabric"
sleep 2  # the unlink reaches opensm as a trap; iblinkinfo scans the fabric afresh anyway
timeout 60 ibsim-run iblinkinfo > "$WORK/fabric/iblinkinfo.txt" 2> /dev/null
timeout 60 ibsim-run ibqueryerrors > "$WORK/fabric/ibqueryerrors.txt" 2> /dev/null
LID=$(awk '/^Switch: .* compute-leaf-001:/ {getline; print $1; exit}' "$WORK/fabric/iblinkinfo.txt")
timeout 60 ibsim-run perfquery "$LID" 3 > "$WORK/fabric/perfquery.txt" 2> /dev/null
check "iblinkinfo saw both leaves" test "$(grep -c '^Switch:' "$WORK/fabric/iblinkinfo.txt")" -eq 2
check "perfquery answered for compute-leaf-001 (LID $LID) port 3" grep -q "SymbolErrorCounter:\.*250" "$WORK/fabric/perfquery.txt"

"$RAILYARD" collect --switch --from "$WORK/fabric" -o "$WORK/switches.ndjson" 2> "$WORK/collect.err"
check "collect --switch exits 0" test $? -eq 0
check "one document per leaf" test "$(wc -l < "$WORK/switches.ndjson")" -eq 2
check "the CA lines are said once, not dropped" grep -q "63 CA (host) port line(s)" "$WORK/collect.err"

printf 'disabled_rules: [ib-link-degraded]\n' > "$WORK/policy.yaml"  # ibsim trains every link at 4X SDR
"$RAILYARD" doctor "$WORK/switches.ndjson" --plan "$WORK/plan/plan.json" --policy "$WORK/policy.yaml" --format json > "$WORK/doctor.json" 2> "$WORK/doctor.err"
check "doctor exits 1 (an error finding)" test $? -eq 1
n=$(jq '.findings | length' "$WORK/doctor.json")
check "exactly three findings (got $n)" test "$n" -eq 3
check "port 7 of compute-leaf-001 is a planned cable without a link" \
  jq -e '.findings[] | select(.rule == "switch-planned-port-down" and .host == "compute-leaf-001" and .object == "port 7" and (.message | test("COMP-[0-9]+ to lab002 mlx5_4")))' "$WORK/doctor.json"
check "port 3: 250 symbol errors and 3 link downs" \
  jq -e '.findings[] | select(.rule == "port-error-counters-high" and .host == "compute-leaf-001" and .object == "port 3" and (.message | test("3 link_downed, 250 symbol")))' "$WORK/doctor.json"
check "compute-leaf-002 port 5: 2000 transmit discards" \
  jq -e '.findings[] | select(.rule == "port-error-counters-high" and .host == "compute-leaf-002" and .object == "port 5" and (.message | test("2000 xmit_discards")))' "$WORK/doctor.json"
# Without the policy: every simulated link is below the plan's 400G (62 host links up).
"$RAILYARD" doctor "$WORK/switches.ndjson" --plan "$WORK/plan/plan.json" --format json > "$WORK/all.json" 2> /dev/null
d=$(jq '[.findings[] | select(.rule == "ib-link-degraded" and .severity == "error")] | length' "$WORK/all.json")
check "ib-link-degraded: the 63 links up below the plan's rate (got $d)" test "$d" -eq 63
if [ "$fail" -ne 0 ]; then cat "$WORK/collect.err" "$WORK/doctor.err"; jq -c '.findings[] | [.rule, .host, .object, .message]' "$WORK/doctor.json"; tail -5 "$WORK/ibsim.log"; fi

finish
