#!/usr/bin/env bash
# verify judges each input only on what it can see: on every bundled example, one InfiniBand plane's
# discovery gives 0 missing and 0 miswired, every other plane unverified, exit 0; --plane limits a run;
# unreadable inputs of each kind exit 2 naming the file. Usage: verify_cli_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
jqtest() { jq -e "$@" > /dev/null; }

for spec in "$SRC"/examples/*.yaml; do
  name=$(basename "$spec" .yaml)
  "$RAILYARD" plan "$spec" -o "$WORK/$name" > /dev/null 2>&1
  for topo in "$WORK/$name"/ibnetdiscover-*.topo; do
    [ -f "$topo" ] || continue
    plane=$(basename "$topo" .topo); plane=${plane#ibnetdiscover-}
    "$RAILYARD" verify --plan "$WORK/$name/plan.json" --ibnetdiscover "$topo" --format json > "$WORK/$name-$plane.json" 2> "$WORK/$name-$plane.err"
    check "$name, $plane discovery only: exit 0" test $? -eq 0
    check "$name, $plane: 0 missing, 0 miswired" jqtest '.links.missing == 0 and .links.miswired == 0' "$WORK/$name-$plane.json"
    check "$name, $plane: its plane all ok" jqtest --arg p "$plane" '.planes[$p].ok == .planes[$p].planned and .planes[$p].unverified == 0' "$WORK/$name-$plane.json"
    check "$name, $plane: every other plane unverified" jqtest --arg p "$plane" \
      '[.planes | to_entries[] | select(.key != $p) | .value.unverified == .value.planned] | all' "$WORK/$name-$plane.json"
    "$RAILYARD" verify --plan "$WORK/$name/plan.json" --ibnetdiscover "$topo" --plane "$plane" --format json > "$WORK/$name-only.json"
    check "$name, --plane $plane: only that plane counted" jqtest --arg p "$plane" '(.planes | keys) == [$p] and .links.unverified == 0' "$WORK/$name-only.json"
  done
done

PLAN="$WORK/superpod-h100-4su/plan.json"
"$RAILYARD" verify --plan "$PLAN" --ibnetdiscover "$WORK/superpod-h100-4su/ibnetdiscover-compute.topo" --show-unverified --format csv > "$WORK/unverified.csv"
check "--show-unverified lists the other planes' links" test "$(grep -c '^unverified,info,' "$WORK/unverified.csv")" -gt 100
"$RAILYARD" verify --plan "$PLAN" --ibnetdiscover "$WORK/superpod-h100-4su/ibnetdiscover-compute.topo" --plane nosuch 2> "$WORK/plane.err"
check "--plane with an unknown plane exits 2" test $? -eq 2
check "--plane names the planes it has" grep -q "it has compute, storage, oob" "$WORK/plane.err"

# plan.index: used while plan.json is the one it was written with; an edited plan.json is read itself,
# with a note, and judged the same.
check "plan -o writes plan.index beside plan.json" test -s "$WORK/superpod-h100-4su/plan.index"
TOPO="$WORK/superpod-h100-4su/ibnetdiscover-compute.topo"
"$RAILYARD" verify --plan "$PLAN" --ibnetdiscover "$TOPO" --format csv > "$WORK/indexed.csv" 2> "$WORK/indexed.err"
check "with a current index: no note" test ! -s "$WORK/indexed.err"
cp -r "$WORK/superpod-h100-4su" "$WORK/edited"
sed -i 's/"name":"superpod-h100-4su"/"name":"superpod-h100-4sv"/' "$WORK/edited/plan.json"
"$RAILYARD" verify --plan "$WORK/edited/plan.json" --ibnetdiscover "$TOPO" --format csv > "$WORK/edited.csv" 2> "$WORK/edited.err"
check "an edited plan.json: a note says the index is stale" grep -q "re-run \`railyard plan\`" "$WORK/edited.err"
check "an edited plan.json: the same findings" cmp -s "$WORK/indexed.csv" "$WORK/edited.csv"

# Unreadable inputs, each kind: garbage, truncated to nothing readable, UTF-16.
printf 'this is not a tool output\n\x01\x02\x03 garbage\n' > "$WORK/garbage.txt"
printf '{"lldp": {"interface": [{"ens1f0np0": {"chassis": ' > "$WORK/truncated.json"
printf '\xff\xfe{\x00"\x00l\x00l\x00d\x00p\x00"\x00' > "$WORK/utf16.json"
for input in "--ibnetdiscover $WORK/garbage.txt" "--iblinkinfo $WORK/garbage.txt" "--lldp leaf01=$WORK/garbage.txt" \
             "--lldp leaf01=$WORK/truncated.json" "--lldp leaf01=$WORK/utf16.json" "--switch-lldp leaf01=$WORK/garbage.txt" \
             "--switch-lldp leaf01=$WORK/utf16.json"; do
  # shellcheck disable=SC2086
  "$RAILYARD" verify --plan "$PLAN" $input > /dev/null 2> "$WORK/bad.err"
  status=$?
  file=${input##*=}; file=${file##* }
  check "bad input ($input): exit 2" test "$status" -eq 2
  check "bad input ($input): the error names the file" grep -q "$(basename "$file")" "$WORK/bad.err"
done
check "UTF-16 is named as such" bash -c "'$RAILYARD' verify --plan '$PLAN' --lldp leaf01='$WORK/utf16.json' 2>&1 | grep -q UTF-16"
# An empty fabric capture is a capture that failed: exit 2 naming it, never every cable "unverified".
: > "$WORK/empty.topo"
"$RAILYARD" verify --plan "$PLAN" --ibnetdiscover "$WORK/empty.topo" > /dev/null 2> "$WORK/empty.err"
check "an empty ibnetdiscover: exit 2 naming the file" sh -c "test $? -eq 2 && grep -q 'empty.topo: no link' '$WORK/empty.err'"

finish
