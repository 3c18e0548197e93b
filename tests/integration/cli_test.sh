#!/usr/bin/env bash
# The CLI contract: exit codes, error messages naming file:line:column, nothing written on
# bad input, machine output on stdout. Usage: cli_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# 0 on a clean plan, with every output written.
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/out" > "$WORK/stdout" 2> "$WORK/stderr"
check "clean plan exits 0" test $? -eq 0
check "summary names the planes" grep -q "^compute .* 32 x QM9700 .* 16 x QM9700" "$WORK/stdout"
for f in plan.json cutsheet.csv bom.csv labels.csv ip-plan.csv netbox-8-cables.csv topology.dot topology.conf ibnetdiscover-compute.topo; do
  check "wrote $f" test -s "$WORK/out/$f"
done

# JSON summary on stdout parses and carries the contract keys.
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" --format json > "$WORK/summary.json"
check "json exits 0" test $? -eq 0
check "json has plane switch counts" grep -q '"leaf": 32' "$WORK/summary.json"
check "json has link counts" grep -q '"leaf-spine": 1024' "$WORK/summary.json"

# 1 when findings reach --fail-on.
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" --fail-on info > /dev/null
check "--fail-on info exits 1 on info findings" test $? -eq 1
# The lab without its leaf pair: every node's ports on one switch, and the fix says how to pair it.
grep -v -e 'redundancy: leaf-pair' -e 'peer_links:' "$SRC/examples/lab-8-node.yaml" > "$WORK/single.yaml"
"$RAILYARD" check "$WORK/single.yaml" --fail-on warning > "$WORK/check.txt"
check "check --fail-on warning exits 1" test $? -eq 1
check "check prints the rule" grep -q "node-single-switch" "$WORK/check.txt"
check "its fix names the leaf pair" grep -q "redundancy: leaf-pair" "$WORK/check.txt"
"$RAILYARD" check "$SRC/examples/lab-8-node.yaml" --fail-on warning > /dev/null
check "the lab on its leaf pair has no warning" test $? -eq 0
"$RAILYARD" check --list-rules | grep -q "^nic-pcie-below-line-rate"
check "check --list-rules" test $? -eq 0

# A plan with an error finding writes nothing unless --force, which stamps every file.
sed 's/pcie: gen5/pcie: gen3/' "$SRC/examples/lab-8-node.yaml" > "$WORK/gen3.yaml"
"$RAILYARD" plan "$WORK/gen3.yaml" -o "$WORK/gen3-out" > "$WORK/gen3.txt" 2> "$WORK/gen3.err"
check "error finding: exit 1" test $? -eq 1
check "error finding: nothing written" test ! -e "$WORK/gen3-out"
check "error finding: says why and how" grep -q "nothing written to .*--force" "$WORK/gen3.err"
"$RAILYARD" plan "$WORK/gen3.yaml" -o "$WORK/gen3-out" --force > /dev/null 2>&1
check "--force: still exit 1" test $? -eq 1
check "--force: bom.csv stamped on its first line" sh -c "head -1 '$WORK/gen3-out/bom.csv' | grep -q 'NOT FOR ORDERING'"
check "--force: plan.json says not_for_ordering" sh -c "jq -e '.not_for_ordering | length > 0' '$WORK/gen3-out/plan.json' > /dev/null"
# Re-planning into a used directory leaves no stale file: IB exports go when the plane becomes RoCE.
"$RAILYARD" plan "$SRC/examples/lab-8-node.yaml" -o "$WORK/replan" > /dev/null 2>&1
sed -e 's/kind: infiniband/kind: roce/' -e 's/switch: QM9700/switch: SN5600/' "$SRC/examples/lab-8-node.yaml" > "$WORK/roce-lab.yaml"
"$RAILYARD" plan "$WORK/roce-lab.yaml" -o "$WORK/replan" > /dev/null 2>&1
check "re-plan: no stale ibnetdiscover file" test ! -e "$WORK/replan/ibnetdiscover-compute.topo"
check "re-plan: manifest lists what is there" test "$(grep -vc '^#' "$WORK/replan/plan-manifest.txt")" -eq "$(($(ls "$WORK/replan" | wc -l) - 1))"

# 2 on bad input, with file:line:column, and nothing written.
sed 's/rail_optimized: true/rail_optimised: true/' "$SRC/examples/superpod-h100-4su.yaml" > "$WORK/bad.yaml"
"$RAILYARD" plan "$WORK/bad.yaml" -o "$WORK/bad-out" > /dev/null 2> "$WORK/bad.err"
check "misspelt key exits 2" test $? -eq 2
check "error names file:line:column and suggests" grep -q "bad.yaml:18:5: planes.compute.rail_optimised: unknown key; did you mean 'rail_optimized'?" "$WORK/bad.err"
check "nothing written on bad input" test ! -e "$WORK/bad-out"
"$RAILYARD" plan "$WORK/missing.yaml" > /dev/null 2>&1
check "missing file exits 2" test $? -eq 2
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" --format xml > /dev/null 2>&1
check "bad option value exits 2" test $? -eq 2
"$RAILYARD" frobnicate > /dev/null 2>&1
check "unknown verb exits 2" test $? -eq 2
printf 'name: x\nnodes: {count: 2\n' > "$WORK/syntax.yaml"
"$RAILYARD" plan "$WORK/syntax.yaml" 2> "$WORK/syntax.err" > /dev/null
check "YAML syntax error exits 2" test $? -eq 2
check "syntax error has a position" grep -q "syntax.yaml:[0-9]*:[0-9]*: (syntax)" "$WORK/syntax.err"

# An output directory that cannot be created: exit 3 (I/O, not the input: the spec is fine), no
# partial files; exit 2 is kept for what the user gave wrong.
touch "$WORK/file"
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/file/sub" > /dev/null 2>&1
check "unwritable output exits 3" test $? -eq 3
"$RAILYARD" --help | grep -q "3 any other failure"
check "--help documents exit 3" test $? -eq 0

# The catalog the spec refers users to.
"$RAILYARD" catalog switches | grep -q "^QM9700 "
check "catalog switches lists QM9700" test $? -eq 0
"$RAILYARD" catalog nics --format json | grep -q '"opn": "MCX75310AAS-NEAT"'
check "catalog nics as json" test $? -eq 0

# A mistyped verb names the one it most likely meant; the version is CMake's project version.
"$RAILYARD" plna "$SRC/examples/lab-8-node.yaml" 2> "$WORK/verb.err"
check "unknown verb exits 2" test $? -eq 2
check "unknown verb: did you mean" grep -q "did you mean 'plan'" "$WORK/verb.err"
check "--version is the project's" bash -c "'$RAILYARD' --version | grep -q \"^railyard $(sed -n 's/^project(railyard VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")\""
# "-" reads the spec from standard input, and errors name it "(stdin)".
"$RAILYARD" check - < "$SRC/examples/lab-8-node.yaml" > /dev/null
check "check - reads the spec from stdin" test $? -eq 0
printf 'name: x\nplanes: 3\n' | "$RAILYARD" check - > /dev/null 2> "$WORK/stdin.err"
check "a bad spec on stdin exits 2" test $? -eq 2
check "and is named (stdin) with line and column" grep -q "^railyard: error: (stdin):1:1: nodes:" "$WORK/stdin.err"
# "-" for plan.json and the other inputs read whole; only one input may be standard input.
"$RAILYARD" verify --plan - --ibnetdiscover "$WORK/out/ibnetdiscover-compute.topo" --ignore-speed --format json \
  < "$WORK/out/plan.json" > "$WORK/verify-stdin.json"
check "verify --plan - reads plan.json from stdin" sh -c "test $? -eq 0 && jq -e '.links.ok > 0 and .links.missing == 0' '$WORK/verify-stdin.json' > /dev/null"
echo '{"schema": "railyard.plan/1", "devices": [' | "$RAILYARD" verify --plan - --ibnetdiscover "$WORK/out/ibnetdiscover-compute.topo" 2> "$WORK/plan-stdin.err"
check "a truncated plan on stdin exits 2 naming (stdin)" sh -c "test $? -eq 2 && grep -q '^railyard: error: (stdin): ' '$WORK/plan-stdin.err'"
"$RAILYARD" verify --plan - --ibnetdiscover - < "$WORK/out/plan.json" 2> "$WORK/two-stdin.err"
check "two inputs on stdin exit 2" sh -c "test $? -eq 2 && grep -q 'more than one input' '$WORK/two-stdin.err'"
# -q / -v / --color, before or after the command.
"$RAILYARD" plan "$SRC/examples/lab-8-node.yaml" -o "$WORK/quiet" -q > /dev/null 2> "$WORK/quiet.err"
check "-q: no note on stderr" test ! -s "$WORK/quiet.err"
"$RAILYARD" -v plan "$SRC/examples/lab-8-node.yaml" -o "$WORK/quiet" > /dev/null 2> "$WORK/verbose.err"
check "-v: the note, then time and peak memory" sh -c "grep -q '^railyard: wrote [0-9]* files' '$WORK/verbose.err' && grep -Eq '^railyard: plan: exit 0 after [0-9.]+ s, peak memory [0-9]+ MiB$' '$WORK/verbose.err'"
"$RAILYARD" -q -v check "$SRC/examples/lab-8-node.yaml" > /dev/null 2>&1
check "-q and -v together are a usage error" test $? -eq 2
"$RAILYARD" check "$SRC/examples/superpod-h100-4su.yaml" --color always > "$WORK/color.txt"
check "--color always colours the severities, even into a pipe" grep -q "$(printf '\033')\[36minfo$(printf '\033')\[0m" "$WORK/color.txt"
NO_COLOR=1 "$RAILYARD" check "$SRC/examples/superpod-h100-4su.yaml" --color auto > "$WORK/nocolor.txt"
check "--color auto into a pipe: no escape byte" sh -c "! grep -q \"$(printf '\033')\" '$WORK/nocolor.txt'"
"$RAILYARD" check "$SRC/examples/superpod-h100-4su.yaml" --color sometimes > /dev/null 2>&1
check "--color takes auto, always or never" test $? -eq 2
# ...then the commit built and the date of the catalog it embeds ("unknown" outside a git checkout).
check "--version names the commit and the catalog date" bash -c "'$RAILYARD' --version | grep -Eq '^railyard [0-9.]+ \(commit ([0-9a-f]{7,}(-dirty)?|[^ ]+-g[0-9a-f]+(-dirty)?|unknown), catalog ([0-9]{4}-[0-9]{2}-[0-9]{2}|unknown)\)$'"
# In a checkout, the commit named is one of its history (HEAD itself once rebuilt after the last commit).
if git -C "$SRC" rev-parse HEAD > /dev/null 2>&1; then
  built=$("$RAILYARD" --version | sed -n 's/.*(commit \([0-9a-f]*\).*/\1/p')
  check "--version's commit is in the checkout's history" git -C "$SRC" merge-base --is-ancestor "${built:-none}" HEAD
fi
# Shell completion from the command tree, run by a real bash: verbs, sub-verbs, options; files where none match.
"$RAILYARD" completion bash > "$WORK/completion.bash"
check "completion bash exits 0" test $? -eq 0
complete_words() {  # complete_words WORD... : what <TAB> offers after them
  bash -c 'source "$1"; shift; COMP_WORDS=(railyard "$@"); COMP_CWORD=$#; _railyard; echo "${COMPREPLY[*]}"' _ "$WORK/completion.bash" "$@"
}
check "completes a verb" test "$(complete_words pl)" = plan
check "completes a sub-verb" test "$(complete_words ledger imp)" = import
check "completes a sub-verb's option" test "$(complete_words ledger import --bat)" = --batch
check "completes an option of a verb" test "$(complete_words plan --form)" = --format
check "offers every verb" test "$(complete_words '' | wc -w)" -ge 14
check "no verb where only files fit" test -z "$(complete_words plan exa)"
check "completes a positional's choices" test "$(complete_words catalog n)" = nics
check "completes the shells" test "$(complete_words completion '')" = "bash zsh"
"$RAILYARD" completion zsh | head -1 | grep -q '^#compdef railyard'
check "completion zsh is a compdef" test $? -eq 0
"$RAILYARD" completion fish > /dev/null 2>&1
check "completion of an unknown shell exits 2" test $? -eq 2
RAILYARD_DB="$WORK/env.db" "$RAILYARD" ledger import "$SRC/tests/fixtures/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > /dev/null
check "RAILYARD_DB names the ledger" test -s "$WORK/env.db"

# Help shows examples.
"$RAILYARD" --help | grep -q "Examples:"
check "--help has examples" test $? -eq 0
"$RAILYARD" plan --help | grep -q "railyard plan examples/"
check "plan --help has examples" test $? -eq 0

# doctor: facts from a capture of real samples (tests/fixtures), then the exit-code contract.
FIXTURES="$SRC/tests/fixtures"
mkdir -p "$WORK/cap" "$WORK/facts"
cp "$FIXTURES/bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt" "$WORK/cap/bonding-bond0.txt"
cp "$FIXTURES/dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt" "$WORK/cap/dmesg.txt"
echo gpu042 > "$WORK/cap/hostname.txt"
"$RAILYARD" collect --from "$WORK/cap" -o "$WORK/facts/gpu042.json"
check "collect --from writes facts" test $? -eq 0
"$RAILYARD" doctor "$WORK/facts" > "$WORK/doctor.txt"
check "doctor exits 1 on error findings" test $? -eq 1
check "doctor names the rule and host" grep -q "bond-lacp-not-negotiated.*gpu042" "$WORK/doctor.txt"
"$RAILYARD" doctor "$WORK/facts/gpu042.json" --format json > "$WORK/doctor.json"
check "doctor json schema" grep -q '"schema": "railyard.findings/1"' "$WORK/doctor.json"
"$RAILYARD" doctor - < "$WORK/facts/gpu042.json" > "$WORK/doctor-stdin.txt"
check "doctor - reads the facts from stdin" grep -q "bond-lacp-not-negotiated.*gpu042" "$WORK/doctor-stdin.txt"
head -c 100 "$WORK/facts/gpu042.json" | "$RAILYARD" doctor - 2> "$WORK/stdin.err"
check "doctor - on a truncated stream exits 2 naming (stdin)" sh -c "test $? -eq 2 && grep -q '(stdin)' '$WORK/stdin.err'"
printf 'disabled_rules: [bond-lacp-not-negotiated, pcie-link-downgraded]\n' > "$WORK/policy.yaml"
"$RAILYARD" doctor "$WORK/facts" --policy "$WORK/policy.yaml" > /dev/null
check "doctor exits 0 with the rules off" test $? -eq 0
"$RAILYARD" doctor "$WORK/facts" --policy - < "$WORK/policy.yaml" > /dev/null
check "doctor --policy - reads the policy from stdin" test $? -eq 0
"$RAILYARD" doctor "$WORK/facts" --format csv > "$WORK/doctor.csv"
check "doctor --format csv: the shared columns, a row per finding" sh -c "head -1 '$WORK/doctor.csv' | grep -q '^rule,severity,host,object,message,fix' && grep -q '^bond-lacp-not-negotiated,error,gpu042,' '$WORK/doctor.csv'"
# The example policy shipped in examples/ is one doctor accepts (its rule ids exist, its keys are known).
"$RAILYARD" doctor "$WORK/facts" --policy "$SRC/examples/doctor-policy.yaml" > /dev/null 2> "$WORK/example-policy.err"
check "the example doctor policy is accepted (exit 0 or 1, not 2)" test $? -ne 2
printf 'roce_prio: 3\n' > "$WORK/bad-policy.yaml"
"$RAILYARD" doctor "$WORK/facts" --policy "$WORK/bad-policy.yaml" 2> "$WORK/policy.err"
check "bad policy exits 2" test $? -eq 2
check "bad policy names file:line:column:key" grep -q "bad-policy.yaml:1:1: roce_prio: unknown key" "$WORK/policy.err"
head -c 100 "$WORK/facts/gpu042.json" > "$WORK/truncated.json"
"$RAILYARD" doctor "$WORK/truncated.json" 2> "$WORK/trunc.err"
check "truncated facts exit 2" test $? -eq 2
"$RAILYARD" doctor --symptom bandwidth-below-rated "$WORK/facts" > "$WORK/symptom.txt"
check "symptom with a failed step exits 1" test $? -eq 1
check "symptom names the failed step" grep -q "FAILED  the PCIe slot carries the line rate" "$WORK/symptom.txt"
check "symptom names the command for unknowns" grep -q "run: ethtool -l IF" "$WORK/symptom.txt"
"$RAILYARD" doctor --symptom bandwidth-below-rated --format json "$WORK/facts" > "$WORK/symptom.json"
check "symptom json exits 1 too" test $? -eq 1
check "symptom json: schema and the failed step" jq -e \
  '.schema == "railyard.symptom/1" and ([.hosts[0].steps[] | select(.status == "failed") | .step][0]) == "the PCIe slot carries the line rate"' \
  "$WORK/symptom.json"
"$RAILYARD" doctor --symptom no-such "$WORK/facts" 2> /dev/null
check "unknown symptom exits 2" test $? -eq 2
"$RAILYARD" doctor "$WORK/facts" --plan "$WORK/no-such-plan.json" 2> "$WORK/plan.err"
check "doctor with a missing plan exits 2" test $? -eq 2
"$RAILYARD" doctor "$WORK/facts" --names "$WORK/names.csv" 2> /dev/null
check "doctor --names without --plan exits 2" test $? -eq 2
"$RAILYARD" doctor --list-rules | grep -q "^rail-mismatch"
check "doctor --list-rules lists the plan rules" test $? -eq 0
"$RAILYARD" doctor --list-rules | grep -q "^roce-pfc-off"
check "doctor --list-rules" test $? -eq 0
"$RAILYARD" doctor --list-policy | grep -A2 "^ethernet_mtu: 9000$" | grep -q "read by: mtu-not-jumbo"
check "doctor --list-policy names each key's default and the rules that read it" test $? -eq 0

# advise: the worked examples in docs/advise.md are what the tool prints today.
for pair in "examples/ib-10k-gpu.yaml examples/advise/training-team.yaml" "examples/inference-64-node.yaml examples/advise/inference-team.yaml"; do
  set -- $pair
  (cd "$SRC" && "$RAILYARD" advise --spec "$1" --answers "$2" --format md) \
    | sed -e '0,/^## Advice for/s//### Advice for/' -e 's/^### /#### /' -e 's/^#### Advice for/### Advice for/' > "$WORK/advise-now.md"
  awk -v key="<!-- advise-example: $1 $2 -->" '$0 == key {on=1; next} /^<!-- end advise-example -->/ {on=0} on' "$SRC/docs/advise.md" \
    | sed -e '1{/^$/d}' > "$WORK/advise-doc.md"
  check "docs/advise.md shows today's output for $1" diff -u "$WORK/advise-doc.md" "$WORK/advise-now.md"
done
"$RAILYARD" advise --spec "$SRC/examples/ib-10k-gpu.yaml" --format json > "$WORK/advice.json"
check "advise json: schema, a recommendation per plane, cited facts with sources" jq -e \
  '.schema == "railyard.advice/1" and (.planes | length) == 3 and .planes[0].recommended_kind == "infiniband" and (.facts | to_entries | all(.value.source != ""))' \
  "$WORK/advice.json"
printf 'workload: trainng\n' > "$WORK/bad-answers.yaml"
"$RAILYARD" advise --spec "$SRC/examples/ib-10k-gpu.yaml" --answers "$WORK/bad-answers.yaml" 2> "$WORK/answers.err"
check "bad answers exit 2" test $? -eq 2
check "bad answers name file:line:column: key" grep -q "bad-answers.yaml:1:11: workload: 'trainng' is not one of" "$WORK/answers.err"
# doctor --compat: the matrix in docs/advise.md parses; a bad one names file, line and column.
awk '/^```csv$/ {on=1; next} /^```$/ {on=0} on' "$SRC/docs/advise.md" > "$WORK/compat.csv"
"$RAILYARD" doctor "$WORK/facts" --compat "$WORK/compat.csv" > /dev/null
check "doctor --compat reads the documented matrix" test $? -le 1
printf 'server,nic,stack\nPowerEdge R750,ConnectX-7,ofed\n' > "$WORK/bad-compat.csv"
"$RAILYARD" doctor "$WORK/facts" --compat "$WORK/bad-compat.csv" 2> "$WORK/compat.err"
check "bad compat matrix exits 2" test $? -eq 2
check "bad compat matrix names file:line:column" grep -q "bad-compat.csv:2: column 3 (stack)" "$WORK/compat.err"

finish
