#!/usr/bin/env bash
# Live collect: a host built in a network namespace -- a veth pair with mismatched MTUs (9000
# and 1500), a veth whose peer is down, and a bridge with a member -- and `railyard collect`
# run inside it. Every interface's MTU, state, carrier, MAC and master must be what the
# kernel says (`ip -j -d link`); the veths must be recognised as veths by their driver.
# Usage: collect_test.sh RAILYARD SOURCE_DIR [KEEP_DIR]. Exits 77 without netns, ethtool or jq.
set -u
RAILYARD=$1
KEEP=${3:-}
for tool in jq ethtool; do
  command -v $tool > /dev/null || { echo "SKIP: $tool not installed (scripts/install-deps.sh installs it)"; exit 77; }
done
NS="rycollect$$"
ip netns add "$NS" 2> /dev/null || { echo "SKIP: cannot create network namespaces here"; exit 77; }
WORK=$(mktemp -d)
trap 'ip netns del "$NS" 2> /dev/null; rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ip -n "$NS" link add ens1f0np0 type veth peer name ens1f1np1
ip -n "$NS" link set ens1f0np0 mtu 9000 up
ip -n "$NS" link set ens1f1np1 up                       # MTU 1500: the mismatch a doctor must see
ip -n "$NS" link add eth9 type veth peer name eth9peer
ip -n "$NS" link set eth9 up                            # its peer stays down: no carrier
ip -n "$NS" link add br0 type bridge
ip -n "$NS" link add vm0 type veth peer name vm0peer
ip -n "$NS" link set vm0 master br0
ip -n "$NS" link set br0 up
ip -n "$NS" link set vm0 up
ip -n "$NS" link set vm0peer up
ip -n "$NS" addr add 10.10.0.5/24 dev ens1f0np0
ip -n "$NS" -6 addr add fd00::5/64 dev ens1f0np0 nodad
ip -n "$NS" addr add 192.168.50.2/31 dev br0

ip netns exec "$NS" "$RAILYARD" collect -o "$WORK/facts.json" 2> "$WORK/collect.err"
check "collect exits 0" test $? -eq 0
ip -n "$NS" -j -d link show > "$WORK/ip.json"
ip -n "$NS" -j addr show > "$WORK/addr.json"
[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$WORK/ip.json" "$WORK/facts.json" "$KEEP/"

check "schema" test "$(jq -r .schema "$WORK/facts.json")" = "railyard.facts/1"
# Interface by interface: the kernel's view against railyard's.
for name in $(jq -r '.[].ifname' "$WORK/ip.json"); do
  want=$(jq -c --arg n "$name" '.[] | select(.ifname == $n) |
    {mtu, state: (.operstate | ascii_downcase), master: (.master // ""), mac: .address,
     carrier: ((.flags | index("LOWER_UP")) != null), lower: (.link // ""),
     tx_queues: $q}' --argjson q "$(ip netns exec "$NS" ls "/sys/class/net/$name/queues" | grep -c '^tx-')" "$WORK/ip.json")
  want_addr=$(jq -c --arg n "$name" '.[] | select(.ifname == $n) |
    [.addr_info[] | select(.scope != "link") | "\(.local)/\(.prefixlen)"] | sort' "$WORK/addr.json")
  got=$(jq -c --arg n "$name" '.netdevs[] | select(.name == $n) |
    {mtu, state: .operstate, master, mac, carrier: (.carrier // false), lower, tx_queues}' "$WORK/facts.json")
  got_addr=$(jq -c --arg n "$name" '.netdevs[] | select(.name == $n) | .addresses | sort' "$WORK/facts.json")
  check "$name addresses: $want_addr == $got_addr" test "$want_addr" = "$got_addr"
  check "$name: $want == $got" test "$want" = "$got"
done
check "veths are veths (ethtool -i driver)" test "$(jq -r '.netdevs[] | select(.name == "ens1f0np0") | .kind' "$WORK/facts.json")" = veth
check "the bridge is a bridge" test "$(jq -r '.netdevs[] | select(.name == "br0") | .kind' "$WORK/facts.json")" = bridge
check "the MTU mismatch is there" test "$(jq -r '[.netdevs[] | select(.name | startswith("ens1")) | .mtu] | sort | join(",")' "$WORK/facts.json")" = "1500,9000"
check "eth9 without carrier" test "$(jq -r '.netdevs[] | select(.name == "eth9") | .carrier' "$WORK/facts.json")" = false
check "ethtool -i recorded as a source" test "$(jq '[.sources[] | select(.name | startswith("ethtool -i")) | select(.present)] | length' "$WORK/facts.json")" -ge 6

finish
