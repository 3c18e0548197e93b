#!/usr/bin/env bash
# railyard serve on a real socket: the superpod example's plan, four hosts' facts collected from real
# samples, and a verify result of the plan's own fabric. The API's answers must equal what doctor and
# the plan say; it must refuse writes, an unauthenticated request when a token is set, and an open
# address without a token; it reloads facts that change; and the dashboard page, in headless
# Chromium, draws the summary, one box per rack and the findings. Usage: serve_test.sh RAILYARD SOURCE_DIR.
set -u
RAILYARD=$1
SRC=$2
command -v curl > /dev/null || { echo "SKIP: curl not installed (scripts/install-deps.sh installs it)"; exit 77; }
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2> /dev/null; wait "$p" 2> /dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export HOME="$WORK"

"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1 || { echo "FAIL: plan"; exit 1; }
mkdir -p "$WORK/cap" "$WORK/facts"
cp "$SRC/tests/fixtures/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" "$WORK/cap/lspci-vvv.txt"
cp "$SRC/tests/fixtures/ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt" "$WORK/cap/ibstat.txt"
echo base > "$WORK/cap/hostname.txt"
"$RAILYARD" collect -q --from "$WORK/cap" > "$WORK/base.json" || { echo "FAIL: collect"; exit 1; }
for h in dgx001 dgx002 dgx003 dgx004; do jq -c --arg h "$h" '.host.hostname = $h' "$WORK/base.json"; done > "$WORK/facts/fleet.ndjson"
# The compute fabric as discovered, one cable short: dgx001 mlx5_0's, gone from both its ends' blocks.
guid=$(sed -n 's/^Ca.*"\(H-[0-9a-f]*\)".*"dgx001 mlx5_0"$/\1/p' "$WORK/plan/ibnetdiscover-compute.topo")
port=$(grep -A1 '^Ca.*"dgx001 mlx5_0"$' "$WORK/plan/ibnetdiscover-compute.topo" | sed -n '2s/^\[1\](\([0-9a-f]*\)).*/\1/p')
grep -v "$guid" "$WORK/plan/ibnetdiscover-compute.topo" | grep -v "^\[1\]($port)" > "$WORK/discovered.topo"
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --ibnetdiscover "$WORK/discovered.topo" --ignore-speed --format json \
  > "$WORK/verify.json" 2> /dev/null

# A ledger with two batches, and the README's example rollout planned (tests/integration/rollout_test.sh).
printf 'serial,opn,kind,batch\nMT2347J0100T,MCX75310AAS-NEAT,nic,B1\nMT2347J0101T,MCX75310AAS-NEAT,nic,B1\nMT2019VS04757,MCP7Y00-N001,cable,B2\n' > "$WORK/recv.csv"
"$RAILYARD" ledger --db "$WORK/ledger.db" import --as receiving-csv "$WORK/recv.csv" > /dev/null 2>&1
(cd "$SRC" && bash examples/rollout/fleet.sh "$(realpath --relative-to="$SRC" "$(dirname "$RAILYARD")")") > "$WORK/rfleet.ndjson" 2> /dev/null
"$RAILYARD" rollout plan --facts "$WORK/rfleet.ndjson" --target "$SRC/examples/rollout/target.yaml" -o "$WORK/rollout" > /dev/null 2>&1
waves=$("$RAILYARD" rollout status --state "$WORK/rollout" 2> /dev/null | grep -Ec '^ *[0-9]+ ')

# start ARGS...: serve in the background; sets URL to the address it printed.
start() {
  "$RAILYARD" serve "$@" > "$WORK/addr" 2> "$WORK/serve.err" &
  PIDS+=($!)
  URL=""
  for _ in $(seq 1 100); do
    URL=$(head -1 "$WORK/addr" 2> /dev/null)
    [ -n "$URL" ] && break
    sleep 0.1
  done
}
start --plan "$WORK/plan/plan.json" --facts "$WORK/facts" --verify "$WORK/verify.json" --db "$WORK/ledger.db" --rollout "$WORK/rollout" \
  --listen 127.0.0.1:0
check "serve started and printed its address" test -n "$URL"
get() { curl -s -m 10 "$URL${1#/}"; }
jqq() { jq "$@" > /dev/null; }  # jq -e as a check: its verdict, not its output

check "the API index lists its endpoints" bash -c "curl -s '${URL}api/v1' | jq -e '.api == \"railyard/1\" and (.endpoints | length) == 6' > /dev/null"
check "acceptance: B1's two cards and B2's cable, received" \
  bash -c "curl -s '${URL}api/v1/acceptance' | jq -e '.batches == [{\"batch\":\"B1\",\"assets\":2,\"states\":{\"received\":2}},{\"batch\":\"B2\",\"assets\":1,\"states\":{\"received\":1}}]' > /dev/null"
check "rollout: every wave of the planned rollout ($waves), the first ready" \
  bash -c "curl -s '${URL}api/v1/rollout' | jq -e '(.waves | length) == $waves and $waves > 0 and .waves[0].state == \"ready\"' > /dev/null"
get /api/v1/summary > "$WORK/summary.json"
check "summary: four hosts' facts" jqq -e '.facts.hosts == 4' "$WORK/summary.json"
check "summary: the plan's 127 nodes, 65 switches, 35 racks" jqq -e '.nodes == 127 and .switches == 65 and .racks == 35' "$WORK/summary.json"
"$RAILYARD" doctor "$WORK/facts/fleet.ndjson" --plan "$WORK/plan/plan.json" --format json > "$WORK/doctor.json" 2> /dev/null
want=$(jq '.findings | length' "$WORK/doctor.json")
get /api/v1/findings > "$WORK/findings.json"
check "findings: as many as doctor --plan finds ($want)" jqq -e ".count == $want and (.findings | length) == $want" "$WORK/findings.json"
check "findings carry their host's rack" jqq -e '[.findings[] | select(.host == "dgx001") | .rack] | all(. != null)' "$WORK/findings.json"
warnings=$(jq '[.findings[] | select(.severity == "warning")] | length' "$WORK/doctor.json")
check "the severity filter ($warnings warnings)" bash -c "curl -s '${URL}api/v1/findings?severity=warning' | jq -e '.count == $warnings' > /dev/null"
rack=$(jq -r '[.findings[] | select(.host == "dgx001")][0].rack' "$WORK/findings.json")
check "the rack filter keeps only that rack ($rack)" bash -c "curl -s '${URL}api/v1/findings?rack=$rack' | jq -e '.count > 0 and ([.findings[].rack] | all(. == \"$rack\"))' > /dev/null"
check "racks: one per planned rack" bash -c "curl -s '${URL}api/v1/racks' | jq -e '(.racks | length) == 35' > /dev/null"
check "verify found the missing cable" jqq -e '.links.missing == 1' "$WORK/verify.json"
missing_racks=$(jq -r '.findings[0].planned | [.a, .b] | map(split(":")[0]) | join(" ")' "$WORK/verify.json")
check "the missing cable marks the racks of both its planned ends ($missing_racks)" \
  bash -c "curl -s '${URL}api/v1/racks' | jq -e '[.racks[] | select(.cabling > 0)] | length == 2' > /dev/null"
check "verify: the result as given" bash -c "curl -s '${URL}api/v1/verify' | jq -e '. == $(jq -c . "$WORK/verify.json")' > /dev/null"
check "an unknown endpoint is a JSON 404" test "$(curl -s -o /dev/null -w '%{http_code}' "${URL}api/v2/x")" = 404
check "a write is refused (405)" test "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "${URL}api/v1/findings")" = 405
check "DELETE is refused too" test "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "${URL}api/v1/summary")" = 405
check "every answer has a Content-Security-Policy" bash -c "curl -sI '${URL}api/v1' | grep -qi \"content-security-policy: default-src 'none'\""
check "plan.html is served at /plan" bash -c "curl -s '${URL}plan' | grep -q 'id=\"rd-cables\"'"

# Facts that change are reloaded: a fifth host.
jq -c '.host.hostname = "dgx005"' "$WORK/base.json" >> "$WORK/facts/fleet.ndjson"
sleep 1.1  # a modification time the stamp can tell apart on coarse filesystems
check "changed facts are reloaded (five hosts)" bash -c "curl -s '${URL}api/v1/summary' | jq -e '.facts.hosts == 5' > /dev/null"

CHROMIUM=$(command -v chromium || true)
if [ -n "$CHROMIUM" ]; then
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" --virtual-time-budget=5000 \
    --dump-dom "$URL" > "$WORK/dash.html" 2> /dev/null
  check "the dashboard drew itself (data-ready)" grep -q 'data-ready="1"' "$WORK/dash.html"
  check "one heat-map box per rack (35)" test "$(grep -o 'class="rack" title=' "$WORK/dash.html" | wc -l)" -eq 35
  check "the two racks of the missing cable outlined" test "$(grep -o 'data-cabling="1"' "$WORK/dash.html" | wc -l)" -eq 2
  check "the acceptance table: two batches" test "$(grep -o 'data-batch="' "$WORK/dash.html" | wc -l)" -eq 2
  check "the rollout table: every wave" test "$(grep -o 'data-wave="' "$WORK/dash.html" | wc -l)" -eq "$waves"
  now=$(curl -s "${URL}api/v1/findings" | jq .count)
  check "the findings table counts them all ($now)" grep -q "data-count=\"$now\"" "$WORK/dash.html"
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" --virtual-time-budget=5000 \
    --hide-scrollbars --window-size=1300,800 --screenshot="$WORK/dash.png" "$URL" > /dev/null 2>&1
  check "the dashboard screenshot is not blank" test "$(stat -c %s "$WORK/dash.png" 2> /dev/null || echo 0)" -gt 15000
fi

# Off loopback: no token, no server; with one, only bearers of it get answers.
"$RAILYARD" serve --plan "$WORK/plan/plan.json" --listen 0.0.0.0:0 > /dev/null 2> "$WORK/open.err"
check "an open address without --token exits 2" test $? -eq 2
check "and says why" grep -q "give --token" "$WORK/open.err"
start --plan "$WORK/plan/plan.json" --listen 127.0.0.1:0 --token s3cret
check "with a token, no header is 401" test "$(curl -s -o /dev/null -w '%{http_code}' "${URL}api/v1/summary")" = 401
check "a wrong token is 401" test "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3creT' "${URL}api/v1/summary")" = 401
check "the token is 200" test "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3cret' "${URL}api/v1/summary")" = 200
if [ "$fail" -ne 0 ]; then cat "$WORK/serve.err"; fi
finish
