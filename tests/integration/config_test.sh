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
# nm_check FILE...: how many keyfiles nmcli refuses, or returns without a setting railyard wrote.
nm_check() {
  local bad=0 f
  for f in "$@"; do
    if ! nmcli --offline connection modify connection.autoconnect yes < "$f" > "$WORK/nm-out.txt" 2> "$WORK/nm-err.txt"; then
      bad=$((bad + 1)); echo "nmcli refuses $f:" >&2; cat "$WORK/nm-err.txt" >&2; continue
    fi
    lost=$(grep -v -e '^#' -e '^\[' -e '^$' -e '^autoconnect=true$' "$f" | grep -vxFf "$WORK/nm-out.txt")
    if [ -n "$lost" ]; then bad=$((bad + 1)); echo "nmcli dropped from $f: $lost" >&2; fi
  done
  echo "$bad"
}
bad=$(nm_check "$K"/*.nmconnection "$WORK"/nm/dgx002/etc/NetworkManager/system-connections/*.nmconnection)
check "nmcli reads all 20 keyfiles of two hosts and keeps every setting" test "$bad" -eq 0
check "nm: IPoIB datagram, MTU 2044, table 101 and its rule" sh -c "grep -q '^transport-mode=datagram' '$K/railyard-ibp24s0.nmconnection' && grep -q '^route-table=101' '$K/railyard-ibp24s0.nmconnection' && grep -q '^routing-rule1=priority 1101 from ' '$K/railyard-ibp24s0.nmconnection'"
printf '[connection]\nid=x\nuuid=not-a-uuid\ntype=ethernet\n' | nmcli --offline connection modify connection.autoconnect yes > /dev/null 2>&1
check "nmcli refuses a bad keyfile (the check can fail)" test $? -ne 0

# config roce: the script against stand-ins for mlnx_qos (the real output format, tests/fixtures/
# mlnx_qos) and cma_roce_tos, on a sysfs tree in a directory: the first run sets what differs and
# names the port whose driver has no ECN sysfs (exit 1); once that port has it, a second run
# changes nothing and exits 0.
"$RAILYARD" config roce --plan "$WORK/plan/plan.json" --host dgx001 -o "$WORK/roce" 2> /dev/null
check "config roce: exit 0" test $? -eq 0
R="$WORK/roce/dgx001/etc"
check "config roce: a script and a systemd unit" sh -c "test -x '$R/railyard/roce-qos.sh' && grep -q '^ExecStart=/etc/railyard/roce-qos.sh' '$R/systemd/system/railyard-roce-qos.service'"
check "config roce: both storage ports, priority 3, DSCP 26, ToS 106, CNP 48/6" test "$(grep -c '^port enp[0-9a-z]* 3 26 106 48 6$' "$R/railyard/roce-qos.sh")" -eq 2
F="$WORK/rocefake"
mkdir -p "$F/bin" "$F/state"
cat > "$F/bin/mlnx_qos" <<'FAKE'
#!/usr/bin/env bash
# mlnx_qos -i IF [--trust dscp] [--pfc LIST]: prints the state (a real output), changes it as asked.
ifc=$2; st="$FAKE_STATE/qos-$ifc"; shift 2
while [ $# -gt 0 ]; do
  case $1 in
    --trust) sed -i "s/^Priority trust state: .*/Priority trust state: $2/" "$st"; echo "set trust $2" >> "$FAKE_STATE/calls" ;;
    --pfc) sed -i "s/^\( *enabled\) .*/\1     $(echo "$2" | sed 's/,/   /g')/" "$st"; echo "set pfc $2" >> "$FAKE_STATE/calls" ;;
  esac
  shift 2
done
cat "$st"
FAKE
cat > "$F/bin/cma_roce_tos" <<'FAKE'
#!/usr/bin/env bash
mkdir -p "$SYS/kernel/config/rdma_cm/$2/ports/1" && echo "$4" > "$SYS/kernel/config/rdma_cm/$2/ports/1/default_roce_tos"
echo "set tos $2 $4" >> "$FAKE_STATE/calls"
FAKE
chmod +x "$F"/bin/*
S="$F/sys"
for pair in enp41s0f0np0:mlx5_8 enp170s0f0np0:mlx5_9; do
  ifc=${pair%:*}; dev=${pair#*:}
  mkdir -p "$S/class/net/$ifc/device/infiniband/$dev" "$S/class/infiniband/$dev/tc/1"
  echo 0 > "$S/class/infiniband/$dev/tc/1/traffic_class"
  sed -e 's/^Priority trust state: .*/Priority trust state: pcp/' -e 's/^\( *enabled\) .*/\1     0   0   0   0   0   0   0   0/' \
    "$SRC/tests/fixtures/mlnx_qos/firmware-dcbx-dscp-pfc3-buffers-ets.txt" > "$F/state/qos-$ifc"
done
ecn() { for role in roce_np roce_rp; do mkdir -p "$S/class/net/$1/ecn/$role/enable"; echo 0 > "$S/class/net/$1/ecn/$role/enable/3"; done
        echo 0 > "$S/class/net/$1/ecn/roce_np/cnp_dscp"; echo 0 > "$S/class/net/$1/ecn/roce_np/cnp_802p_prio"; }
ecn enp41s0f0np0   # enp170s0f0np0: an inbox driver, no ecn directory
runroce() { SYS="$S" FAKE_STATE="$F/state" PATH="$F/bin:$PATH" bash "$R/railyard/roce-qos.sh"; }
runroce > "$F/run1.out" 2> "$F/run1.err"
check "roce script, first run: exit 1 (one port has no ECN sysfs)" test $? -eq 1
check "roce script: names that port" grep -q "enp170s0f0np0: no .*/ecn (an inbox driver" "$F/run1.err"
check "roce script: trust dscp and PFC on 3 only, on both ports" test "$(grep -c -e '^set trust dscp' -e '^set pfc 0,0,0,1,0,0,0,0$' "$F/state/calls")" -eq 4
check "roce script: ECN on priority 3, both roles" sh -c "test \"\$(cat '$S/class/net/enp41s0f0np0/ecn/roce_np/enable/3' '$S/class/net/enp41s0f0np0/ecn/roce_rp/enable/3')\" = '1
1'"
check "roce script: CNP DSCP 48, priority 6" sh -c "grep -qx 48 '$S/class/net/enp41s0f0np0/ecn/roce_np/cnp_dscp' && grep -qx 6 '$S/class/net/enp41s0f0np0/ecn/roce_np/cnp_802p_prio'"
check "roce script: ToS 106 for rdma_cm and for verbs" sh -c "grep -qx 106 '$S/kernel/config/rdma_cm/mlx5_8/ports/1/default_roce_tos' && grep -qx 106 '$S/class/infiniband/mlx5_8/tc/1/traffic_class'"
ecn enp170s0f0np0
runroce > /dev/null 2>&1
: > "$F/state/calls"
runroce > "$F/run3.out" 2> "$F/run3.err"
check "roce script, run again once all is set: exit 0" test $? -eq 0
check "roce script: and changes nothing" sh -c "test ! -s '$F/state/calls' && ! grep -q ' = ' '$F/run3.out'"
# The RoCE round trip: the state the script left, captured as `collect` takes it (mlnx_qos -i IF; the
# grep of the ecn enable files) and judged by the doctor: no RoCE finding; PFC turned off again (a
# driver reload): exactly roce-pfc-off on that port.
qostrip() {  # NAME -> the doctor's roce-* findings in $WORK/qt-NAME.json
  mkdir -p "$WORK/qt-$1"
  echo dgx001 > "$WORK/qt-$1/hostname.txt"
  for ifc in enp41s0f0np0 enp170s0f0np0; do
    cp "$F/state/qos-$ifc" "$WORK/qt-$1/mlnx_qos-$ifc.txt"
    grep . "$S"/class/net/$ifc/ecn/roce_*/enable/* > "$WORK/qt-$1/ecn-$ifc.txt"
  done
  "$RAILYARD" collect -q --from "$WORK/qt-$1" > "$WORK/qt-$1.facts" 2> /dev/null
  "$RAILYARD" doctor "$WORK/qt-$1.facts" --format json 2> /dev/null | jq '[.findings[] | select(.rule | startswith("roce-"))]' > "$WORK/qt-$1.json"
}
qostrip set
check "roce round trip: what the script set gives no roce-* finding" test "$(jq length "$WORK/qt-set.json")" -eq 0
sed -i 's/^\( *enabled\) .*/\1     0   0   0   0   0   0   0   0/' "$F/state/qos-enp170s0f0np0"
qostrip pfcoff
check "roce round trip: PFC off on one port gives exactly roce-pfc-off there" \
  jq -e 'length == 1 and .[0].rule == "roce-pfc-off" and .[0].object == "netdev enp170s0f0np0"' "$WORK/qt-pfcoff.json"

# Round trip: the generated netplan, read back by `collect --from` and judged by `doctor --plan`,
# gives no config-differs-from-plan finding; with one fault put in, exactly the expected one.
# roundtrip PLAN HOST NAME FILE...: the files (netplan or ifcfg) in a capture of HOST, collected and
# judged by doctor --plan PLAN -> its config findings (config-differs-from-plan, ifcfg-onboot-no) in
# $WORK/rt-NAME.json
roundtrip() {
  local plan=$1 host=$2 name=$3; shift 3
  mkdir -p "$WORK/rt-$name"
  echo "$host" > "$WORK/rt-$name/hostname.txt"
  for f in "$@"; do cp "$f" "$WORK/rt-$name/$(basename "$f" | sed 's/^60-railyard.yaml$/netplan-60-railyard.yaml/')"; done
  "$RAILYARD" collect -q --from "$WORK/rt-$name" > "$WORK/rt-$name.facts" 2> /dev/null
  "$RAILYARD" doctor "$WORK/rt-$name.facts" --plan "$plan" --format json 2> /dev/null |
    jq '[.findings[] | select(.rule == "config-differs-from-plan" or .rule == "ifcfg-onboot-no")]' > "$WORK/rt-$name.json"
}
NP="$WORK/hosts/dgx001/etc/netplan/60-railyard.yaml"
roundtrip "$WORK/plan/plan.json" dgx001 clean "$NP"
check "round trip: the generated netplan gives no config-differs-from-plan" test "$(jq length "$WORK/rt-clean.json")" -eq 0
awk '/"enp41s0f0np0":/ { f = 1 } f && /mtu: 9000/ { sub(/9000/, "1500"); f = 0 } { print }' "$NP" > "$WORK/mtu1500.yaml"
mv "$WORK/mtu1500.yaml" "$WORK/60-railyard.yaml"
roundtrip "$WORK/plan/plan.json" dgx001 mtu "$WORK/60-railyard.yaml"
check "round trip: MTU 1500 on one storage port: exactly one finding, naming it" \
  jq -e 'length == 1 and (.[0].evidence.netdev == "enp41s0f0np0") and (.[0].evidence.mtu == "1500")' "$WORK/rt-mtu.json"
sed 's|\["10.0.0.3/12"\]|["10.0.0.99/12"]|' "$NP" > "$WORK/60-railyard.yaml"
roundtrip "$WORK/plan/plan.json" dgx001 addr "$WORK/60-railyard.yaml"
check "round trip: a wrong address on rail 2: exactly one finding" jq -e 'length == 1 and .[0].evidence.planned_address == "10.0.0.3/12"' "$WORK/rt-addr.json"
awk '/^    "ibp220s0":/ { skip = 1; next } skip && /^    "/ { skip = 0 } !skip { print }' "$NP" > "$WORK/60-railyard.yaml"
roundtrip "$WORK/plan/plan.json" dgx001 missing "$WORK/60-railyard.yaml"
check "round trip: a port left out of the file: exactly one finding" jq -e 'length == 1 and .[0].evidence.netdev == "ibp220s0"' "$WORK/rt-missing.json"

# config switches --os nvue: one NVUE file per Ethernet switch of the example (storage and
# out-of-band; the InfiniBand compute switches are the subnet manager's), all or by glob.
"$RAILYARD" config switches --plan "$WORK/plan/plan.json" -o "$WORK/sw" 2> "$WORK/sw.err"
check "config switches: exit 0" test $? -eq 0
N_ETH=$(jq '[.devices[] | select(.role == "switch" and (.plane == "storage" or .plane == "oob"))] | length' "$WORK/plan/plan.json")
check "config switches: one file per Ethernet switch ($N_ETH)" test "$(ls "$WORK/sw" | wc -l)" -eq "$N_ETH"
check "config switches: no InfiniBand switch" sh -c "! ls '$WORK/sw' | grep -q '^compute-'"
check "config switches: RoCE lossless on the storage leaves" grep -q "mode: lossless" "$WORK/sw/storage-leaf-001.yaml"
check "config switches: a host port's description is its cable label and far end" grep -q 'description: "STOR-000001 dgx001 mlx5_8"' "$WORK/sw/storage-leaf-001.yaml"
"$RAILYARD" config switches --plan "$WORK/plan/plan.json" --switch 'oob-*' -o "$WORK/oob.tar" 2> /dev/null
check "config switches --switch 'oob-*' -o oob.tar: only the out-of-band switches" sh -c "tar -tf '$WORK/oob.tar' | grep -qv '^oob-' && exit 1; tar -tf '$WORK/oob.tar' | grep -q '^oob-leaf-001.yaml$'"
"$RAILYARD" config switches --plan "$WORK/plan/plan.json" --os sonic -o "$WORK/sonic" 2> /dev/null
check "config switches --os sonic: one CONFIG_DB file per Ethernet switch" test "$(ls "$WORK/sonic"/*.json | wc -l)" -eq "$N_ETH"
check "config switches --os sonic: SN4600C panel port 1 is Ethernet0 on lanes 0-3, the cable in its description" \
  jq -e '.PORT.Ethernet0.lanes == "0,1,2,3" and .PORT.Ethernet0.alias == "etp1" and .PORT.Ethernet0.description == "STOR-000001 dgx001 mlx5_8"' "$WORK/sonic/storage-leaf-001.json"
check "config switches --os sonic: host ports untagged in the plane's VLAN, PFC on 3" \
  jq -e '.VLAN_MEMBER["Vlan200|Ethernet0"].tagging_mode == "untagged" and .PORT_QOS_MAP.Ethernet0.pfc_enable == "3"' "$WORK/sonic/storage-leaf-001.json"
# Arista EOS, for the Arista example; and not for NVIDIA switches (EOS does not run on them).
"$RAILYARD" plan "$SRC/examples/arista-roce-pod.yaml" -o "$WORK/aplan" > /dev/null 2>&1
"$RAILYARD" config switches --plan "$WORK/aplan/plan.json" --os eos -o "$WORK/eos" 2> /dev/null
check "config switches --os eos: one configuration per switch (16)" test "$(ls "$WORK/eos"/*.cfg | wc -l)" -eq 16
check "config switches --os eos: 2x400G cages as lanes 1 and 5, with their speed and the cable" \
  sh -c "grep -A3 '^interface Ethernet1/5$' '$WORK/eos/compute-leaf-su01-r1.cfg' | grep -q '^   speed 400g-4$' && grep -q '^   description COMP-000001 node001 mlx5_0$' '$WORK/eos/compute-leaf-su01-r1.cfg'"
check "config switches --os eos: a BGP neighbour per uplink (64)" test "$(grep -c ' remote-as ' "$WORK/eos/compute-leaf-su01-r1.cfg")" -eq 64
"$RAILYARD" config switches --plan "$WORK/plan/plan.json" --os eos -o "$WORK/eos-nv" 2> "$WORK/eos-nv.err"
check "config switches --os eos on NVIDIA switches: exit 2, naming the model" sh -c "test $? -eq 2 && grep -q 'does not run Arista EOS' '$WORK/eos-nv.err' && test ! -e '$WORK/eos-nv'"
"$RAILYARD" config switches --plan "$WORK/aplan/plan.json" --os nvue -o "$WORK/nv-eos" 2> /dev/null
check "config switches --os nvue on Arista switches: exit 2, nothing written" sh -c "test $? -eq 2 && test ! -e '$WORK/nv-eos'"
"$RAILYARD" config switches --plan "$WORK/plan/plan.json" --switch 'nothing*' -o "$WORK/none-sw" 2> /dev/null
check "config switches: a glob matching no switch: exit 2" test $? -eq 2
check "config switches: and nothing written" test ! -e "$WORK/none-sw"

# 802.3ad bonds (tests/integration/bond-storage.yaml: two single-port cards per node, bonded over a
# leaf pair): one address per node on the bond; netplan and NetworkManager accept what is written.
"$RAILYARD" plan "$SRC/tests/integration/bond-storage.yaml" -o "$WORK/bplan" > "$WORK/bplan.txt" 2>&1
check "bond: the plan says RDMA does not use a bond across two cards" grep -q "bond-rdma-across-cards" "$WORK/bplan.txt"
check "bond: one address per node (8), not per port" test "$(grep -c '^storage,host,' "$WORK/bplan/ip-plan.csv")" -eq 8
"$RAILYARD" config hosts --plan "$WORK/bplan/plan.json" --host gpu001 -o "$WORK/bond" 2> /dev/null
"$NETPLAN" generate --root-dir "$WORK/bond/gpu001" 2> "$WORK/bond-np.err"
check "bond: netplan generate accepts it, silently" sh -c "test -s '$WORK/bond/gpu001/run/systemd/network/10-netplan-bond0.netdev' && test ! -s '$WORK/bond-np.err'"
BN="$WORK/bond/gpu001/run/systemd/network"
check "bond: networkd gets 802.3ad, fast LACP, layer3+4, MTU 9000" sh -c "grep -q '^Mode=802.3ad' '$BN/10-netplan-bond0.netdev' && grep -q '^LACPTransmitRate=fast' '$BN/10-netplan-bond0.netdev' && grep -q '^TransmitHashPolicy=layer3+4' '$BN/10-netplan-bond0.netdev' && grep -q '^MTUBytes=9000' '$BN/10-netplan-bond0.netdev'"
check "bond: the address is the bond's, the members have none" sh -c "grep -q '^Address=10.32.0.2/24' '$BN/10-netplan-bond0.network' && ! grep -q '^Address=' '$BN/10-netplan-enp41s0np0.network' && grep -q '^Bond=bond0' '$BN/10-netplan-enp170s0np0.network'"
"$RAILYARD" config hosts --plan "$WORK/bplan/plan.json" --host gpu001 --format nm -o "$WORK/bondnm" 2> /dev/null
bad=$(nm_check "$WORK"/bondnm/gpu001/etc/NetworkManager/system-connections/*.nmconnection)
check "bond: nmcli reads the bond and its two members and keeps every setting" sh -c "test $bad -eq 0 && test \$(ls '$WORK/bondnm/gpu001/etc/NetworkManager/system-connections' | wc -l) -eq 3"
sed -e 's/nic: MCX75310AAS-NEAT/nic: MCX755106AS-HEAT/' -e 's/speed: 400G/speed: 200G/' "$SRC/tests/integration/bond-storage.yaml" > "$WORK/bond-one-card.yaml"
"$RAILYARD" plan "$WORK/bond-one-card.yaml" > "$WORK/one-card.txt" 2>&1
check "bond: both members on one dual-port card is a warning" grep -q "^warning *bond-members-one-card" "$WORK/one-card.txt"
grep -v 'redundancy: leaf-pair' "$SRC/tests/integration/bond-storage.yaml" > "$WORK/bond-no-pair.yaml"
"$RAILYARD" plan "$WORK/bond-no-pair.yaml" > /dev/null 2> "$WORK/no-pair.err"
check "bond: without a leaf pair: exit 2, naming the key and why" sh -c "grep -q 'planes.storage.bond' '$WORK/no-pair.err' && grep -q 'redundancy: leaf-pair' '$WORK/no-pair.err'"

# systemd-networkd files: what netplan itself renders from railyard's netplan form of the same host,
# file for file (comments aside): multi-rail tables and rules, IPoIB, and the bond's .netdev.
# same_as_netplan OURS_DIR NETPLAN_DIR: how many of our files differ from netplan's or are missing.
same_as_netplan() {
  local bad=0 f n
  for f in "$1"/*; do
    n="$2/10-netplan-$(basename "$f" | sed 's/^60-railyard-//')"
    grep -v '^#' "$f" | cmp -s - "$n" || { bad=$((bad + 1)); echo "differs from netplan's: $f" >&2; }
  done
  for n in "$2"/*.network "$2"/*.netdev; do
    [ -e "$n" ] && [ ! -e "$1/60-railyard-$(basename "$n" | sed 's/^10-netplan-//')" ] && bad=$((bad + 1))
  done
  echo "$bad"
}
"$RAILYARD" config hosts --plan "$WORK/plan/plan.json" --format networkd --host dgx001 -o "$WORK/nwd" 2> /dev/null
check "--format networkd: exit 0, a .network per port (10)" test "$(ls "$WORK/nwd/dgx001/etc/systemd/network"/*.network | wc -l)" -eq 10
check "--format networkd: the files netplan generate writes for the same host" test "$(same_as_netplan "$WORK/nwd/dgx001/etc/systemd/network" "$N")" -eq 0
"$RAILYARD" config hosts --plan "$WORK/bplan/plan.json" --format networkd --host gpu001 -o "$WORK/bnwd" 2> /dev/null
check "--format networkd: the bond's .netdev and .network and its members', as netplan writes them" \
  sh -c "test -s '$WORK/bnwd/gpu001/etc/systemd/network/60-railyard-bond0.netdev' && test \$(ls '$WORK/bnwd/gpu001/etc/systemd/network' | wc -l) -eq 4"
check "--format networkd: bond files equal netplan's" test "$(same_as_netplan "$WORK/bnwd/gpu001/etc/systemd/network" "$BN")" -eq 0

# The bond round trip: as written, no finding; active-backup in the file: one per member; and the
# ifcfg form, read back the same way: no finding, and ONBOOT=no on the bond: exactly ifcfg-onboot-no.
BNP="$WORK/bond/gpu001/etc/netplan/60-railyard.yaml"
roundtrip "$WORK/bplan/plan.json" gpu001 bclean "$BNP"
check "bond round trip: the generated bond gives no finding" test "$(jq length "$WORK/rt-bclean.json")" -eq 0
sed 's/mode: 802.3ad/mode: active-backup/' "$BNP" > "$WORK/60-railyard.yaml"
roundtrip "$WORK/bplan/plan.json" gpu001 ab "$WORK/60-railyard.yaml"
check "bond round trip: active-backup gives one finding per member, naming the mode" \
  jq -e 'length == 2 and all(.[]; .rule == "config-differs-from-plan" and .evidence.bond_mode == "active-backup")' "$WORK/rt-ab.json"
"$RAILYARD" config hosts --plan "$WORK/bplan/plan.json" --host gpu001 --format ifcfg -o "$WORK/bifcfg" 2> /dev/null
IFC="$WORK/bifcfg/gpu001/etc/sysconfig/network-scripts"
check "ifcfg: the bond, two members, and nothing else for one bonded plane" test "$(ls "$IFC" | tr '\n' ' ')" = "ifcfg-bond0 ifcfg-enp170s0np0 ifcfg-enp41s0np0 "
roundtrip "$WORK/bplan/plan.json" gpu001 ifcfg "$IFC"/ifcfg-*
check "ifcfg round trip: no finding" test "$(jq length "$WORK/rt-ifcfg.json")" -eq 0
mkdir -p "$WORK/onboot" && cp "$IFC"/ifcfg-* "$WORK/onboot/" && sed -i 's/^ONBOOT=yes/ONBOOT=no/' "$WORK/onboot/ifcfg-bond0"
roundtrip "$WORK/bplan/plan.json" gpu001 onboot "$WORK/onboot"/ifcfg-*
check "ifcfg round trip: ONBOOT=no on the bond gives exactly ifcfg-onboot-no" jq -e 'length == 1 and .[0].rule == "ifcfg-onboot-no"' "$WORK/rt-onboot.json"

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
