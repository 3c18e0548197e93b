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
check "findings carry their host's rack" jqq -e '[.findings[] | select(.host == "dgx001" and (.fleet | not)) | .rack] | (length > 0 and all(. != null))' "$WORK/findings.json"
check "a fleet-wide finding (the cloned cards) is drawn in no rack" \
  jqq -e '[.findings[] | select(.fleet)] | (length > 0 and all(.rack == null and .racks == []))' "$WORK/findings.json"
warnings=$(jq '[.findings[] | select(.severity == "warning")] | length' "$WORK/doctor.json")
check "the severity filter ($warnings warnings)" bash -c "curl -s '${URL}api/v1/findings?severity=warning' | jq -e '.count == $warnings' > /dev/null"
rack=$(jq -r '[.findings[] | select(.host == "dgx001" and (.fleet | not))][0].rack' "$WORK/findings.json")
check "the rack filter keeps only findings fixed in that rack ($rack)" \
  bash -c "curl -s '${URL}api/v1/findings?rack=$rack' | jq -e '.count > 0 and ([.findings[].racks | index(\"$rack\")] | all(. != null))' > /dev/null"
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

# Off loopback: no token, no server; with one, only holders of it get answers, by header or cookie.
"$RAILYARD" serve --plan "$WORK/plan/plan.json" --listen 0.0.0.0:0 > /dev/null 2> "$WORK/open.err"
check "an open address without a token exits 2" test $? -eq 2
check "and says why" grep -q "give a token" "$WORK/open.err"
RAILYARD_TOKEN=s3cret "$RAILYARD" serve --plan "$WORK/plan/plan.json" --listen 127.0.0.1:0 > /dev/null 2> "$WORK/short.err"
check "a token too short to resist guessing exits 2" test $? -eq 2
check "and says how long" grep -q "at least 16" "$WORK/short.err"
for bad in 127.0.0.1:8080junk 127.0.0.1 ::1:8080 '[::1]8080' 127.0.0.1:70000; do
  "$RAILYARD" serve --plan "$WORK/plan/plan.json" --listen "$bad" > /dev/null 2> "$WORK/listen.err"
  check "--listen $bad exits 2" test $? -eq 2
done
TOKEN=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$TOKEN" > "$WORK/token" && chmod 600 "$WORK/token"
start --plan "$WORK/plan/plan.json" --facts "$WORK/facts" --verify "$WORK/verify.json" --db "$WORK/ledger.db" --rollout "$WORK/rollout" \
  --listen 127.0.0.1:0 --token-file "$WORK/token" --allow-host dash.example.org
SERVER=${PIDS[-1]}
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
check "with a token, no header is 401" test "$(code "${URL}api/v1/summary")" = 401
check "a wrong token is 401" test "$(code -H "Authorization: Bearer ${TOKEN}x" "${URL}api/v1/summary")" = 401
check "the token is 200" test "$(code -H "Authorization: Bearer $TOKEN" "${URL}api/v1/summary")" = 200
check "the scheme in lower case is 200 (RFC 7235)" test "$(code -H "Authorization: bearer $TOKEN" "${URL}api/v1/summary")" = 200
check "the token is not in the server's command line" bash -c "! tr '\0' ' ' < /proc/$SERVER/cmdline | grep -q '$TOKEN'"
curl -s -D "$WORK/page.h" -o "$WORK/page.html" "$URL"
check "the page without a token is the login page (401)" bash -c "head -1 '$WORK/page.h' | grep -q ' 401' && grep -q 'action=\"/login\"' '$WORK/page.html' && ! grep -q 'id=\"heat\"' '$WORK/page.html'"
check "a wrong token at /login is 401" test "$(code -X POST --data-urlencode "token=${TOKEN}x" "${URL}login")" = 401
curl -s -D "$WORK/login.h" -o /dev/null -X POST --data-urlencode "token=$TOKEN" "${URL}login"
check "the token at /login: 303 to the dashboard" bash -c "head -1 '$WORK/login.h' | grep -q ' 303' && grep -qi '^location: /' '$WORK/login.h'"
check "with an HttpOnly, SameSite=Strict session cookie that is not the token" \
  bash -c "grep -i '^set-cookie: railyard_session=' '$WORK/login.h' | grep -i 'httponly' | grep -i 'samesite=strict' | grep -vq '$TOKEN'"
cookie=$(sed -n 's/^[Ss]et-[Cc]ookie: \(railyard_session=[0-9a-f]*\).*/\1/p' "$WORK/login.h")
check "the cookie opens the API" test "$(code -H "Cookie: $cookie" "${URL}api/v1/summary")" = 200
check "a forged cookie does not" test "$(code -H "Cookie: railyard_session=${cookie#railyard_session=}0" "${URL}api/v1/summary")" = 401
curl -s -D "$WORK/dash.h" -o "$WORK/dash-page.html" -H "Cookie: $cookie" "$URL"
nonce=$(sed -n "s/^[Cc]ontent-[Ss]ecurity-[Pp]olicy: .*script-src 'nonce-\([0-9a-f]*\)'.*/\1/p" "$WORK/dash.h")
check "the page's policy: a nonce for its scripts and styles, nothing inline else" \
  bash -c "test -n '$nonce' && ! grep -qi 'unsafe-inline' '$WORK/dash.h' && test \$(grep -ci '^content-security-policy' '$WORK/dash.h') -eq 1"
check "the page's script carries that nonce" grep -q "<script nonce=\"$nonce\">" "$WORK/dash-page.html"
check "a foreign Host is refused (421), before the token" test "$(code -H 'Host: evil.example.com' "${URL}api/v1/summary")" = 421
check "a Host given by --allow-host is answered" \
  test "$(code -H 'Host: dash.example.org' -H "Authorization: Bearer $TOKEN" "${URL}api/v1/summary")" = 200
check "localhost is answered" test "$(code -H "Host: localhost:1" -H "Authorization: Bearer $TOKEN" "${URL}api/v1/summary")" = 200
if command -v python3 > /dev/null; then
  python3 "$SRC/tests/integration/serve_probe.py" flood "$URL" "$TOKEN" "$SERVER" > "$WORK/flood.json"
  flood_rc=$?
  check "$((2 * $(nproc) + 20)) slow clients and a 32 MB head: the summary within 1 s, memory within 64 MiB ($(cat "$WORK/flood.json"))" \
    test "$flood_rc" -eq 0
  check "the 32 MB head is refused (431) at its first 32 KiB, the rest discarded, not kept" \
    jqq -e '(.big_request.answer | startswith("HTTP/1.1 431")) and (.peak_rss_kib - .idle_rss_kib) < 65536' "$WORK/flood.json"
fi
if [ -n "$CHROMIUM" ]; then
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile2" --virtual-time-budget=3000 \
    --dump-dom "$URL" > "$WORK/locked.html" 2> /dev/null
  check "Chromium without the token gets the login page and no dashboard" \
    bash -c "grep -q 'id=\"login\"' '$WORK/locked.html' && ! grep -q 'data-ready' '$WORK/locked.html' && ! grep -q 'id=\"heat\"' '$WORK/locked.html'"
  # A person with the token, in the browser: the login form, then every view of the dashboard and of the plan.
  if /usr/bin/python3 -c 'import websocket' 2> /dev/null; then
    /usr/bin/python3 "$SRC/tests/integration/serve_browser.py" "$CHROMIUM" "$URL" "$TOKEN" "$WORK/profile3" > "$WORK/browser.json"
    check "Chromium drove the login and every view ($(jq -c '.error // "no error"' "$WORK/browser.json"))" test $? -eq 0
    auth=(-H "Authorization: Bearer $TOKEN")
    curl -s "${auth[@]}" "${URL}api/v1/summary" > "$WORK/summary.json"
    curl -s "${auth[@]}" "${URL}api/v1/findings" > "$WORK/findings.json"
    check "locked: the login form, no dashboard, the API 401 from the page" \
      jqq -e '.locked == {"login_form": true, "dashboard_drawn": false, "api_status": 401}' "$WORK/browser.json"
    check "a wrong token typed in: the login page again, saying so" jqq -e '.wrong_token_message | test("not the token")' "$WORK/browser.json"
    check "the right token typed in: the dashboard drew itself at /" jqq -e '.dashboard.ready == "1" and .dashboard.path == "/"' "$WORK/browser.json"
    check "its cards are the summary's numbers" jqq -e --slurpfile s "$WORK/summary.json" \
      '.dashboard.cards == {"nodes": $s[0].nodes, "switches": $s[0].switches, "racks": $s[0].racks, "errors": $s[0].findings.error,
        "warnings": $s[0].findings.warning, "info": $s[0].findings.info, "fleet-wide": $s[0].fleet_findings}' "$WORK/browser.json"
    check "the heat map: 35 racks, the missing cable's two outlined" \
      jqq -e '.dashboard.racks == 35 and .dashboard.cabling_outlined == 2' "$WORK/browser.json"
    check "the findings table: every finding counted, the first page (up to 1000) drawn" jqq -e --slurpfile f "$WORK/findings.json" \
      '.dashboard.findings_count == $f[0].count and .dashboard.findings_rows == ([$f[0].count, 1000] | min) and $f[0].count > 0' "$WORK/browser.json"
    check "verify, acceptance (two batches) and rollout ($waves waves) drawn" jqq -e --argjson w "$waves" \
      '(.dashboard.verify | test("missing 1")) and (.dashboard.batches | length) == 2 and (.dashboard.waves | length) == $w' "$WORK/browser.json"
    check "the session cookie is out of the page's script's reach (HttpOnly)" jqq -e '.dashboard.cookie_visible_to_script == false' "$WORK/browser.json"
    rack=$(jq -r '.rack_filter.rack' "$WORK/browser.json")
    check "a click on rack $rack lists that rack's findings, as the API counts them" \
      test "$(jq .rack_filter.count "$WORK/browser.json")" = "$(curl -s "${auth[@]}" "${URL}api/v1/findings?rack=$rack" | jq .count)"
    for sev in error warning info; do
      check "the $sev filter lists the API's $sev findings" \
        test "$(jq ".severity_filter.$sev" "$WORK/browser.json")" = "$(curl -s "${auth[@]}" "${URL}api/v1/findings?severity=$sev" | jq .count)"
    done
    planes=$(jq '.planes | length' "$WORK/plan/plan.json")
    links=$(jq '[.planes[] | .links | add] | add' "$WORK/plan/plan.json")
    check "the plan page, same session: every tab opens" \
      jqq -e '.plan | to_entries | map(.key == .value.shown) | all and length == 5' "$WORK/browser.json"
    check "its fabric ($planes planes), cables ($links) and BOM drawn" jqq -e --argjson p "$planes" --argjson l "$links" \
      '.plan.fabric.items == $p and .plan.cables.items == $l and .plan.bom.items > 1 and .plan.racks.items > 0' "$WORK/browser.json"
    check "no script error, no policy refusal; only the 401s before the login" \
      jqq -e '.logged | map(select(.kind != "network" or (.text | test("status of 401") | not))) | length == 0' "$WORK/browser.json"
  else
    check "python3-websocket, installed beside chromium by scripts/install-deps.sh, drives the logged-in views" false
  fi
fi

# Secrets: a PostgreSQL password in any libpq form is never printed or served.
for db in 'postgresql://ops:hunter2@127.0.0.1:1/ledger' 'postgresql://127.0.0.1:1/ledger?user=ops&password=hunter2' \
  'host=127.0.0.1 port=1 dbname=ledger user=ops password=hunter2'; do
  (cd "$WORK" && exec "$RAILYARD" serve --plan "$WORK/plan/plan.json" --db "$db" --listen 127.0.0.1:0 > "$WORK/addr" 2> "$WORK/serve.err" &
    echo $! > "$WORK/pid")
  PIDS+=("$(cat "$WORK/pid")")
  URL=""
  for _ in $(seq 1 100); do URL=$(head -1 "$WORK/addr" 2> /dev/null); [ -n "$URL" ] && break; sleep 0.1; done
  curl -s "${URL}api/v1/acceptance" > "$WORK/acc.json"
  check "--db '${db%%hunter2*}…': the ledger's error is served (503) without the password" \
    bash -c "jq -e '.error | length > 0' '$WORK/acc.json' > /dev/null && ! grep -q hunter2 '$WORK/acc.json' '$WORK/serve.err'"
  ledger_err=$("$RAILYARD" ledger --db "$db" check 2>&1)
  check "ledger --db '${db%%hunter2*}…' errors without the password" bash -c "! grep -q hunter2 <<< '$ledger_err'"
done
check "a keyword conninfo is PostgreSQL, not a SQLite file named after it" test -z "$(ls "$WORK" | grep -F 'host=')"

# IPv6: the URL printed is one.
if ip -6 addr show lo 2> /dev/null | grep -q '::1'; then
  start --plan "$WORK/plan/plan.json" --listen '[::1]:0'
  check "an IPv6 listen address prints a bracketed URL ($URL)" bash -c "[[ '$URL' =~ ^http://\[::1\]:[0-9]+/$ ]]"
  check "and it answers" test "$(code "${URL}api/v1")" = 200
fi
if [ "$fail" -ne 0 ]; then cat "$WORK/serve.err"; fi
finish
