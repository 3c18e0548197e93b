#!/usr/bin/env bash
# railyard rollout plan from the README's example: the example fleet (real samples) against the
# 4-SU SuperPOD plan; every device in one wave or held back by the right gate; scripts are valid
# bash; bad input exits 2 and writes no state. Usage: rollout_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=$(cd "$(dirname "$RAILYARD")" && pwd)
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1
(cd "$SRC" && bash examples/rollout/fleet.sh "$(realpath --relative-to="$SRC" "$BUILD")") > "$WORK/fleet.ndjson"
check "example fleet: 127 hosts" test "$(wc -l < "$WORK/fleet.ndjson")" -eq 127
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" \
  --policy "$SRC/examples/rollout/policy.yaml" --plan "$WORK/plan/plan.json" -o "$WORK/state" > "$WORK/out.txt" 2> "$WORK/err.txt"
check "rollout plan exits 0" test $? -eq 0
J="$WORK/state/rollout.json"
jqtest() { jq -e "$@" > /dev/null; }
check "schema railyard.rollout/1" jqtest '.schema == "railyard.rollout/1"' "$J"
check "wave 0 is test, wave 1 canary" jqtest '.waves[0].name == "test" and .waves[1].name == "canary"' "$J"
check "wave 0: one host covers both PSIDs" jqtest '(.waves[0].hosts | length) == 1 and ([.waves[0].devices[].psid] | unique | length) == 2' "$J"
check "canary: one host per scalable unit (4)" jqtest '(.waves[1].hosts | length) == 4' "$J"
check "every device once: 127 cards + 15 second cards" jqtest '([.waves[].devices[]] | length) + (.skipped | length) == 142' "$J"
check "below the floor: moves through the intermediate image" jqtest '[.waves[].devices[] | select(.via.version == "28.39.1002")] | length == 1' "$J"
for rule in pending-activation at-target driver-too-old; do
  check "held back: $rule" jqtest --arg r "$rule" '[.skipped[] | select(.rule == $r)] | length == 1' "$J"
done
for s in "$WORK"/state/*.sh; do bash -n "$s" || { check "bash -n $(basename "$s")" false; }; done
check "every script parses" true
check "inventory has a group per wave" test "$(grep -c '^\[wave' "$WORK/state/inventory.ini")" -eq "$(jq '.waves | length' "$J")"
check "the summary names the waves" grep -q "^0 *test" "$WORK/out.txt"
# rollout check after the canary: all at target -> exit 0; one left behind and one new fault -> exit 1 + rollback.
check "facts before the rollout are kept" test -s "$WORK/state/facts-before/0000-fleet.ndjson"
CANARY=$(jq -c '.waves[1].hosts' "$J")
FIRST=$(jq -r '.waves[1].hosts[0]' "$J")
SECOND=$(jq -r '.waves[1].hosts[1]' "$J")
# Waves are checked in order: the canary only once the test wave is done.
"$RAILYARD" rollout check --state "$WORK/state" --wave 1 --facts "$WORK/fleet.ndjson" > /dev/null 2> "$WORK/order.err"
check "check: wave 1 before wave 0 is done: refused (exit 2), naming wave 0" sh -c "test $? -eq 2 && grep -q 'wave 0 (test) is ready' '$WORK/order.err'"
TESTW=$(jq -c '.waves[0].hosts' "$J")
jq -c --argjson w "$TESTW" 'select(.host.hostname as $h | $w | index($h)) | .firmware["19:00.0"].fw_version = "28.43.2026"
  | .firmware["3b:00.0"].fw_version = "26.43.2026"' "$WORK/fleet.ndjson" > "$WORK/after-test.ndjson"
"$RAILYARD" rollout check --state "$WORK/state" --wave 0 --facts "$WORK/after-test.ndjson" > /dev/null 2>&1
check "check: the test wave passes" test $? -eq 0
jq -c --argjson w "$CANARY" 'select(.host.hostname as $h | $w | index($h)) | .firmware["19:00.0"].fw_version = "28.43.2026"'   "$WORK/fleet.ndjson" > "$WORK/after-ok.ndjson"
"$RAILYARD" rollout check --state "$WORK/state" --wave 1 --facts "$WORK/after-ok.ndjson" --plan "$WORK/plan/plan.json" > "$WORK/check-ok.txt" 2>&1
check "check: all at target, nothing new: exit 0" test $? -eq 0
check "check: says the next wave may start" grep -q "pass: the next wave may start" "$WORK/check-ok.txt"
jq -c --argjson w "$CANARY" --arg f "$FIRST" --arg s "$SECOND" 'select(.host.hostname as $h | $w | index($h))
  | .firmware["19:00.0"].fw_version = (if .host.hostname == $f then "28.42.1000" else "28.43.2026" end)
  | if .host.hostname == $s then .pci[0].link_status.width = 8 else . end' "$WORK/fleet.ndjson" > "$WORK/after-bad.ndjson"
"$RAILYARD" rollout check --state "$WORK/state" --wave 1 --facts "$WORK/after-bad.ndjson" --format json > "$WORK/check-bad.json" 2>&1
check "check: a device behind and a new fault: exit 1" test $? -eq 1
check "check: names the device left behind, and its host" jqtest --arg f "$FIRST" '[.findings[] | select(.rule == "rollout-device-not-at-target" and .object == ("host " + $f) and .host == $f)] | length == 1' "$WORK/check-bad.json"
check "check: names the new finding" jqtest --arg s "$SECOND" '[.findings[] | select(.rule == "rollout-new-finding" and .object == ("host " + $s))] | length == 1' "$WORK/check-bad.json"
check "check: writes a rollback script" bash -n "$WORK/state/wave-01-canary-rollback.sh"

# status reads the checks back; a two-person policy wants someone other than the planner.
"$RAILYARD" rollout status --state "$WORK/state" > "$WORK/status.txt"
check "status: the canary's last check halted" grep -Eq "^1 +canary +halted" "$WORK/status.txt"
printf 'two_person: true\n' > "$WORK/two.yaml"
USER=alice "$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --policy "$WORK/two.yaml" -o "$WORK/two" > /dev/null 2>&1
"$RAILYARD" rollout status --state "$WORK/two" > "$WORK/two-status.txt"
check "two_person: wave 0 waits for approval" grep -Eq "^0 +test +waiting-for-approval" "$WORK/two-status.txt"
"$RAILYARD" rollout approve --state "$WORK/two" --wave 0 --by alice 2> /dev/null
check "two_person: the planner cannot approve" test $? -eq 2
"$RAILYARD" rollout approve --state "$WORK/two" --wave 0 --by bob > /dev/null
"$RAILYARD" rollout status --state "$WORK/two" > "$WORK/two-status.txt"
check "two_person: approved by a second person, ready" grep -Eq "^0 +test +ready +approved by bob" "$WORK/two-status.txt"

# The host script against stand-ins for flint, mlxfwmanager and mlxfwreset (the real tools' output
# lines): the card below the floor goes through the intermediate image, then the target; a re-run
# changes nothing; a wrong sha256 is refused.
mkdir -p "$WORK/fake/bin" "$WORK/fake/img"
cat > "$WORK/fake/bin/flint" <<'FAKE'
#!/usr/bin/env bash
f="$FAKE_STATE/${2//[:\/]/_}"; ver=$(cat "$f" 2> /dev/null || echo 28.35.2000)
printf 'Image type:            FS4\nFW Version:            %s\nPSID:                  MT_0000001244\n' "$ver"
FAKE
cat > "$WORK/fake/bin/mlxfwmanager" <<'FAKE'
#!/usr/bin/env bash
f="$FAKE_STATE/${2//[:\/]/_}"; basename "$4" | sed -n 's/.*rel-\([0-9]*\)_\([0-9]*\)_\([0-9]*\).*/\1.\2.\3/p' > "$f"
FAKE
cat > "$WORK/fake/bin/mlxfwreset" <<'FAKE'
#!/usr/bin/env bash
[ "$3" = query ] && echo "3: Driver restart and PCI reset                                 -Supported     (default)"
exit 0
FAKE
chmod +x "$WORK"/fake/bin/*
echo v39 > "$WORK/fake/img/fw-cx7-rel-28_39_1002.bin"
echo v43 > "$WORK/fake/img/fw-cx7-rel-28_43_2026.bin"
S39=$(sha256sum "$WORK/fake/img/fw-cx7-rel-28_39_1002.bin" | cut -d' ' -f1)
S43=$(sha256sum "$WORK/fake/img/fw-cx7-rel-28_43_2026.bin" | cut -d' ' -f1)
cat > "$WORK/fake/target.yaml" <<EOT
firmware:
  - psid: MT_0000001244
    image: fw-cx7-rel-28_43_2026.bin
    version: 28.43.2026
    sha256: $S43
    min_direct: 28.39.1002
    intermediate: {image: fw-cx7-rel-28_39_1002.bin, version: 28.39.1002, sha256: $S39}
EOT
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$WORK/fake/target.yaml" -o "$WORK/fake/state" > /dev/null 2>&1
SCRIPT=$(grep -l '^  dgx009)' "$WORK"/fake/state/wave-*[0-9a-z].sh | grep -v -e drain -e resume | head -1)
mkdir -p "$WORK/fake/st"
run() { sed 's/^host=.*/host=dgx009/' "$SCRIPT" | FAKE_STATE="$WORK/fake/st" PATH="$WORK/fake/bin:$PATH" IMAGES="$WORK/fake/img" bash; }
run > "$WORK/fake/run1.txt" 2>&1
check "host script: two steps, exit 0" test $? -eq 0
check "host script: the intermediate first, then the target" grep -Pzoq 'now at 28.39.1002\n.*now at 28.43.2026' "$WORK/fake/run1.txt"
run > "$WORK/fake/run2.txt" 2>&1
check "host script: a re-run burns nothing" sh -c "! grep -q 'now at' '$WORK/fake/run2.txt' && grep -q 'already at 28.43.2026' '$WORK/fake/run2.txt'"
rm -f "$WORK"/fake/st/*
echo tampered > "$WORK/fake/img/fw-cx7-rel-28_39_1002.bin"
run > "$WORK/fake/run3.txt" 2>&1
check "host script: a wrong sha256 is refused, exit 1" test $? -eq 1
check "host script: and nothing was burned" test -z "$(ls "$WORK/fake/st")"

# Switch firmware first: the example's switch inventory (compute plane below Quantum-2's minimum),
# spines before leaves, hosts behind a switch held back when there is no image for it.
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --plan "$WORK/plan/plan.json" \
  --switches "$SRC/examples/rollout/switches.csv" -o "$WORK/sw" > "$WORK/sw.txt" 2>&1
check "switches: plan exits 0" test $? -eq 0
SJ="$WORK/sw/rollout.json"
check "switches: every switch wave before every host wave" jqtest '[.waves[].kind] | (index("host")) > (rindex("switch"))' "$SJ"
check "switches: spines before leaves" jqtest '[.waves[] | select(.kind == "switch") | .devices[0].tier] | (rindex("spine")) < (index("leaf"))' "$SJ"
check "switches: one spine per plane per wave" jqtest '[.waves[] | select(.kind == "switch") | [.devices[] | select(.tier != "leaf") | .plane] | (length == (unique | length))] | all' "$SJ"
check "switches: a leaf wave drains the hosts behind it" jqtest '[.waves[] | select(.kind == "switch" and .devices[0].tier == "leaf") | (.drain | length) > 0] | all' "$SJ"
check "switches: 48 compute switches move" jqtest '[.waves[].devices[] | select(.kind == "switch")] | length == 48' "$SJ"
# Leaf waves per rail drain each scalable unit once per rail; per unit (the default), once, except
# where a host that is not drained hangs from several of a unit's leaves: UFM on SU4's rails 1-4.
drains() { jq '[.waves[] | select(.kind == "switch" and .devices[0].tier == "leaf") | .drain[]] | group_by(.) | map(length)' "$1"; }
check "switches, per unit: the nodes of SU1-3 drained once, SU4's four times (UFM's leaves apart)" \
  jqtest '(map(select(. == 1)) | length) == 96 and (map(select(. == 4)) | length) == 31' <(drains "$SJ")
check "switches, per unit: UFM's four leaves in four waves" jqtest \
  '[.waves[] | select(.kind == "switch") | [.devices[].host | select(test("su04-r[1-4]$"))] | length] | max == 1' "$SJ"
check "switches, per unit: the first leaf wave takes all 16 leaves of two units" \
  jqtest '[.waves[] | select(.kind == "switch" and .devices[0].tier == "leaf")][0].devices | length == 16' "$SJ"
printf 'leaf_waves: rail\n' > "$WORK/rail.yaml"
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --plan "$WORK/plan/plan.json" \
  --policy "$WORK/rail.yaml" --switches "$SRC/examples/rollout/switches.csv" -o "$WORK/sw-rail" > /dev/null 2>&1
RJ="$WORK/sw-rail/rollout.json"
check "switches, leaf_waves: rail: never two leaves that share a host, so every node is drained once per rail (8)" \
  jqtest 'max == 8 and min == 8' <(drains "$RJ")
check "switches, both modes: the same 48 switches move" \
  test "$(jq '[.waves[].devices[] | select(.kind == "switch")] | length' "$RJ")" -eq 48
SW0=$(ls "$WORK"/sw/wave-00-*.sh | grep -v -e drain -e resume)
check "switches: the switch script parses" bash -n "$SW0"
check "switches: the switch script checks the family and the sha256" sh -c "grep -q refusing '$SW0' && grep -q 'sha256sum -c' '$SW0'"
# rollout check of the first switch wave on the inventory taken after it.
SW=$(jq -r '.waves[0].hosts[0]' "$SJ")
sed "s/^$SW,31.2014.0946/$SW,31.2014.2084/" "$SRC/examples/rollout/switches.csv" > "$WORK/sw-after.csv"
"$RAILYARD" ledger --db "$WORK/ledger.db" import "$WORK/fleet.ndjson" > /dev/null 2>&1
"$RAILYARD" rollout check --state "$WORK/sw" --wave 0 --switches "$WORK/sw-after.csv" --ledger "$WORK/ledger.db" --by carol > "$WORK/swc.txt" 2>&1
check "switches: check passes when the switch runs its target" test $? -eq 0
"$RAILYARD" rollout check --state "$WORK/sw" --wave 0 --switches "$SRC/examples/rollout/switches.csv" --format json > "$WORK/swc-bad.json" 2> /dev/null
check "switches: check halts when it does not" test $? -eq 1
check "switches: names the switch" jqtest --arg s "$SW" '[.findings[] | select(.rule == "rollout-device-not-at-target" and .object == ("switch " + $s))] | length == 1' "$WORK/swc-bad.json"
"$RAILYARD" rollout check --state "$WORK/sw" --wave 0 > /dev/null 2> "$WORK/swc-none.txt"
check "switches: a switch wave without --switches is an input error (exit 2)" test $? -eq 2
check "switches: and says to give --switches" grep -q 'give --switches' "$WORK/swc-none.txt"
# A host wave's check is recorded on each card's serial in the ledger.
HW=$(jq '[.waves[] | select(.kind == "host")][0].index' "$SJ")
jq -c --argjson w "$(jq -c ".waves[$HW].hosts" "$SJ")" 'select(.host.hostname as $h | $w | index($h)) | .firmware["19:00.0"].fw_version = "28.43.2026"
  | .firmware["3b:00.0"].fw_version = "26.43.2026"' "$WORK/fleet.ndjson" > "$WORK/sw-host-after.ndjson"
# Every switch wave done first (the inventory after them all: every switch at its target).
sed 's/,31\.2014\.0946/,31.2014.2084/' "$SRC/examples/rollout/switches.csv" > "$WORK/sw-all-after.csv"
for ((w = 0; w < HW; w++)); do
  "$RAILYARD" rollout check --state "$WORK/sw" --wave "$w" --switches "$WORK/sw-all-after.csv" > /dev/null 2>&1 || echo "FAIL: switch wave $w"
done
"$RAILYARD" rollout check --state "$WORK/sw" --wave "$HW" --facts "$WORK/sw-host-after.ndjson" --ledger "$WORK/ledger.db" --by carol > /dev/null 2> "$WORK/swl.txt"
check "ledger: the check is recorded" grep -q "recorded [1-9][0-9]* device result" "$WORK/swl.txt"
"$RAILYARD" ledger --db "$WORK/ledger.db" history MT2347J0100T > "$WORK/hist.txt" 2>&1
check "ledger: the card's history has the wave's result" grep -q "rollout.wave-$(printf %02d "$HW")-test.*at-target 28.43.2026" "$WORK/hist.txt"

# Interrupted at any point (the process killed as it writes: SIGXFSZ past a file-size limit), the
# state directory holds the whole rollout or none of it, and `rollout status` reads what is there.
for kb in 1 2 4 8 16 32 64 128; do
  rm -rf "$WORK/kill"
  (ulimit -f "$kb"; exec "$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" \
    --plan "$WORK/plan/plan.json" --switches "$SRC/examples/rollout/switches.csv" -o "$WORK/kill") > /dev/null 2>&1
  if [ -e "$WORK/kill/rollout.json" ]; then
    check "killed at ${kb} KiB: a rollout.json is whole" jqtest '.schema == "railyard.rollout/1"' "$WORK/kill/rollout.json"
    check "killed at ${kb} KiB: every wave has its script" test "$(ls "$WORK"/kill/wave-*[0-9a-z].sh | grep -cv -e drain -e resume -e rollback)" -eq "$(jq '.waves | length' "$WORK/kill/rollout.json")"
    check "killed at ${kb} KiB: status reads it" "$RAILYARD" rollout status --state "$WORK/kill"
  else
    check "killed at ${kb} KiB: no rollout.json, no wave script" test -z "$(ls "$WORK/kill" 2> /dev/null | grep -v -e '^facts-before$' -e '\.tmp')"
  fi
done
cp -r "$WORK/sw" "$WORK/kill2"
"$RAILYARD" rollout status --state "$WORK/kill2" > "$WORK/kill2-before.txt" 2>&1
(ulimit -f 0; exec "$RAILYARD" rollout check --state "$WORK/kill2" --wave 0 --switches "$WORK/sw-after.csv") > /dev/null 2>&1
"$RAILYARD" rollout status --state "$WORK/kill2" > "$WORK/kill2.txt" 2>&1
check "a check killed as it records: status reads the state as it was before" cmp -s "$WORK/kill2-before.txt" "$WORK/kill2.txt"
"$RAILYARD" rollout check --state "$WORK/kill2" --wave 0 --switches "$WORK/sw-after.csv" > /dev/null 2>&1
"$RAILYARD" rollout status --state "$WORK/kill2" > "$WORK/kill2.txt" 2>&1
check "and the same check run again completes: the wave is done" grep -Eq '^0 +switch-test +done' "$WORK/kill2.txt"

# The report: a row per device (moved or held back), CSV and one self-contained HTML page.
"$RAILYARD" rollout report --state "$WORK/state" --format csv > "$WORK/report.csv"
check "report csv: a row per device" test "$(($(wc -l < "$WORK/report.csv") - 1))" -eq 142
"$RAILYARD" rollout report --state "$WORK/state" > "$WORK/report.html"
check "report html: self-contained (no script, no link)" sh -c "grep -q '<table>' '$WORK/report.html' && ! grep -Eq '<script|<link|src=' '$WORK/report.html'"

# Bad input: an image without sha256 -> exit 2, file:line, no state.
sed '/sha256: 0*1$/d' "$SRC/examples/rollout/target.yaml" > "$WORK/bad.yaml"
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$WORK/bad.yaml" -o "$WORK/bad-state" 2> "$WORK/bad.err"
check "target without sha256 exits 2" test $? -eq 2
check "names file:line and the key" grep -q "bad.yaml:5:5: firmware\[0\].sha256: required" "$WORK/bad.err"
check "no state written" test ! -e "$WORK/bad-state"
printf 'max_per_leaf: 0\n' > "$WORK/policy0.yaml"
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --policy "$WORK/policy0.yaml" 2> "$WORK/p0.err"
check "a bound of 0 exits 2" test $? -eq 2

# Rollout state and gates honest (issue "Rollout state and every gate: atomic, honest, never green on nothing").
# A reboot the image needs and the reset cannot do: the host script's own exit status, 3.
cat > "$WORK/fake/bin/mlxfwreset" <<'FAKE'
#!/usr/bin/env bash
[ "$3" = query ] && echo "1: Only ARM side will be reset                                 -Supported     (default)"
exit 0
FAKE
rm -rf "$WORK/fake/st"; mkdir -p "$WORK/fake/st"
echo v39 > "$WORK/fake/img/fw-cx7-rel-28_39_1002.bin"  # the image a case above tampered with, put back
run > "$WORK/fake/run-reboot.txt" 2>&1
check "host script: a reboot needed and not done: exit 3" test $? -eq 3
# A host named by its FQDN in the facts is found by its short name too.
jq -c 'if .host.hostname == "dgx009" then .host.hostname = "dgx009.cluster.example" else . end' "$WORK/fleet.ndjson" > "$WORK/fqdn.ndjson"
"$RAILYARD" rollout plan --facts "$WORK/fqdn.ndjson" --target "$WORK/fake/target.yaml" -o "$WORK/fqdn" > /dev/null 2>&1
check "host script: a host in the facts by FQDN matches its short name" grep -q "^  dgx009.cluster.example|dgx009)" "$WORK"/fqdn/wave-*.sh
# Two facts documents of one host: neither is planned, and it is said.
{ cat "$WORK/fleet.ndjson"; head -1 "$WORK/fleet.ndjson"; } > "$WORK/dup.ndjson"
"$RAILYARD" rollout plan --facts "$WORK/dup.ndjson" --target "$SRC/examples/rollout/target.yaml" --format json > "$WORK/dup.json" 2> /dev/null
check "two facts documents of one host: rollout-duplicate-host, its devices held back" \
  jqtest '([.findings[] | select(.rule == "rollout-duplicate-host")] | length == 1) and ([.skipped[] | select(.rule == "duplicate-host")] | length >= 2)' "$WORK/dup.json"
# Re-planning into a used state directory: refused, naming what is there; --replace archives it.
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" -o "$WORK/state" > /dev/null 2> "$WORK/replan.err"
check "re-plan into a used state dir: refused (exit 2), naming its checks" sh -c "test $? -eq 2 && grep -q 'holds a rollout already (rollout.json, [1-9][0-9]* check' '$WORK/replan.err'"
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" -o "$WORK/state" --replace > /dev/null 2> "$WORK/replace.err"
check "--replace: the old rollout moved into superseded-<time>/" sh -c "test -d \"\$(ls -d '$WORK'/state/superseded-* | head -1)/checks\" && grep -q 'is in .*superseded-' '$WORK/replace.err'"
"$RAILYARD" rollout status --state "$WORK/state" > "$WORK/replaced-status.txt"
check "--replace: the new plan's waves start over (wave 0 ready, nothing done)" sh -c "grep -Eq '^0 +test +ready' '$WORK/replaced-status.txt' && ! grep -q ' done ' '$WORK/replaced-status.txt'"
# The facts from standard input are planned and kept.
rm -rf "$WORK/stdin-state"
"$RAILYARD" rollout plan --facts - --target "$SRC/examples/rollout/target.yaml" -o "$WORK/stdin-state" < "$WORK/fleet.ndjson" > /dev/null 2>&1
check "--facts -: exit 0, and facts-before holds standard input's bytes" sh -c "test $? -eq 0 && cmp -s '$WORK/fleet.ndjson' \"\$(ls '$WORK'/stdin-state/facts-before/* | head -1)\""
# The two-person rule: names compared without case or surrounding space; blank or invisible refused;
# a plan with no identity refused; of 20 concurrent approvals one is recorded and the others told.
rm -rf "$WORK/two2"
USER=alice "$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --policy "$WORK/two.yaml" -o "$WORK/two2" > /dev/null 2>&1
for who in 'Alice' ' alice' 'alice ' 'ALICE' $'\xef\xbc\xa1lice' $'alice\xc2\xa0' $'\xef\xbd\x81\xef\xbd\x8c\xef\xbd\x89\xef\xbd\x83\xef\xbd\x85'; do
  "$RAILYARD" rollout approve --state "$WORK/two2" --wave 0 --by "$who" 2> /dev/null
  check "two-person: '$who' is the planner: refused" test $? -eq 2
done
"$RAILYARD" rollout approve --state "$WORK/two2" --wave 0 --by "$(printf 'ali\u200bce')" 2> /dev/null
check "two-person: a zero-width character in the name: refused" test $? -eq 2
"$RAILYARD" rollout approve --state "$WORK/two2" --wave 0 --by "   " 2> /dev/null
check "two-person: a blank approver: refused" test $? -eq 2
(unset USER; exec "$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --policy "$WORK/two.yaml" -o "$WORK/two-anon") > /dev/null 2> "$WORK/anon.err"
check "two-person: no identity for the planner: refused, nothing written" sh -c "test $? -eq 2 && grep -q 'give --by' '$WORK/anon.err' && test ! -e '$WORK/two-anon/rollout.json'"
for i in $(seq 1 20); do "$RAILYARD" rollout approve --state "$WORK/two2" --wave 0 --by "approver$i" > "$WORK/appr-$i.out" 2>&1 & done
wait
check "20 concurrent approvals: exactly one recorded" test "$(grep -l 'approved already' "$WORK"/appr-*.out | wc -l)" -eq 19
check "and the one kept is one of them" grep -q '"by": "approver' "$WORK/two2/approvals/wave-00-test.json"
"$RAILYARD" rollout approve --state "$WORK/two2" --wave 2 --by bob 2> "$WORK/appr-order.err"
check "approve wave 2 before wave 0 and 1 are done: refused" sh -c "test $? -eq 2 && grep -q 'wave 0 (test) is' '$WORK/appr-order.err'"
# Tampered state: a wave index out of range, a check file of the wrong shape: exit 2 naming the file.
cp -r "$WORK/two2" "$WORK/tamper"
jq '.waves[1].index = 99' "$WORK/two2/rollout.json" > "$WORK/tamper/rollout.json"
"$RAILYARD" rollout report --state "$WORK/tamper" --format csv > /dev/null 2> "$WORK/tamper.err"
check "a wave index out of range: report exits 2 naming /waves/1/index (was a segfault)" sh -c "test $? -eq 2 && grep -q 'rollout.json: /waves/1/index' '$WORK/tamper.err'"
cp "$WORK/two2/rollout.json" "$WORK/tamper/rollout.json"
mkdir -p "$WORK/tamper/checks"; echo '{"pass": "yes"}' > "$WORK/tamper/checks/wave-00-test.json"
"$RAILYARD" rollout status --state "$WORK/tamper" > /dev/null 2> "$WORK/tamper2.err"
check "a check file of the wrong shape: status exits 2 naming it" sh -c "test $? -eq 2 && grep -q 'checks/wave-00-test.json' '$WORK/tamper2.err'"
# The drain script: a controller squeue cannot reach stops the wait (exit 1), never reads as drained;
# an appliance behind a leaf (UFM) is not in the drain list.
mkdir -p "$WORK/slurm-down"
printf '#!/bin/sh\nexit 0\n' > "$WORK/slurm-down/scontrol"
printf '#!/bin/sh\necho "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n' > "$WORK/slurm-down/squeue"
chmod +x "$WORK"/slurm-down/*
PATH="$WORK/slurm-down:$PATH" bash "$WORK/state/wave-00-test-drain.sh" > /dev/null 2> "$WORK/drain.err"
check "drain: squeue cannot reach the controller: exit 1, with squeue's message" \
  sh -c "test $? -eq 1 && grep -q 'Unable to contact' '$WORK/drain.err' && grep -q 'cannot ask Slurm' '$WORK/drain.err'"
# Slurm knows a node by its short name: FQDNs in the facts are drained as such, and two hosts that
# would be one node name are refused before anything is written.
jq -c '.host.hostname += ".cluster.example"' "$WORK/fleet.ndjson" > "$WORK/all-fqdn.ndjson"
"$RAILYARD" rollout plan --facts "$WORK/all-fqdn.ndjson" --target "$SRC/examples/rollout/target.yaml" -o "$WORK/all-fqdn" > /dev/null 2>&1
check "drain: FQDN facts drain the short node names" sh -c \
  "test $? -eq 0 && grep -q 'NodeName=dgx' '$WORK/all-fqdn/wave-00-test-drain.sh' && ! grep -l 'cluster.example' '$WORK'/all-fqdn/*-drain.sh '$WORK'/all-fqdn/*-resume.sh"
jq -c 'if .host.hostname == "dgx002.cluster.example" then .host.hostname = "dgx001.other.example" else . end' "$WORK/all-fqdn.ndjson" > "$WORK/fqdn-clash.ndjson"
mkdir -p "$WORK/clash"
"$RAILYARD" rollout plan --facts "$WORK/fqdn-clash.ndjson" --target "$SRC/examples/rollout/target.yaml" -o "$WORK/clash" > /dev/null 2> "$WORK/clash.err"
check "drain: two hosts of one short name: exit 2 naming both, nothing written" sh -c \
  "test $? -eq 2 && grep -q 'dgx001.cluster.example' '$WORK/clash.err' && grep -q 'dgx001.other.example' '$WORK/clash.err' && test -z \"\$(ls -A '$WORK/clash')\""
printf 'slurm_node_name: hostname\n' > "$WORK/fullname.yaml"
"$RAILYARD" rollout plan --facts "$WORK/fqdn-clash.ndjson" --target "$SRC/examples/rollout/target.yaml" --policy "$WORK/fullname.yaml" -o "$WORK/fullname" > /dev/null 2>&1
check "drain: slurm_node_name: hostname drains the names as the facts give them" sh -c \
  "test $? -eq 0 && grep -ql 'cluster.example' '$WORK'/fullname/*-drain.sh"
check "drain: no appliance (ufm) in any switch wave's drain list" test -z "$(grep -l ufm "$WORK"/sw/wave-*-drain.sh)"

finish
