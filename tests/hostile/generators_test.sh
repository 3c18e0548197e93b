#!/usr/bin/env bash
# Every generator on hostile read-back files (issue "Everything railyard writes is safe to run as root").
# Seeded cases each put one hostile string (shell and YAML metacharacters, line breaks, NUL, quotes,
# $( ), backticks, %, a leading -, .., invisible Unicode, 300 bytes) into one string field of plan.json,
# rollout.json, burnin-plan.json, switches.csv or a facts document, and run every verb that writes a
# script, a unit or a configuration from it. Each run must either
#   - exit 2 naming the file (and, for JSON, the pointer) with nothing written, or
#   - exit 0 (1 for `rollout check`, which halts) with every artifact passing its real consumer:
#     bash -n and shellcheck on scripts (and a run under logging stand-in tools), systemd-analyze
#     verify on units, netplan generate on netplan trees, nmcli --offline on keyfiles, PyYAML and jq on
#     NVUE and SONiC files; no more configuration lines than the same file of the untouched input (a
#     value never adds a line or a key); every file under -o, none a symlink;
# and no marker command may run, in any of them. A failure prints the seed and case to rerun:
#   generators_test.sh RAILYARD SOURCE_DIR [SEED [CASES]]
set -u
RAILYARD=$(realpath "$1")
SRC=$(realpath "$2")
SEED=${3:-${RAILYARD_SEED:-$(date +%s)}}
CASES=${4:-${RAILYARD_CASES:-20}}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=../integration/lib.sh
. "$SRC/tests/integration/lib.sh"
START=$SECONDS
echo "generators_test: seed $SEED, $CASES cases per input (rerun: $0 RAILYARD SRC $SEED $CASES)"
RANDOM=$SEED
MARK="$WORK/MARK"
PY=/usr/bin/python3  # Debian's, with PyYAML (netplan.io depends on it)

# The hostile strings, as JSON string literals (jq takes them with --argjson). Each would create $MARK
# if any part of it ran as a command.
HOSTILE=(
  "\"x\$(touch $MARK)\"" "\"x\`touch $MARK\`\"" "\"x';touch $MARK;'\"" "\"x\\\";touch $MARK;\\\"\""
  "\"x\\ntouch $MARK\"" "\"x\\r\\ntouch $MARK\"" "\"x\\u0000touch $MARK\"" "\"-rf\"" "\"../../escaped\""
  "\"x/../../escaped\"" "\"/tmp/absolute\"" "\"x%n%h%%\"" "\"x|touch $MARK\"" "\"x&&touch $MARK\"" "\"*\""
  "\"x\\u200bz\"" "\"x\\u2028touch $MARK\"" "\"x: {a: b}\"" "\"x\\n- set:\\n    system: {}\"" "\"x\\\\\"" "\"\""
  "\"$(printf 'a%.0s' $(seq 1 300))\"" "\"名前 \$(touch $MARK)\"" "\"x;railyard_injected\"" "\"x\\\\ny\""
)
pick() { echo "${HOSTILE[$((RANDOM % ${#HOSTILE[@]}))]}"; }

# --- Stand-in tools: every command the scripts call logs its arguments and succeeds.
BIN="$WORK/bin"
mkdir -p "$BIN"
for tool in flint mlxfwmanager mlxfwreset mlnx_qos cma_roce_tos ssh scp scontrol sinfo kubectl srun mpirun ib_write_bw \
  mlxlink clush sha256sum; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n' "$tool" "$WORK" > "$BIN/$tool"
  chmod +x "$BIN/$tool"
done

# --- Consumers
# Lines of a configuration that are not comments or blank: a value may change one, never add one.
config_lines() { grep -cvE '^[[:space:]]*([#!]|$)' "$1" 2> /dev/null || true; }
consume() {  # DIR BASELINE_DIR [replanned]: every artifact under DIR through its consumer; prints what failed
  local dir=$1 base=$2 replanned=${3:-} f rel hosts=""
  if [ -n "$(find "$dir" -type l)" ]; then echo "a symlink under $dir"; fi
  while IFS= read -r -d '' f; do
    rel=${f#"$dir"/}
    # A file the hostile value did not change was checked with the untouched input's.
    if [ "$dir" != "$base" ] && [ -f "$base/$rel" ] && cmp -s "$f" "$base/$rel"; then continue; fi
    hosts="$hosts ${rel%%/*}"
    # The same file of the untouched input: no line more.
    # (Not for a rollout planned anew: a device held back moves hosts between waves.)
    if [ -z "$replanned" ] && [ -f "$base/$rel" ] && [ "$(config_lines "$f")" -gt "$(config_lines "$base/$rel")" ]; then
      echo "$rel: more configuration lines than the untouched input's"
    fi
    case $f in
      *.sh)
        bash -n "$f" 2>&1 | sed "s|^|$rel: bash -n: |"
        shellcheck -f gcc "$f" 2>&1 | sed "s|^|$rel: shellcheck: |"
        ;;
      *.service)
        sed "s|^ExecStart=/etc/railyard/roce-qos.sh|ExecStart=${f%/etc/systemd/system/*}/etc/railyard/roce-qos.sh|" "$f" > "$WORK/unit.service"
        systemd-analyze verify "$WORK/unit.service" 2>&1 | sed "s|^|$rel: systemd-analyze: |"
        ;;
      *.nmconnection)
        nmcli --offline connection modify connection.autoconnect yes < "$f" > /dev/null 2> "$WORK/nm.err" ||
          sed "s|^|$rel: nmcli: |" "$WORK/nm.err"
        ;;
      */network-scripts/ifcfg-*)
        bash -n "$f" 2>&1 | sed "s|^|$rel: bash -n: |"
        (cd "$WORK" && env -i PATH="$BIN" /bin/bash -c '. "$0"' "$f") 2>&1 | sed "s|^|$rel: sourced: |"
        ;;
      */etc/netplan/*.yaml) ;;  # netplan generate, below, per host
      *.yaml)
        $PY -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert isinstance(d, list) and len(d) == 1 and list(d[0]) == ["set"], "not one NVUE set: document"' "$f" 2>&1 | tail -1 |
          sed "s|^|$rel: yaml: |"
        ;;
      *.json) jq -e 'type == "object"' "$f" > /dev/null 2>&1 || echo "$rel: jq: not a JSON object" ;;
    esac
  done < <(find "$dir" -type f -print0)
  for host in $(tr ' ' '\n' <<< "$hosts" | sort -u); do
    [ -d "$dir/$host/etc/netplan" ] || continue
    netplan generate --root-dir "$dir/$host" > /dev/null 2> "$WORK/np.err" || sed "s|^|$host: netplan: |" "$WORK/np.err"
  done
}

# run_case NAME EXPECT_FILE OUT BASELINE CMD...: the verb run on the hostile input; checks one of the two outcomes.
run_case() {
  local name=$1 file=$2 out=$3 base=$4 rc problems=""
  shift 4
  rm -f "$MARK"
  (cd "$WORK/cwd" && "$@") > "$WORK/case.out" 2> "$WORK/case.err"
  rc=$?
  if [ $rc -eq 2 ]; then
    if ! grep -q "$file" "$WORK/case.err"; then problems="exit 2 without naming $file: $(head -c 300 "$WORK/case.err")"
    elif [ -e "$out" ] && [ -n "$(ls -A "$out" 2> /dev/null)" ]; then problems="exit 2 but $out was written"
    fi
  elif [ $rc -eq 0 ] || [ $rc -eq 1 ]; then
    problems=$([ -d "$out" ] && consume "$out" "$base" "$REPLANNED")
  else
    problems="exit $rc: $(head -c 300 "$WORK/case.err")"
  fi
  [ -e "$MARK" ] && problems="$problems; the marker command ran"
  # Nothing outside the output: the escaping names would land beside it or above.
  for stray in "$WORK/escaped" "$WORK/cwd/escaped" /tmp/absolute "$WORK/case/escaped"; do
    if [ -e "$stray" ]; then problems="$problems; wrote $stray"; rm -rf "$stray"; fi
  done
  if [ -n "$problems" ]; then
    fail=$((fail + 1))
    echo "FAIL: $name (seed $SEED): $problems" | head -c 2000
    echo
  else
    pass=$((pass + 1))
  fi
}
mkdir -p "$WORK/cwd"
REPLANNED=""

# mutate IN OUT: IN with one string field (chosen by the seed among FIELDS, a jq path filter) replaced.
mutate() {  # IN OUT FIELDS -> prints "path = value"
  local in=$1 out=$2 filter=$3 paths n path value
  paths=$(jq -c "[paths(type == \"string\")] | map(select($filter))" "$in")
  n=$(jq length <<< "$paths")
  path=$(jq -c ".[$((RANDOM % n))]" <<< "$paths")
  value=$(pick)
  jq -c --argjson p "$path" --argjson v "$value" 'setpath($p; $v)' "$in" > "$out"
  echo "$path = $value"
}

# --- plan.json: config hosts (4 forms), config roce, config switches (3 operating systems), burnin plan
"$RAILYARD" plan "$SRC/examples/arista-roce-pod.yaml" -o "$WORK/roce-pod" -q > /dev/null 2>&1
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/superpod" -q > /dev/null 2>&1
rm -f "$WORK"/roce-pod/plan.index "$WORK"/superpod/plan.index
plan_verbs() {  # PLAN OUTPREFIX: each verb's command line, one per line
  local plan=$1 o=$2
  if [[ $plan == */roce-pod/* ]]; then
    for f in netplan nm ifcfg networkd; do echo "config hosts --plan $plan --format $f -o $o-hosts-$f"; done
    echo "config roce --plan $plan -o $o-roce"
    echo "config switches --plan $plan --os eos -o $o-eos"
    echo "burnin plan --plan $plan -o $o-burnin"
  else
    echo "config switches --plan $plan --os nvue -o $o-nvue"
    echo "config switches --plan $plan --os sonic -o $o-sonic"
    echo "burnin plan --plan $plan --test nccl --pattern pairwise --rounds 3 -o $o-nccl"
  fi
}
for example in roce-pod superpod; do
  plan="$WORK/$example/plan.json"
  while read -r verb; do
    # The verb's words, split as written above:
    # shellcheck disable=SC2086
    "$RAILYARD" -q $verb > /dev/null 2>&1 || echo "FAIL: baseline $verb"
  done < <(plan_verbs "$plan" "$WORK/base-$example")
  # The untouched outputs pass every consumer too (the check can pass, and is not vacuous).
  for base in "$WORK"/base-"$example"-*; do
    # Per-host trees: three hosts stand for the rest (the same file with other names and addresses).
    sample="$WORK/sample-${base##*/}"
    cp -r "$base" "$sample"
    for extra in $(ls -d "$sample"/*/ 2> /dev/null | sed -n "4,\$p"); do rm -rf "$extra"; done
    problems=$(consume "$sample" "$sample")
    check "baseline ${base##*/}: every consumer accepts it${problems:+: $problems}" test -z "$problems"
    echo "generators_test: $((SECONDS - START)) s: baseline ${base##*/} consumed"
  done
  # Fields that reach generators are chosen twice as often as the rest (bom, findings).
  for ((i = 0; i < CASES; i++)); do
    mkdir -p "$WORK/case/$example"
    if ((RANDOM % 3)); then filter='.[0] | IN("planes", "host_ports", "devices", "links", "name", "racks")'; else filter='true'; fi
    what=$(mutate "$plan" "$WORK/case/$example/plan.json" "$filter")
    while read -r verb; do
      out=${verb##* }
      rm -rf "$out"
      # shellcheck disable=SC2086
      run_case "plan.json $what: $verb" plan.json "$out" "$WORK/base-$example-${out##*/case-"$example"-}" "$RAILYARD" -q $verb
    done < <(plan_verbs "$WORK/case/$example/plan.json" "$WORK/case-$example")
  done
done

echo "generators_test: $((SECONDS - START)) s: plan.json cases done"
# --- rollout: facts (rollout plan), switches.csv (rollout plan), rollout.json (status, approve, check)
(cd "$SRC" && examples/rollout/fleet.sh "$(dirname "$RAILYARD")") > "$WORK/fleet.ndjson" 2> /dev/null ||
  (cd "$SRC" && examples/rollout/fleet.sh build) > "$WORK/fleet.ndjson"
SP="$WORK/superpod/plan.json"
TARGET="$SRC/examples/rollout/target.yaml"
"$RAILYARD" -q rollout plan --facts "$WORK/fleet.ndjson" --target "$TARGET" --plan "$SP" --switches "$SRC/examples/rollout/switches.csv" \
  --policy "$SRC/examples/rollout/policy.yaml" -o "$WORK/base-rollout" > /dev/null 2>&1
check "baseline rollout: the scripts pass every consumer" test -z "$(consume "$WORK/base-rollout" "$WORK/base-rollout")"
head -1 "$WORK/fleet.ndjson" > "$WORK/one-host.ndjson"
REPLANNED=yes
for ((i = 0; i < CASES; i++)); do
  # One host's facts document with one field hostile, among the others.
  what=$(mutate "$WORK/one-host.ndjson" "$WORK/hostile-host.ndjson" '.[0] | IN("host", "firmware", "devlink", "pci")')
  { cat "$WORK/hostile-host.ndjson"; tail -n +2 "$WORK/fleet.ndjson"; } > "$WORK/fleet-case.ndjson"
  rm -rf "$WORK/case-rollout"
  run_case "facts $what: rollout plan" fleet-case.ndjson "$WORK/case-rollout" "$WORK/base-rollout" \
    "$RAILYARD" -q rollout plan --facts "$WORK/fleet-case.ndjson" --target "$TARGET" --plan "$SP" \
    --switches "$SRC/examples/rollout/switches.csv" -o "$WORK/case-rollout"
done
for ((i = 0; i < CASES / 2; i++)); do
  # switches.csv: one cell hostile (its CSV quoting escaped as a spreadsheet would).
  value=$(jq -r . <<< "$(pick)")
  cell=$((RANDOM % 2))
  awk -F, -v OFS=, -v row=$((2 + RANDOM % 8)) -v cell=$((cell + 1)) -v v="${value//\"/\"\"}" \
    'NR == row { $cell = "\"" v "\"" } { print }' "$SRC/examples/rollout/switches.csv" > "$WORK/switches-case.csv"
  rm -rf "$WORK/case-rollout"
  run_case "switches.csv cell $cell = $value: rollout plan" switches-case.csv "$WORK/case-rollout" "$WORK/base-rollout" \
    "$RAILYARD" -q rollout plan --facts "$WORK/fleet.ndjson" --target "$TARGET" --plan "$SP" \
    --switches "$WORK/switches-case.csv" -o "$WORK/case-rollout"
done
for ((i = 0; i < CASES; i++)); do
  rm -rf "$WORK/state"
  cp -r "$WORK/base-rollout" "$WORK/state"
  what=$(mutate "$WORK/base-rollout/rollout.json" "$WORK/state/rollout.json" '.[0] | IN("waves", "planned_by", "skipped")')
  # Wave 0: every wave of rollout.json is checked when it is read, whichever one a verb acts on.
  wave=0
  for verb in "rollout status --state $WORK/state" "rollout approve --state $WORK/state --wave $wave --by second-person" \
    "rollout check --state $WORK/state --wave $wave --facts $WORK/fleet.ndjson --switches $SRC/examples/rollout/switches.csv"; do
    # The state directory is both input and output: what a verb adds must pass the consumers too.
    rm -rf "$WORK/state-out"
    # shellcheck disable=SC2086
    run_case "rollout.json $what: $verb" rollout.json "$WORK/state-out" "$WORK/base-rollout" "$RAILYARD" -q $verb
    problems=$(find "$WORK/state" -name '*-rollback.sh' -exec sh -c 'bash -n "$1" && shellcheck -f gcc "$1"' _ {} \; 2>&1)
    [ -e "$WORK/state/approvals" ] && [ -n "$(find "$WORK/state/approvals" -type l)" ] && problems="$problems symlinked approval"
    check "rollout.json $what: $verb: what it wrote in the state passes bash -n and shellcheck${problems:+: $problems}" \
      test -z "$problems"
  done
done

echo "generators_test: $((SECONDS - START)) s: rollout cases done"
REPLANNED=""
# --- burnin-plan.json: bisect reads it back and writes the next round's scripts.
BP="$WORK/base-roce-pod-burnin/burnin-plan.json"
# Results for every pair (a real ib_write_bw capture), the first pair slow: bisect has suspects and
# writes its next round.
FX="$SRC/tests/fixtures/burnin/perftest/ib_write_bw-gbits-ib-ndr400-cx7-client-392g.txt"
slow=1
for stem in $(jq -r '.rounds[].pairs[].result' "$BP"); do
  mkdir -p "$WORK/results/$(dirname "$stem")"
  if [ $slow = 1 ]; then sed 's/392.38             392.34/151.20             151.20/' "$FX" > "$WORK/results/$stem.txt"; slow=0
  else cp "$FX" "$WORK/results/$stem.txt"; fi
done
"$RAILYARD" -q burnin bisect --plan "$WORK/roce-pod/plan.json" --burnin "$BP" "$WORK/results" -o "$WORK/base-bisect" > /dev/null 2>&1
problems=$(consume "$WORK/base-bisect" "$WORK/base-bisect")
check "baseline burnin bisect: its next round passes every consumer${problems:+: $problems}" \
  test -x "$WORK/base-bisect/run-all.sh" -a -z "$problems"
for ((i = 0; i < CASES / 2; i++)); do
  rm -rf "$WORK/bcase" "$WORK/bisect"
  mkdir -p "$WORK/bcase"
  what=$(mutate "$BP" "$WORK/bcase/burnin-plan.json" 'true')
  run_case "burnin-plan.json $what: burnin bisect" burnin-plan.json "$WORK/bisect" "$WORK/base-bisect" \
    "$RAILYARD" -q burnin bisect --plan "$WORK/roce-pod/plan.json" --burnin "$WORK/bcase/burnin-plan.json" "$WORK/results" \
    -o "$WORK/bisect"
done

# Every script generated from every bundled example (burn-in rounds, roce-qos.sh where
# the example names its netdevs; the rollout's above) through shellcheck: zero warnings of any level.
for spec in "$SRC"/examples/*.yaml; do
  name=$(basename "$spec" .yaml)
  "$RAILYARD" -q plan "$spec" -o "$WORK/ex-$name" > /dev/null 2>&1 || continue
  # Sixteen hosts: the same script as for all of them, in a size shellcheck reads in a second.
  hosts=$(jq -r '[.devices[] | select(.role == "node") | .name][:16] | join(",")' "$WORK/ex-$name/plan.json")
  "$RAILYARD" -q burnin plan --plan "$WORK/ex-$name/plan.json" --hosts "$hosts" --rounds 2 -o "$WORK/ex-$name-burnin" > /dev/null 2>&1
  "$RAILYARD" -q config roce --plan "$WORK/ex-$name/plan.json" --host "${hosts%%,*}" -o "$WORK/ex-$name-roce.tar" > /dev/null 2>&1 &&
    mkdir -p "$WORK/ex-$name-roce" && tar -xf "$WORK/ex-$name-roce.tar" -C "$WORK/ex-$name-roce"
  scripts=$(find "$WORK"/ex-"$name"-* -name '*.sh' | head -50)
  problems=$(if [ -n "$scripts" ]; then xargs shellcheck -f gcc <<< "$scripts" 2>&1; fi)
  echo "generators_test: examples/$name.yaml: $(wc -w <<< "$scripts") generated scripts through shellcheck"
  check "examples/$name.yaml: its scripts, shellcheck says nothing${problems:+: $problems}" \
    test -n "$scripts" -a -z "$problems"
done

# The stand-in tools: the baseline scripts run and call them, and no marker ever ran.
rm -f "$MARK"
(cd "$WORK/base-roce-pod-roce/node001/etc/railyard" && SYS="$WORK/sys" PATH="$BIN:$PATH" bash roce-qos.sh > /dev/null 2>&1)
(cd "$WORK/base-roce-pod-burnin" && RESULTS="$WORK/r" LISTEN_WAIT=0 DURATION=0 PATH="$BIN:$PATH" sh round-000.sh > /dev/null 2>&1)
check "the scripts ran under the stand-in tools" grep -q '^ssh ' "$WORK/calls"
check "and no marker command ran anywhere" test ! -e "$MARK"
echo "generators_test: $((SECONDS - START)) s"
finish
