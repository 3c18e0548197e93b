#!/usr/bin/env bash
# Runs every parser's fuzz target for SECONDS each, seeded with the real samples of its tool
# (tests/fixtures).
set -euo pipefail
BUILD=$1
SECONDS_EACH=${2:-8}
SRC=$(cd "$(dirname "$0")/.." && pwd)
SHARED="$SRC/tests/fixtures"
seed() {  # seed PARSER DIRS...
  local corpus="$BUILD/corpus/$1"
  mkdir -p "$corpus"
  shift
  for d in "$@"; do [ -d "$d" ] && cp "$d"/* "$corpus/" 2> /dev/null || true; done
}
seed lspci "$SHARED/lspci"
seed flint "$SHARED/flint"
seed ethtool "$SHARED/ethtool"
seed bonding "$SHARED/bonding"
seed ibnetdiscover "$SHARED/ibnetdiscover" "$SRC/tests/golden/lab-8-node"
seed lldpctl "$SHARED/lldpctl" "$SRC/tests/fixtures/lldpd"
seed switch_lldp "$SHARED/switch-lldp" "$SRC/tests/fixtures/sonic" "$SRC/tests/fixtures/nvue" "$SRC/tests/fixtures/switch/eos" \
  "$SRC/tests/fixtures/switch/sonic" "$SRC/tests/fixtures/switch/nvue" "$SRC/tests/fixtures/switch-interfaces" "$SRC/tests/fixtures/switch-transceiver"
seed mlxlink "$SHARED/mlxlink"
seed ib_fabric "$SRC/tests/fixtures/switch/ib" "$SHARED/iblinkinfo" "$SHARED/perfquery"
seed ibstat "$SHARED/ibstat" "$SHARED/ibdev2netdev" "$SHARED/rdma-link"
seed dmesg "$SHARED/dmesg" "$SHARED/dmesg/other-nics"
seed other_nics "$SHARED/lsusb" "$SHARED/esxi" "$SHARED/rdma-other" "$SHARED/dmi" "$SHARED/os-release"
seed netconfig "$SHARED/nmcli" "$SHARED/ifcfg" "$SRC/tests/fixtures/netplan"
seed module "$SHARED/ethtool"
mkdir -p "$BUILD/corpus/vpd" && printf '\x82\x03\x00abc\x90\x06\x00RV\x03\x00\x00\x00\x78' > "$BUILD/corpus/vpd/seed" && cp "$SHARED"/mstvpd/* "$BUILD/corpus/vpd/"
seed qos "$SRC/tests/fixtures/mlnx_qos"
seed iproute "$SHARED/ip-link" "$SRC/tests/fixtures/iproute2"
seed burnin "$SRC/tests/fixtures/burnin/perftest" "$SRC/tests/fixtures/burnin/nccl-tests"
seed mellanox_tools "$SHARED/mlxfwmanager" "$SHARED/mst" "$SHARED/ibstatus" "$SHARED/iblinkinfo" "$SHARED/flint" "$SHARED/devlink"
# The doctor over hostile facts: seeded with facts collected from a capture of real samples.
mkdir -p "$BUILD/corpus/facts" "$BUILD/facts-capture"
if [ -d "$SHARED" ]; then
  cp "$SHARED/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" "$BUILD/facts-capture/lspci-vvv.txt"
  cp "$SHARED/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt" "$BUILD/facts-capture/flint-q-19:00.0.txt"
  cp "$SHARED/mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt" "$BUILD/facts-capture/mlxlink-mlx5_0.txt"
  cp "$SHARED/ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt" "$BUILD/facts-capture/ibstat.txt"
  cp "$SHARED/ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt" "$BUILD/facts-capture/ip-d-link.txt"
  cp "$SHARED/bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt" "$BUILD/facts-capture/bonding-bond0.txt"
  cp "$SRC/tests/fixtures/mlnx_qos/cx5-os-controlled-dscp-pfc3-vendor-tsa.txt" "$BUILD/facts-capture/mlnx_qos-enp59s0f0.txt"
fi
"$BUILD/railyard" collect --from "$BUILD/facts-capture" -o "$BUILD/corpus/facts/seed.json"
echo "fuzz: facts (doctor rules) for ${SECONDS_EACH}s"
"$BUILD/facts_fuzz" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 -dict="$SRC/fuzz/json.dict" \
  "$BUILD/corpus/facts" 2>&1 | tail -n 2
# Receiving lists and acceptance policies (first byte even: CSV; odd: policy YAML).
mkdir -p "$BUILD/corpus/ledger"
printf '\x00serial,opn,kind,batch,po,location,note\nMT2347J0100T,MCX75310AAS-NEAT,nic,B1,PO-1,gpu001 19:00.0,"a, note"\nMT2019VS04757,MCP7Y00-N001,,B1,PO-1,,\n' \
  > "$BUILD/corpus/ledger/receiving"
printf '\x01firmware_baseline: {ConnectX-7: 28.42.1000, MT_0000000838: 28.43.1014}\nmax_effective_ber: 1e-12\nmin_ber_window_min: 125\n' \
  > "$BUILD/corpus/ledger/policy"
echo "fuzz: ledger (receiving lists, acceptance policy) for ${SECONDS_EACH}s"
"$BUILD/ledger_fuzz" -max_total_time="$SECONDS_EACH" -max_len=16384 -timeout=10 "$BUILD/corpus/ledger" 2>&1 | tail -n 2
# Every capture slot's parser through BuildHostFacts and the host rules (the slot is the first byte):
# every real sample, each seeded into a different slot; the fuzzer moves them between slots.
mkdir -p "$BUILD/corpus/capture"
i=0
while IFS= read -r -d '' f; do
  printf "\\$(printf '%03o' $((i % 256)))" > "$BUILD/corpus/capture/seed-$i"
  head -c 16383 "$f" >> "$BUILD/corpus/capture/seed-$i"
  i=$((i + 1))
done < <(find "$SHARED" -type f ! -name '*.md' -print0 | sort -z)
echo "fuzz: capture slots (BuildHostFacts, host rules) for ${SECONDS_EACH}s"
"$BUILD/capture_fuzz" -max_total_time="$SECONDS_EACH" -max_len=16384 -timeout=10 "$BUILD/corpus/capture" 2>&1 | tail -n 2
parsers=$(RAILYARD_FUZZ_PARSER=list "$BUILD/parser_fuzz")  # the binary's own list
[ -n "$parsers" ] || { echo "fuzz: parser_fuzz listed no parsers" >&2; exit 1; }
for parser in $parsers; do
  echo "fuzz: $parser for ${SECONDS_EACH}s"
  RAILYARD_FUZZ_PARSER=$parser "$BUILD/parser_fuzz" -max_total_time="$SECONDS_EACH" -max_len=16384 -timeout=10 \
    "$BUILD/corpus/$parser" 2>&1 | tail -n 2
done
