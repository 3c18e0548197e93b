#!/usr/bin/env bash
# railyard config hosts from the README's example, checked by netplan itself (Debian netplan.io):
# `netplan generate --root-dir` accepts each host's file, and the systemd-networkd files it writes
# carry the plan's addresses, MTU, IPoIB mode, per-rail routing tables and source rules. Bad input
# exits 2 and writes nothing. Usage: config_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
NETPLAN=$(command -v netplan || echo /usr/sbin/netplan)
check "netplan is installed (scripts/install-deps.sh)" test -x "$NETPLAN"
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/plan" > /dev/null 2>&1
"$RAILYARD" config hosts --plan "$WORK/plan/plan.json" -o "$WORK/hosts" 2> "$WORK/err.txt"
check "config hosts exits 0" test $? -eq 0
check "one tree per host (127)" test "$(ls "$WORK/hosts" | wc -l)" -eq 127
check "says the out-of-band plane is left out" grep -q "plane oob (out-of-band): left out" "$WORK/err.txt"
check "netplan file is mode 600" test "$(stat -c %a "$WORK/hosts/dgx001/etc/netplan/60-railyard.yaml")" = 600
for host in dgx001 dgx064 dgx127; do
  "$NETPLAN" generate --root-dir "$WORK/hosts/$host" 2> "$WORK/np-$host.err"
  check "$host: netplan generate accepts it" test $? -eq 0
  check "$host: netplan says nothing" test ! -s "$WORK/np-$host.err"
done
N="$WORK/hosts/dgx001/run/systemd/network"
check "dgx001: a network file per port (8 compute + 2 storage)" test "$(ls "$N"/*.network | wc -l)" -eq 10
IB=$(cat "$N/10-netplan-ibp24s0.network")
ADDR=$(awk -F, '$1 == "compute" && $3 == "dgx001" && $4 == "mlx5_0" { print $5 "/" $6 }' "$WORK/plan/ip-plan.csv")
check "ibp24s0: the plan's address ($ADDR)" grep -q "^Address=$ADDR$" "$N/10-netplan-ibp24s0.network"
check "ibp24s0: IPoIB datagram, MTU 2044" sh -c "echo '$IB' | grep -q '^Mode=datagram' && grep -q '^MTUBytes=2044' '$N/10-netplan-ibp24s0.network'"
check "ibp24s0: its own routing table and source rule" sh -c "grep -q '^Table=101' '$N/10-netplan-ibp24s0.network' && grep -q '^From=${ADDR%/*}' '$N/10-netplan-ibp24s0.network'"
check "rails have distinct tables" test "$(cat "$N"/10-netplan-ibp*.network | grep -c '^Table=1[0-9][0-9]$' )" -eq 16
check "storage: MTU 9000" grep -q '^MTUBytes=9000' "$N/10-netplan-enp41s0f0np0.network"
check "multi-rail sysctl for every port" test "$(grep -c arp_ignore "$WORK/hosts/dgx001/etc/sysctl.d/60-railyard-multirail.conf")" -eq 10
"$RAILYARD" config hosts --plan "$WORK/plan/plan.json" --host 'dgx00[1-3]' -o "$WORK/some" 2> /dev/null
check "--host: a glob picks hosts" test "$(ls "$WORK/some" | tr '\n' ' ')" = "dgx001 dgx002 dgx003 "

# One archive for the fleet: the same trees; extracted for one host, netplan accepts it.
SOURCE_DATE_EPOCH=1700000000 "$RAILYARD" config hosts --plan "$WORK/plan/plan.json" -o "$WORK/hosts.tar" 2> /dev/null
check "-o hosts.tar: exit 0" test $? -eq 0
check "hosts.tar: tar lists 127 netplan files, mode 600" test "$(tar -tvf "$WORK/hosts.tar" | grep -c '^-rw------- root/root .* 2023-11-14 .*/etc/netplan/60-railyard.yaml$')" -eq 127
mkdir -p "$WORK/x"
tar -xf "$WORK/hosts.tar" --strip-components=1 -C "$WORK/x" dgx064/
check "hosts.tar: one host's tree is the directory output's" cmp "$WORK/x/etc/netplan/60-railyard.yaml" "$WORK/hosts/dgx064/etc/netplan/60-railyard.yaml"
"$NETPLAN" generate --root-dir "$WORK/x" 2> /dev/null
check "hosts.tar: netplan accepts the extracted tree" test $? -eq 0

# NetworkManager keyfiles, read by NetworkManager's own keyfile reader: `nmcli --offline` takes a
# keyfile on stdin, validates it and prints it normalized (NetworkManager 1.40 and later); every
# setting railyard wrote must come back.
"$RAILYARD" config hosts --plan "$WORK/plan/plan.json" --format nm --host 'dgx00[12]' -o "$WORK/nm" 2> /dev/null
check "--format nm: exit 0" test $? -eq 0
K="$WORK/nm/dgx001/etc/NetworkManager/system-connections"
check "nm: a keyfile per port (10), mode 600" test "$(find "$K" -name '*.nmconnection' -perm 600 | wc -l)" -eq 10
check "nmcli is installed (scripts/install-deps.sh)" command -v nmcli
bad=0
for f in "$K"/*.nmconnection "$WORK"/nm/dgx002/etc/NetworkManager/system-connections/*.nmconnection; do
  nmcli --offline connection modify connection.autoconnect yes < "$f" > "$WORK/nm-out.txt" 2> "$WORK/nm-err.txt"
  if [ $? -ne 0 ]; then bad=$((bad + 1)); echo "nmcli refuses $f:" >&2; cat "$WORK/nm-err.txt" >&2; continue; fi
  lost=$(grep -v -e '^#' -e '^\[' -e '^$' -e '^autoconnect=true$' "$f" | grep -vxFf "$WORK/nm-out.txt")
  if [ -n "$lost" ]; then bad=$((bad + 1)); echo "nmcli dropped from $f: $lost" >&2; fi
done
check "nmcli reads all 20 keyfiles of two hosts and keeps every setting" test "$bad" -eq 0
check "nm: IPoIB datagram, MTU 2044, table 101 and its rule" sh -c "grep -q '^transport-mode=datagram' '$K/railyard-ibp24s0.nmconnection' && grep -q '^route-table=101' '$K/railyard-ibp24s0.nmconnection' && grep -q '^routing-rule1=priority 1101 from ' '$K/railyard-ibp24s0.nmconnection'"
printf '[connection]\nid=x\nuuid=not-a-uuid\ntype=ethernet\n' | nmcli --offline connection modify connection.autoconnect yes > /dev/null 2>&1
check "nmcli refuses a bad keyfile (the check can fail)" test $? -ne 0

# Bad input: a plan without netdevs, a plan without addresses, a glob that matches nothing.
sed '/netdevs:/d' "$SRC/examples/superpod-h100-4su.yaml" > "$WORK/no-netdevs.yaml"
"$RAILYARD" plan "$WORK/no-netdevs.yaml" -o "$WORK/plan-nn" > /dev/null 2>&1
"$RAILYARD" config hosts --plan "$WORK/plan-nn/plan.json" -o "$WORK/nn" 2> "$WORK/nn.err"
check "no netdevs: exit 2" test $? -eq 2
check "no netdevs: names the planes and the spec key" grep -q "plane(s) compute, storage give hosts addresses but the spec names no netdevs" "$WORK/nn.err"
check "no netdevs: nothing written" test ! -e "$WORK/nn"
"$RAILYARD" plan "$SRC/examples/lab-8-node.yaml" -o "$WORK/plan-lab" > /dev/null 2>&1
"$RAILYARD" config hosts --plan "$WORK/plan-lab/plan.json" -o "$WORK/lab" 2> "$WORK/lab.err"
check "no addressing for host planes: exit 2, says what to add" sh -c "grep -q 'no host port has an address' '$WORK/lab.err' && test ! -e '$WORK/lab'"
"$RAILYARD" config hosts --plan "$WORK/plan/plan.json" --host 'gpu*' -o "$WORK/none" 2> "$WORK/none.err"
check "a glob matching no host: exit 2" test $? -eq 2
finish
