#!/usr/bin/env bash
# Benchmark of record for `railyard doctor` (issue "Doctor"): 10,000 hosts' HostFacts as one
# NDJSON stream, made from one capture of real samples (tests/fixtures) with a distinct
# identity per host (hostname, MACs, GUID, serial) and a known set of injected faults:
#   every 1000th host + 1: firmware one release behind  -> fleet-firmware-drift
#                    + 2: PCIe trained at x8            -> pcie-link-downgraded
#                    + 3: effective BER 1e-9            -> ber-high
#                    + 4: VLAN MTU above its parent     -> mtu-inconsistent and fleet-mtu-drift
# Reports wall time and peak RSS and checks that exactly the injected faults are found.
# Target: <= 5 s on the 2-core reference machine, memory bounded.
set -euo pipefail
BUILD=${1:-build}
HOSTS=${HOSTS:-10000}
cd "$(dirname "$0")/.."
SHARED=tests/fixtures
command -v jq > /dev/null || { echo "SKIP: needs jq"; exit 0; }
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "work: $WORK" >&2 || trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/cap"
cp "$SHARED/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" "$WORK/cap/lspci-vvv.txt"
cp "$SHARED/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt" "$WORK/cap/flint-q-19:00.0.txt"
cp "$SHARED/mlxlink/cx6dx-eth-100g-rs528-no-issue.txt" "$WORK/cap/mlxlink-mlx5_0.txt"
cp "$SHARED/ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt" "$WORK/cap/ibstat.txt"
cp "$SHARED/ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt" "$WORK/cap/ip-d-link.txt"
cp "$SHARED/dmesg/cx5-arm64-probe-ok-slot-power-pcie-bw-truncated.txt" "$WORK/cap/dmesg.txt"
cp tests/fixtures/mlnx_qos/cx5-os-controlled-dscp-pfc3-vendor-tsa.txt "$WORK/cap/mlnx_qos-enp59s0f0.txt"
echo base > "$WORK/cap/hostname.txt"
"./$BUILD/railyard" collect --from "$WORK/cap" > "$WORK/base.json"
jq -c --argjson n "$HOSTS" '. as $b | range(0; $n) as $i | $b
  | .host.hostname = ("gpu" + ($i | tostring))
  | .firmware["19:00.0"].base_guid = ("e09d7303" + ($i + 1048576 | tostring))
  | .pci[0].vpd.SN = ("MT2419X" + ($i + 100000 | tostring))
  | .netdevs = [.netdevs[] | .mac = ("02:00:" + ($i | tostring | ("00000000" + .)[-8:] | [.[0:2], .[2:4], .[4:6], .[6:8]] | join(":")))]
  | if $i % 1000 == 1 then .firmware["19:00.0"].fw_version = "28.39.1002"
    elif $i % 1000 == 2 then .pci[0].link_status.width = 8
    elif $i % 1000 == 3 then .links.mlx5_0.effective_ber = 1e-9
    elif $i % 1000 == 4 then .netdevs = [.netdevs[] | if .name == "bond1.4003" then .mtu = 9216 else . end]
    else . end' "$WORK/base.json" > "$WORK/fleet.ndjson"
mb=$(du -m "$WORK/fleet.ndjson" | cut -f1)
best=""
for i in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/railyard" doctor "$WORK/fleet.ndjson" --format json \
    > "$WORK/findings.json" 2> "$WORK/doctor.err" || true
  read -r wall rss < <(tail -n 1 "$WORK/time")
  if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_rss=$rss; fi
done
echo "railyard doctor: ${best} s wall (best of 3), peak RSS $((best_rss / 1024)) MiB; $HOSTS hosts, ${mb} MB of NDJSON"
# Side by side: simdjson parsing the same file and doing nothing else (bench/raw_ndjson_parse.cc), the
# floor for any reader of it; and jq, what a user would reach for to pull one field from every host.
raw=""
for i in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$WORK/time" "./$BUILD/raw_ndjson_parse" "$WORK/fleet.ndjson" > /dev/null
  read -r wall rss < <(tail -n 1 "$WORK/time")
  if [ -z "$raw" ] || awk "BEGIN{exit !($wall < $raw)}"; then raw=$wall; raw_rss=$rss; fi
done
/usr/bin/time -f "%e" -o "$WORK/time" jq -r '.host.hostname' "$WORK/fleet.ndjson" > /dev/null
jq_wall=$(tail -n 1 "$WORK/time")
echo "  simdjson parse alone: ${raw} s (peak RSS $((raw_rss / 1024)) MiB: the whole file in memory); doctor is $(awk "BEGIN{printf \"%.1f\", $best / ($raw > 0 ? $raw : 0.01)}")x that (target <= 2x)"
echo "  jq -r .host.hostname over the same file: ${jq_wall} s"
want=$((HOSTS / 1000))
# Faults are warnings and errors; info findings describe the real sample's own setup (its bond hashes on layer2),
# once per host, and are counted apart.
got=$(jq -c '[.findings[] | select(.severity != "info") | .rule] | group_by(.) | map({(.[0]): length}) | add' "$WORK/findings.json")
info=$(jq '[.findings[] | select(.severity == "info")] | length' "$WORK/findings.json")
echo "  info findings (not faults): $info"
echo "  findings by rule: $got (injected: $want each of fleet-firmware-drift, pcie-link-downgraded, ber-high, mtu-inconsistent, fleet-mtu-drift)"
expect=$(jq -cn --argjson w "$want" '{"ber-high": $w, "fleet-firmware-drift": $w, "fleet-mtu-drift": $w, "mtu-inconsistent": $w, "pcie-link-downgraded": $w}')
[ "$got" = "$expect" ] && echo "  exactly the injected faults were found" || { echo "  MISMATCH with the injected faults"; exit 1; }
