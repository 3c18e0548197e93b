#!/usr/bin/env bash
# A kill -9 at every write point of `rollout plan`, `rollout check` and `rollout approve`: strace
# injects SIGKILL at the Nth call of each system call that changes the file system (every rename,
# link, unlink and mkdir; every write, or an even sample of them when there are many). After each kill
# the state directory is the old state or the new one, never a mix: rollout.json, the commit point,
# is whole and every file it names is there, or there is none and nothing counts; whatever was
# recorded before is still somewhere in the directory; and the same command run again completes and
# leaves no temporary behind. Usage: rollout_kill_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || { check "strace is installed (scripts/install-deps.sh installs it)" false; finish; exit; }
BUILD=$(cd "$(dirname "$RAILYARD")" && pwd)
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1
(cd "$SRC" && bash examples/rollout/fleet.sh "$(realpath --relative-to="$SRC" "$BUILD")") > "$WORK/fleet.ndjson"
PLAN=(rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --plan "$WORK/plan/plan.json"
  --switches "$SRC/examples/rollout/switches.csv")
CALLS=write,rename,renameat,renameat2,link,linkat,unlink,unlinkat,mkdir,mkdirat
# Each call's points are swept whole up to MAX_POINTS, else evenly with a stride, from an offset that
# a new seed moves each run (printed, and fixed by RAILYARD_SEED) so the points between are covered
# over time; the last two calls of each kind (the commit point and what follows it) always are.
MAX_POINTS=${RAILYARD_KILL_POINTS:-12}
SEED=${RAILYARD_SEED:-$RANDOM}
echo "kill points: at most $MAX_POINTS per system call, seed $SEED (RAILYARD_SEED=$SEED reproduces)"

# The kill points of a command: "SYSCALL N" for each call it makes (run once under strace to count).
points() {
  strace -f -qq -o "$WORK/count.log" -e trace="$CALLS" "$@" > /dev/null 2>&1
  awk '{ split($2, a, "("); n[a[1]]++ } END { for (c in n) print c, n[c] }' "$WORK/count.log" | while read -r call count; do
    step=$(((count + MAX_POINTS - 1) / MAX_POINTS))
    for ((i = 1 + SEED % step; i <= count; i += step)); do echo "$call $i"; done
    for ((i = count - 1; i <= count; i++)); do [ "$i" -ge 1 ] && [ "$step" -gt 1 ] && echo "$call $i"; done
  done | sort -u
}
killed_at() { # killed_at SYSCALL N COMMAND...: runs COMMAND, SIGKILLed at the Nth SYSCALL
  local call=$1 n=$2
  shift 2
  # In a shell of its own whose report of the kill ("Killed") goes nowhere.
  bash -c 'strace -f -qq -o /dev/null -e trace="$1" -e inject="$1":signal=KILL:when="$2" "${@:3}" > /dev/null 2>&1' _ "$call" "$n" "$@" 2> /dev/null
}
temporaries() { find "$1" -name '.*.??????' -type f | wc -l; }
# A state as railyard reads it: rollout.json whole, and every wave's four files beside it.
whole_state() {
  local dir=$1
  jq -e '.schema == "railyard.rollout/1"' "$dir/rollout.json" > /dev/null 2>&1 || return 1
  for w in $(jq -r '.waves[] | "wave-" + (.index | tostring | if length < 2 then "0" + . else . end) + "-" + .name' "$dir/rollout.json"); do
    for f in "$w.sh" "$w-drain.sh" "$w-resume.sh" "$w.nodeset"; do [ -s "$dir/$f" ] || return 1; done
  done
  "$RAILYARD" rollout status --state "$dir" > /dev/null 2>&1
}

# 1. rollout plan into a new directory.
mapfile -t P < <(points "$RAILYARD" "${PLAN[@]}" -o "$WORK/count-plan")
bad=0
for p in "${P[@]}"; do
  read -r call n <<< "$p"
  rm -rf "$WORK/k"
  killed_at "$call" "$n" "$RAILYARD" "${PLAN[@]}" -o "$WORK/k"
  if [ -e "$WORK/k/rollout.json" ]; then
    whole_state "$WORK/k" || { echo "  plan killed at $call #$n: rollout.json without the whole state"; bad=$((bad + 1)); }
  else
    "$RAILYARD" rollout status --state "$WORK/k" > /dev/null 2>&1
    [ $? -eq 2 ] || { echo "  plan killed at $call #$n: no rollout.json, and status did not say so"; bad=$((bad + 1)); }
  fi
  # Run again, the interrupted plan is taken up: the whole state, and no temporary left.
  "$RAILYARD" "${PLAN[@]}" -o "$WORK/k" $([ -e "$WORK/k/rollout.json" ] && echo --replace) > /dev/null 2> "$WORK/again.err" ||
    { echo "  plan killed at $call #$n: the plan again fails: $(head -c 200 "$WORK/again.err")"; bad=$((bad + 1)); }
  whole_state "$WORK/k" && [ "$(temporaries "$WORK/k")" -eq 0 ] ||
    { echo "  plan killed at $call #$n: after the plan again, not a whole state, or temporaries left"; bad=$((bad + 1)); }
done
check "rollout plan killed at each of ${#P[@]} write points: the old state or the new, and the plan again completes" test "$bad" -eq 0

# 2. rollout plan --replace over a state with a recorded check and an approval: nothing recorded is lost.
"$RAILYARD" "${PLAN[@]}" -o "$WORK/old" > /dev/null 2>&1
sed 's/,31\.2014\.0946/,31.2014.2084/' "$SRC/examples/rollout/switches.csv" > "$WORK/sw-after.csv"
"$RAILYARD" rollout check --state "$WORK/old" --wave 0 --switches "$WORK/sw-after.csv" > /dev/null 2>&1
"$RAILYARD" rollout approve --state "$WORK/old" --wave 1 --by carol > /dev/null 2>&1
check "the state to replace has a check and an approval" sh -c "test -s '$WORK'/old/checks/wave-00-*.json && test -s '$WORK'/old/approvals/wave-01-*.json"
# The new plan differs from the old (another policy), so which one a rollout.json is can be told.
printf 'max_hosts_per_wave: 200\n' > "$WORK/other.yaml"
REPLAN=("${PLAN[@]}" --policy "$WORK/other.yaml")
mapfile -t R < <(cp -r "$WORK/old" "$WORK/count-replace" && points "$RAILYARD" "${REPLAN[@]}" --replace -o "$WORK/count-replace")
bad=0
for p in "${R[@]}"; do
  read -r call n <<< "$p"
  rm -rf "$WORK/k" && cp -r "$WORK/old" "$WORK/k"
  killed_at "$call" "$n" "$RAILYARD" "${REPLAN[@]}" --replace -o "$WORK/k"
  [ "$(find "$WORK/k" -path '*/checks/wave-00-*.json' | wc -l)" -ge 1 ] && [ "$(find "$WORK/k" -path '*/approvals/wave-01-*.json' | wc -l)" -ge 1 ] ||
    { echo "  replace killed at $call #$n: the old check or approval is gone"; bad=$((bad + 1)); }
  if [ -e "$WORK/k/rollout.json" ]; then
    whole_state "$WORK/k" || { echo "  replace killed at $call #$n: rollout.json without the whole state"; bad=$((bad + 1)); }
    # The old rollout keeps its check and approval; the new one has none of them.
    if cmp -s "$WORK/k/rollout.json" "$WORK/old/rollout.json"; then
      [ -s "$(ls "$WORK"/k/checks/wave-00-*.json 2> /dev/null | head -1)" ] || { echo "  replace killed at $call #$n: the old rollout lost its check"; bad=$((bad + 1)); }
    elif [ -n "$(ls "$WORK/k/checks" "$WORK/k/approvals" 2> /dev/null)" ]; then
      echo "  replace killed at $call #$n: the new rollout has the old one's checks or approvals"
      bad=$((bad + 1))
    fi
  fi
  "$RAILYARD" "${REPLAN[@]}" --replace -o "$WORK/k" > /dev/null 2> "$WORK/again.err" ||
    { echo "  replace killed at $call #$n: the plan again fails: $(head -c 200 "$WORK/again.err")"; bad=$((bad + 1)); }
  whole_state "$WORK/k" && [ "$(temporaries "$WORK/k")" -eq 0 ] && [ -z "$(ls "$WORK/k/checks" "$WORK/k/approvals" 2> /dev/null)" ] ||
    { echo "  replace killed at $call #$n: after the plan again, not a whole new state"; bad=$((bad + 1)); }
done
check "rollout plan --replace killed at each of ${#R[@]} write points: nothing recorded lost, never a mix" test "$bad" -eq 0

# 3. rollout check (a failed one: its check and rollback script) killed at each write point.
"$RAILYARD" "${PLAN[@]}" -o "$WORK/c0" > /dev/null 2>&1
CHECK=(rollout check --wave 0 --switches "$SRC/examples/rollout/switches.csv")
mapfile -t C < <(cp -r "$WORK/c0" "$WORK/count-check" && points "$RAILYARD" "${CHECK[@]}" --state "$WORK/count-check")
"$RAILYARD" rollout status --state "$WORK/c0" > "$WORK/before.txt" 2>&1
bad=0
for p in "${C[@]}"; do
  read -r call n <<< "$p"
  rm -rf "$WORK/k" && cp -r "$WORK/c0" "$WORK/k"
  killed_at "$call" "$n" "$RAILYARD" "${CHECK[@]}" --state "$WORK/k"
  record=$(ls "$WORK"/k/checks/wave-00-*.json 2> /dev/null | head -1)
  if [ -n "$record" ]; then
    jq -e '.pass == false and (.rollback_script | length) > 0' "$record" > /dev/null 2>&1 ||
      { echo "  check killed at $call #$n: a check record that is not whole"; bad=$((bad + 1)); }
  else
    [ -z "$(ls "$WORK"/k/wave-00-*-rollback.sh 2> /dev/null)" ] || { echo "  check killed at $call #$n: a rollback script whose check was not recorded"; bad=$((bad + 1)); }
    "$RAILYARD" rollout status --state "$WORK/k" > "$WORK/after.txt" 2>&1
    cmp -s "$WORK/before.txt" "$WORK/after.txt" || { echo "  check killed at $call #$n: status changed with no check recorded"; bad=$((bad + 1)); }
  fi
  "$RAILYARD" "${CHECK[@]}" --state "$WORK/k" > /dev/null 2>&1
  [ $? -eq 1 ] && [ -s "$(ls "$WORK"/k/wave-00-*-rollback.sh | head -1)" ] && [ "$(temporaries "$WORK/k")" -eq 0 ] ||
    { echo "  check killed at $call #$n: the check again did not record the halt and its script"; bad=$((bad + 1)); }
done
check "rollout check killed at each of ${#C[@]} write points: recorded whole or not at all" test "$bad" -eq 0

# 4. rollout approve killed at each write point.
printf 'two_person: true\n' > "$WORK/two.yaml"
"$RAILYARD" rollout plan --facts "$WORK/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --policy "$WORK/two.yaml" --by alice -o "$WORK/a0" > /dev/null 2>&1
mapfile -t A < <(cp -r "$WORK/a0" "$WORK/count-approve" && points "$RAILYARD" rollout approve --state "$WORK/count-approve" --wave 0 --by bob)
bad=0
for p in "${A[@]}"; do
  read -r call n <<< "$p"
  rm -rf "$WORK/k" && cp -r "$WORK/a0" "$WORK/k"
  killed_at "$call" "$n" "$RAILYARD" rollout approve --state "$WORK/k" --wave 0 --by bob
  approval=$(ls "$WORK"/k/approvals/*.json 2> /dev/null | head -1)
  if [ -n "$approval" ]; then
    jq -e '.by == "bob"' "$approval" > /dev/null 2>&1 || { echo "  approve killed at $call #$n: an approval that is not whole"; bad=$((bad + 1)); }
  fi
  "$RAILYARD" rollout approve --state "$WORK/k" --wave 0 --by bob > "$WORK/again.out" 2>&1
  rc=$?
  { [ $rc -eq 0 ] || { [ -n "$approval" ] && grep -q 'approved already, by bob' "$WORK/again.out"; }; } &&
    "$RAILYARD" rollout status --state "$WORK/k" | grep -Eq '^0 +test +ready +approved by bob' && [ "$(temporaries "$WORK/k")" -eq 0 ] ||
    { echo "  approve killed at $call #$n: approving again did not leave wave 0 approved by bob, alone"; bad=$((bad + 1)); }
done
check "rollout approve killed at each of ${#A[@]} write points: one whole approval or none" test "$bad" -eq 0

finish
