#!/usr/bin/env bash
# plan.html in a real browser: headless Chromium (Debian chromium) loads the lab plan's report from
# disk, with no network, and the DOM it builds must match the plan: one box per plane, a tier box per
# populated tier, every cable counted, a search by label finding exactly that cable, a plane filter
# finding that plane's cables, one rack per rack of the chosen row. Screenshots must not be blank.
# Usage: plan_html_test.sh RAILYARD SOURCE_DIR. Exits 77 (skipped) without chromium.
set -u
RAILYARD=$1
SRC=$2
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "SKIP: chromium not installed (scripts/install-deps.sh installs it)"; exit 77; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export HOME="$WORK"  # chromium writes its profile under HOME
browser() {  # browser URL-FRAGMENT OUT: the DOM after the page's script ran
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" \
    --dump-dom "file://$WORK/plan/plan.html#$1" > "$2" 2> /dev/null
}

"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1 || { echo "FAIL: plan"; exit 1; }
check "plan.html written" test -s "$WORK/plan/plan.html"
check "self-contained: no http(s) URL loaded" bash -c "! grep -Eq '(src|href)=\"(https?:)?//' '$WORK/plan/plan.html'"
check "a Content-Security-Policy that allows no network" grep -q "default-src 'none'" "$WORK/plan/plan.html"
links=$(jq '[.planes[] | .links | add] | add' <("$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" --format json 2> /dev/null))
planes=$(jq '.planes | length' <("$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" --format json 2> /dev/null))

browser "fabric" "$WORK/fabric.html"
check "the page ran (ready mark set)" grep -q 'data-ready-ms="[0-9]*"' "$WORK/fabric.html"
check "one box per plane ($planes)" test "$(grep -o 'class="plane" data-plane=' "$WORK/fabric.html" | wc -l)" -eq "$planes"
tiers=$(jq '[.planes[] | .switches | to_entries[] | select(.value > 0)] | length' <("$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" --format json 2> /dev/null))
check "one tier box per populated tier ($tiers)" test "$(grep -o 'data-tier="' "$WORK/fabric.html" | wc -l)" -eq "$tiers"

browser "cables" "$WORK/cables.html"
check "every cable counted ($links)" grep -q "data-shown=\"$links\"" "$WORK/cables.html"
check "only the rows in view are in the DOM (virtualized)" test "$(grep -o 'class="crow" data-label' "$WORK/cables.html" | wc -l)" -lt 100
label=$(sed -n 2p "$WORK/plan/cutsheet.csv" | cut -d, -f1)
browser "cables?q=$label" "$WORK/one.html"
check "a search by label ($label) finds that cable alone" grep -q 'data-shown="1"' "$WORK/one.html"
check "and shows it" grep -q "data-label=\"$label\"" "$WORK/one.html"
storage=$(awk -F, 'NR > 1 && $2 == "storage"' "$WORK/plan/cutsheet.csv" | wc -l)
browser "cables?plane=storage" "$WORK/storage.html"
check "the plane filter finds the storage plane's $storage cables" grep -q "data-shown=\"$storage\"" "$WORK/storage.html"

browser "racks?row=0" "$WORK/racks.html"
row_racks=$(jq '[.[] | select(.[1] == 0)] | length' <(sed -n 's/.*<script type="application\/json" id="rd-racks">\(.*\)<\/script>.*/\1/p' "$WORK/plan/plan.html"))
check "the first row's $row_racks racks drawn" test "$(grep -o 'class="rack" data-rack=' "$WORK/racks.html" | wc -l)" -eq "$row_racks"

for tab in fabric racks cables; do
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" --hide-scrollbars \
    --window-size=1400,900 --screenshot="$WORK/$tab.png" "file://$WORK/plan/plan.html#$tab" > /dev/null 2>&1
  # A blank page compresses to a few kB; the drawn ones are tens of kB.
  check "screenshot of $tab is not blank ($(stat -c %s "$WORK/$tab.png" 2> /dev/null || echo 0) bytes)" test "$(stat -c %s "$WORK/$tab.png" 2> /dev/null || echo 0)" -gt 15000
done
finish
