#!/usr/bin/env bash
# Builds the example fleet for `railyard rollout plan`: HostFacts (NDJSON) of dgx001..dgx127, the
# nodes of examples/superpod-h100-4su.yaml, from real flint/lspci samples (tests/fixtures), with the
# cases a rollout has to catch: a second PSID on every eighth host, a card with an image pending
# activation (flashed 28.42.1000, running 28.39.1002), one below the direct-upgrade floor, one already at
# target, one host on an old driver.
# Usage: examples/rollout/fleet.sh BUILD > fleet.ndjson
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
F="$ROOT/tests/fixtures"
command -v jq > /dev/null || { echo "fleet.sh needs jq" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/cap"
cp "$F/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" "$WORK/cap/lspci-vvv.txt"
cp "$F/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt" "$WORK/cap/flint-q-19:00.0.txt"
cp "$F/flint/cx6lx-mcx631102as-mstflint-q-secure-fw.txt" "$WORK/cap/flint-q-3b:00.0.txt"
echo base > "$WORK/cap/hostname.txt"
"$ROOT/$BUILD/railyard" collect -q --from "$WORK/cap" > "$WORK/base.json"
jq -c '. as $b | range(1; 128) as $i | $b
  | .host.hostname = ("dgx" + ($i | tostring | ("000" + .)[-3:]))
  | .host.ofed = "MLNX_OFED_LINUX-24.10-1.1.4.0"
  | if $i % 8 != 0 then .firmware |= del(.["3b:00.0"]) else . end
  | if $i == 5 then .firmware["19:00.0"].running_fw_version = "28.39.1002"
    elif $i == 9 then .firmware["19:00.0"].fw_version = "28.35.2000"
    elif $i == 17 then .firmware["19:00.0"].fw_version = "28.43.2026"
    elif $i == 33 then .host.ofed = "MLNX_OFED_LINUX-5.8-1.0.1.1"
    else . end' "$WORK/base.json"
