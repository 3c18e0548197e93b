#!/usr/bin/env bash
# Real LLDP peers: two nodes, a leaf and two spines built from network namespaces joined by
# veth pairs, lldpd in each namespace with its system name set; `lldpctl -f json` is collected
# from every namespace and verified against the plan. Cabled as planned: no findings. Then the
# two node cables at storage-leaf-001 are swapped: exactly one `swapped` finding.
# Usage: lldp_test.sh RAILYARD SOURCE_DIR [CAPTURE_DIR]. Exits 77 (skipped) without root,
# network namespaces or lldpd. CAPTURE_DIR, if given, keeps the lldpctl outputs.
set -u
RAILYARD=$1
SRC=$2
KEEP=${3:-}
if ! command -v lldpd > /dev/null || ! command -v lldpcli > /dev/null; then
  echo "SKIP: lldpd not installed (scripts/install-deps.sh installs it)"; exit 77
fi
PREFIX="ry$$"
if ! ip netns add "${PREFIX}-probe" 2> /dev/null; then
  echo "SKIP: cannot create network namespaces here (needs root and CAP_SYS_ADMIN)"; exit 77
fi
ip netns del "${PREFIX}-probe"
WORK=$(mktemp -d)
chmod 755 "$WORK"  # lldpcli drops to the _lldpd user, which must reach the sockets
DEVICES="node001 node002 storage-leaf-001 storage-spine-01 storage-spine-02"
cleanup() {
  for d in $DEVICES; do
    [ -f "$WORK/$d.pid" ] && kill "$(cat "$WORK/$d.pid")" 2> /dev/null
    ip netns del "${PREFIX}-$d" 2> /dev/null
  done
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ns() { echo "${PREFIX}-$1"; }
# link DEV_A PORT_A DEV_B PORT_B: one cable, a veth pair.
link() { ip link add "$2" netns "$(ns "$1")" type veth peer name "$4" netns "$(ns "$3")"; }

build() {  # build WIRING...: WIRING is "devA:portA=devB:portB"
  for d in $DEVICES; do ip netns add "$(ns "$d")"; ip -n "$(ns "$d")" link set lo up; done
  for w in "$@"; do
    a=${w%%=*}; b=${w#*=}
    link "${a%%:*}" "${a#*:}" "${b%%:*}" "${b#*:}"
  done
  for d in $DEVICES; do
    ifaces=$(ip -n "$(ns "$d")" -o link show | awk -F': ' '$2 != "lo" {split($2, n, "@"); print n[1]}' | paste -sd, -)
    for i in ${ifaces//,/ }; do ip -n "$(ns "$d")" link set "$i" up; done
    # The name goes out from the first LLDPDU (-O runs this at start). Switches send their
    # interface name as port id, as Cumulus and SONiC do; hosts keep lldpd's default (MAC id,
    # name in the port description), so both ways of naming a port are exercised.
    {
      echo "configure system hostname $d"
      echo "configure lldp tx-interval 1"
      case $d in storage-*) echo "configure lldp portidsubtype ifname" ;; esac
    } > "$WORK/$d.conf"
    # -I names the veth ports: lldpd ignores veth interfaces unless told to use them.
    ip netns exec "$(ns "$d")" lldpd -u "$WORK/$d.sock" -I "$ifaces" -p "$WORK/$d.pid" -O "$WORK/$d.conf" 2> "$WORK/$d.log"
  done
}

teardown() {
  for d in $DEVICES; do
    [ -f "$WORK/$d.pid" ] && kill "$(cat "$WORK/$d.pid")" 2> /dev/null
    rm -f "$WORK/$d.pid"
    ip netns del "$(ns "$d")" 2> /dev/null
  done
  sleep 0.3
}

capture() {  # capture DIR: every device's neighbours, once each sees all of its ports' peers
  mkdir -p "$1"
  for d in $DEVICES; do
    want=$(ip -n "$(ns "$d")" -o link show | grep -vc ': lo:')
    for _ in $(seq 1 100); do
      lldpcli -u "$WORK/$d.sock" show neighbors -f json > "$1/$d.json" 2>> "$WORK/lldpcli.err"
      got=$(grep -c '"via": "LLDP"' "$1/$d.json")
      [ "$got" -ge "$want" ] && break
      sleep 0.2
    done
  done
}

"$RAILYARD" plan "$SRC/tests/integration/lldp-fabric.yaml" -o "$WORK/plan" > /dev/null 2>&1 || { echo "FAIL: plan"; exit 1; }

# As planned (STOR-000001..4 in the cut-sheet).
build node001:mlx5_0=storage-leaf-001:swp1 node002:mlx5_0=storage-leaf-001:swp2 \
      storage-leaf-001:swp15=storage-spine-01:swp1 storage-leaf-001:swp16=storage-spine-02:swp1
capture "$WORK/clean"
[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$WORK/clean/"*.json "$KEEP/"
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --lldp "$WORK/clean" > "$WORK/clean.out" 2>&1
check "as planned: exit 0" test $? -eq 0
check "as planned: all 4 links ok" grep -q "^4 planned links: 4 ok, 0 missing, 0 miswired, 0 degraded, 0 unverified" "$WORK/clean.out"
check "as planned: no findings" grep -q "^no findings" "$WORK/clean.out"
teardown

# Swapped at storage-leaf-001: node001 lands on swp2, node002 on swp1.
build node001:mlx5_0=storage-leaf-001:swp2 node002:mlx5_0=storage-leaf-001:swp1 \
      storage-leaf-001:swp15=storage-spine-01:swp1 storage-leaf-001:swp16=storage-spine-02:swp1
capture "$WORK/swapped"
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --lldp "$WORK/swapped" --format csv > "$WORK/swapped.csv" 2>&1
check "swapped: exit 1" test $? -eq 1
findings=$(($(wc -l < "$WORK/swapped.csv") - 1))
check "swapped: exactly one finding (got $findings)" test "$findings" -eq 1
check "swapped: names both cables" grep -q '^swapped,error,,cables STOR-000001 and STOR-000002,.*,storage,STOR-000001;STOR-000002,' "$WORK/swapped.csv"
check "swapped: the plugs to exchange" grep -q 'exchange the plugs in storage-leaf-001:swp1 and storage-leaf-001:swp2' "$WORK/swapped.csv"
if [ "$fail" -ne 0 ]; then head -c 2000 "$WORK/clean.out"; head -c 2000 "$WORK/swapped.csv"; fi
teardown

# Cabled as planned, but the hosts name their NIC ports by netdev (ens1f0np0) where the plan has the RDMA
# device (mlx5_0), as real hosts do: without a mapping only `unresolved-name` warnings (never miswired);
# with each host's ibdev2netdev, no finding at all.
build node001:ens1f0np0=storage-leaf-001:swp1 node002:ens1f0np0=storage-leaf-001:swp2 \
      storage-leaf-001:swp15=storage-spine-01:swp1 storage-leaf-001:swp16=storage-spine-02:swp1
capture "$WORK/netdev"
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --lldp "$WORK/netdev" --format csv > "$WORK/netdev.csv" 2> "$WORK/netdev.err"
check "netdev names: exit 0 without a mapping" test $? -eq 0
check "netdev names: only unresolved-name findings" test "$(tail -n +2 "$WORK/netdev.csv" | cut -d, -f1 | sort -u)" = "unresolved-name"
check "netdev names: one per host" test "$(tail -n +2 "$WORK/netdev.csv" | wc -l)" -eq 2
mkdir -p "$WORK/ibdev"
for h in node001 node002; do echo "mlx5_0 port 1 ==> ens1f0np0 (Up)" > "$WORK/ibdev/$h.txt"; done
"$RAILYARD" verify --plan "$WORK/plan/plan.json" --lldp "$WORK/netdev" --ibdev2netdev "$WORK/ibdev" > "$WORK/mapped.out" 2>&1
check "netdev names mapped by ibdev2netdev: exit 0" test $? -eq 0
check "netdev names mapped: all 4 links ok" grep -q "^4 planned links: 4 ok, 0 missing, 0 miswired" "$WORK/mapped.out"
check "netdev names mapped: no findings" grep -q "^no findings" "$WORK/mapped.out"
if [ "$fail" -ne 0 ]; then cat "$WORK/netdev.csv" "$WORK/mapped.out"; fi
teardown

finish
