#!/usr/bin/env bash
# The drain and resume scripts of `railyard rollout plan` run against a real Slurm: slurmctld and one
# slurmd per node of the README's 4-SU SuperPOD (Debian's slurm-wlm, munge for its authentication),
# in private network, PID and mount namespaces so nothing outlives the test and no port is shared.
# Every wave's drain and resume script of the examples (host waves; switch waves in both leaf modes;
# facts that name hosts by FQDN) is accepted; a drain waits for a running job; a controller that
# cannot be reached stops the script with Slurm's own message.
# Usage: slurm_test.sh RAILYARD SOURCE_DIR. Exits 77 where namespaces cannot be made.
set -u
RAILYARD=$1
SRC=$2
if [ -z "${RAILYARD_SLURM_NS:-}" ]; then
  unshare -n -p -f --mount-proc true 2> /dev/null || { echo "SKIP: cannot create namespaces here"; exit 77; }
  RAILYARD_SLURM_NS=1 exec unshare -n -p -f --mount-proc "$0" "$@"
fi
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for tool in slurmctld slurmd scontrol sinfo sbatch munged jq; do
  command -v "$tool" > /dev/null || { check "$tool is installed (scripts/install-deps.sh installs Slurm and munge)" false; finish; exit; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT  # the PID namespace ends every daemon with this shell
BUILD=$(cd "$(dirname "$RAILYARD")" && pwd)

# The rollouts: the example fleet and target, host waves; then the switches in both leaf modes.
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1
(cd "$SRC" && bash examples/rollout/fleet.sh "$(realpath --relative-to="$SRC" "$BUILD")") > "$WORK/fleet.ndjson"
plan() {
  local out=$1
  shift
  "$RAILYARD" rollout plan --facts "${FACTS:-$WORK/fleet.ndjson}" --target "$SRC/examples/rollout/target.yaml" -o "$WORK/$out" "$@" > /dev/null 2> "$WORK/$out.err"
  check "rollout plan $out: exit 0 ($(head -c 200 "$WORK/$out.err"))" test $? -eq 0
}
plan hosts --policy "$SRC/examples/rollout/policy.yaml" --plan "$WORK/plan/plan.json"
plan unit --plan "$WORK/plan/plan.json" --switches "$SRC/examples/rollout/switches.csv"
printf 'leaf_waves: rail\n' > "$WORK/rail.yaml"
plan rail --policy "$WORK/rail.yaml" --plan "$WORK/plan/plan.json" --switches "$SRC/examples/rollout/switches.csv"
jq -c '.host.hostname += ".cluster.example"' "$WORK/fleet.ndjson" > "$WORK/fqdn.ndjson"
FACTS="$WORK/fqdn.ndjson" plan fqdn --policy "$SRC/examples/rollout/policy.yaml"

# Slurm: the plan's nodes, each with its own slurmd on a port of its own.
ip link set lo up
# slurmctld resolves its listening address with AI_ADDRCONFIG, which wants an address that is not
# loopback: a veth pair inside the namespace gives it one.
ip link add ry0 type veth peer name ry1 && ip addr add 10.254.0.1/24 dev ry0 && ip link set ry0 up && ip link set ry1 up
mkdir -p "$WORK/munge" "$WORK/state" "$WORK/spool"
chmod 700 "$WORK/munge"
head -c 1024 /dev/urandom > "$WORK/munge/munge.key"
chmod 400 "$WORK/munge/munge.key"
munged --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/sock" --pid-file="$WORK/munge/pid" \
  --log-file="$WORK/munge/log" --seed-file="$WORK/munge/seed" --force
check "munged starts" test $? -eq 0
mapfile -t NODES < <(jq -r '.devices[] | select(.role == "node") | .name' "$WORK/plan/plan.json")
{
  echo "ClusterName=railyard"
  echo "SlurmctldHost=localhost"
  echo "SlurmUser=root"
  echo "AuthType=auth/munge"
  echo "AuthInfo=socket=$WORK/munge/sock"
  echo "CredType=cred/munge"
  echo "StateSaveLocation=$WORK/state"
  echo "SlurmctldPidFile=$WORK/slurmctld.pid"
  echo "SlurmctldLogFile=$WORK/slurmctld.log"
  echo "SlurmdSpoolDir=$WORK/spool/%n"
  echo "SlurmdPidFile=$WORK/spool/%n.pid"
  echo "SlurmdLogFile=$WORK/spool/%n.log"
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "MpiDefault=none"
  echo "MailProg=/bin/true"
  echo "ReturnToService=2"
  port=17000
  for n in "${NODES[@]}"; do
    port=$((port + 1))
    echo "NodeName=$n NodeAddr=127.0.0.1 Port=$port CPUs=1 State=UNKNOWN"
  done
  echo "PartitionName=all Nodes=ALL Default=YES State=UP MaxTime=10"
} > "$WORK/slurm.conf"
export SLURM_CONF="$WORK/slurm.conf"
slurmctld -f "$SLURM_CONF" -c -i
for _ in $(seq 100); do scontrol ping > /dev/null 2>&1 && break; sleep 0.2; done
check "slurmctld answers" scontrol ping
for n in "${NODES[@]}"; do
  mkdir -p "$WORK/spool/$n"
  slurmd -N "$n" -f "$SLURM_CONF"
done
idle() { test "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" -eq "${#NODES[@]}"; }
for _ in $(seq 150); do idle && break; sleep 0.2; done
check "all ${#NODES[@]} nodes of the plan registered, idle" idle

# Every wave, in order: its drain script is accepted and leaves exactly its nodes drained; its
# resume script is accepted and leaves every node idle again.
export RAILYARD_DRAIN_POLL_SECONDS=1
run_waves() {
  local dir=$1 bad=0 waves=0
  for drain in "$dir"/wave-*-drain.sh; do
    waves=$((waves + 1))
    local wave resume expected got
    wave=$(basename "$drain" -drain.sh)
    resume="$dir/$wave-resume.sh"
    if ! timeout 60 bash "$drain" > "$WORK/out" 2>&1; then
      echo "  $wave drain: $(head -c 300 "$WORK/out")"
      bad=$((bad + 1))
      continue
    fi
    expected=$(jq -r --arg w "$wave" '.waves[] | select(("wave-" + (.index | tostring | if length < 2 then "0" + . else . end) + "-" + .name) == $w)
      | (.drain // .hosts)[] | split(".")[0]' "$dir/rollout.json" | sort -u | paste -sd,)
    got=$(sinfo -h -N -t drain,drained,draining -o %N | sort -u | paste -sd,)
    [ "$expected" = "$got" ] || { echo "  $wave: drained '$got', expected '$expected'"; bad=$((bad + 1)); }
    if ! timeout 60 bash "$resume" > "$WORK/out" 2>&1; then
      echo "  $wave resume: $(head -c 300 "$WORK/out")"
      bad=$((bad + 1))
    fi
    idle || { echo "  $wave: not every node idle after its resume"; bad=$((bad + 1)); }
  done
  echo "$waves $bad"
}
for dir in hosts rail unit fqdn; do
  read -r waves bad < <(run_waves "$WORK/$dir" | tee "$WORK/$dir.runs" | tail -1)
  grep '^  ' "$WORK/$dir.runs"
  check "$dir: slurmctld accepts all $waves drain and resume scripts, each draining exactly its wave's nodes" \
    test "$waves" -gt 0 -a "$bad" -eq 0
done
check "fqdn: the drain lists name the nodes as Slurm does (short names)" \
  sh -c "! grep -l 'cluster.example' '$WORK'/fqdn/wave-*-drain.sh '$WORK'/fqdn/wave-*-resume.sh"

# A drain waits for the node's job to end, and only then lets the wave run.
FIRST=$(ls "$WORK"/hosts/wave-*-drain.sh | head -1)
NODE=$(jq -r '.waves[0] | (.drain // .hosts)[0]' "$WORK/hosts/rollout.json")
sbatch -Q -w "$NODE" -o /dev/null --wrap 'sleep 4' > /dev/null
for _ in $(seq 50); do [ -n "$(squeue -h -t running -w "$NODE" 2> /dev/null)" ] && break; sleep 0.2; done
check "a job runs on $NODE" test -n "$(squeue -h -t running -w "$NODE")"
start=$(date +%s)
timeout 60 bash "$FIRST" > "$WORK/wait.out" 2>&1
rc=$?
waited=$(($(date +%s) - start))
[ $rc -eq 0 ] || { tail -3 "$WORK/wait.out"; squeue -w "$NODE"; sinfo -N -n "$NODE" -o '%N %T %E'; tail -5 "$WORK/spool/$NODE.log"; }
check "drain with a job on $NODE: exit 0 once it ended, after waiting for it (${waited} s)" \
  sh -c "test $rc -eq 0 && test $waited -ge 2 && test -z \"\$(squeue -h -w '$NODE')\""
bash "${FIRST%-drain.sh}-resume.sh" > /dev/null 2>&1

# A controller that cannot be reached: the drain stops with Slurm's message, and never says drained.
kill "$(cat "$WORK/slurmctld.pid")"
for _ in $(seq 50); do scontrol ping > /dev/null 2>&1 || break; sleep 0.2; done
timeout 60 bash "$FIRST" > "$WORK/down.out" 2>&1
check "controller down: the drain exits non-zero with Slurm's own message" \
  sh -c "test $? -ne 0 && grep -qi 'slurm' '$WORK/down.out' && grep -qiE 'unable to contact|connect' '$WORK/down.out'"

finish
