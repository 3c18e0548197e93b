#!/usr/bin/env bash
# Runs every parser's fuzz target for SECONDS each, seeded with the real samples of its tool
# (../shared/fixtures when present, and the project's own captures).
set -euo pipefail
BUILD=$1
SECONDS_EACH=${2:-8}
SRC=$(cd "$(dirname "$0")/.." && pwd)
SHARED="$SRC/../shared/fixtures"
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
seed ibnetdiscover "$SHARED/ibnetdiscover"
seed lldpctl "$SHARED/lldpctl" "$SRC/tests/fixtures/lldpd"
seed switch_lldp "$SHARED/switch-lldp" "$SRC/tests/fixtures/sonic" "$SRC/tests/fixtures/nvue"
seed mlxlink "$SHARED/mlxlink"
seed ibstat "$SHARED/ibstat" "$SHARED/ibdev2netdev"
seed dmesg "$SHARED/dmesg"
seed netconfig "$SHARED/nmcli" "$SHARED/ifcfg" "$SRC/tests/fixtures/netplan"
seed module "$SHARED/ethtool"
mkdir -p "$BUILD/corpus/vpd" && printf '\x82\x03\x00abc\x90\x06\x00RV\x03\x00\x00\x00\x78' > "$BUILD/corpus/vpd/seed"
seed qos "$SRC/tests/fixtures/mlnx_qos"
seed iproute "$SHARED/ip-link" "$SRC/tests/fixtures/iproute2"
seed mellanox_tools "$SHARED/mlxfwmanager" "$SHARED/mst" "$SHARED/ibstatus" "$SHARED/iblinkinfo"
for parser in lspci flint ethtool bonding ibnetdiscover lldpctl switch_lldp mlxlink ibstat dmesg netconfig module vpd mellanox_tools qos iproute; do
  echo "fuzz: $parser for ${SECONDS_EACH}s"
  "$BUILD/${parser}_fuzz" -max_total_time="$SECONDS_EACH" -max_len=16384 -timeout=10 \
    "$BUILD/corpus/$parser" 2>&1 | tail -n 2
done
