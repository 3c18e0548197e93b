#!/usr/bin/env bash
# Hostile and clumsy input (issue "Hostile and broken input"): each numbered defect reproduced as an
# attacker or a careless user would, and the behaviour railyard must show instead.
# Usage: hostile_test.sh RAILYARD SOURCE_DIR
set -u
RAILYARD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=../integration/lib.sh
. "$SRC/tests/integration/lib.sh"
FIXTURES="$SRC/tests/fixtures"
jqtest() { jq -e "$@" > /dev/null; }
SPEC="$SRC/examples/lab-8-node.yaml"

# 1. A symlink planted where the old predictable temporary file went, and one at the output itself:
#    neither victim is written; plan.json ends up a regular file.
mkdir -p "$WORK/out1"
echo "precious" > "$WORK/victim1"; echo "precious" > "$WORK/victim2"
ln -s "$WORK/victim1" "$WORK/out1/plan.json.tmp"
ln -s "$WORK/victim2" "$WORK/out1/plan.json"
"$RAILYARD" plan "$SPEC" -o "$WORK/out1" > /dev/null 2>&1
check "1: plan -o succeeds" test $? -eq 0
check "1: the victim of a planted .tmp symlink is untouched" test "$(cat "$WORK/victim1")" = "precious"
check "1: the victim of a symlink at the output is untouched" test "$(cat "$WORK/victim2")" = "precious"
check "1: plan.json is a regular file now" test -f "$WORK/out1/plan.json" -a ! -L "$WORK/out1/plan.json"
check "1: no temporary file is left" test -z "$(ls -A "$WORK/out1" | grep '^\.')"
ln -s "$WORK/victim1" "$WORK/facts.json.tmp"
"$RAILYARD" collect --from "$WORK/out1" -q -o "$WORK/facts.json" > /dev/null 2>&1
check "1: collect -o does not follow a planted symlink either" test "$(cat "$WORK/victim1")" = "precious"

# 2. A wrong --as records nothing and exits 2; the right import of the same file then works.
"$RAILYARD" ledger --db "$WORK/l2.db" import --as lspci "$FIXTURES/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt" > /dev/null 2> "$WORK/2.err"
check "2: a flint query imported as lspci exits 2" test $? -eq 2
check "2: it says nothing was recorded" grep -q "nothing was recorded" "$WORK/2.err"
"$RAILYARD" ledger --db "$WORK/l2.db" import --as lspci "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > /dev/null
"$RAILYARD" ledger --db "$WORK/l2.db" import --batch B1 "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > "$WORK/2.out"
check "2: the same file with another batch is another import" grep -q "1 assets" "$WORK/2.out"

# 3. A damaged ledger is refused by every verb; read verbs never create a ledger.
cp "$WORK/l2.db" "$WORK/l3.db"
sqlite3 "$WORK/l3.db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
size=$(stat -c %s "$WORK/l3.db")
page=$(sqlite3 "$WORK/l3.db" "PRAGMA page_size")
# Over the header of the page that holds the middle of the file: damage inside a page's unused space is
# no damage, and where the middle falls depends on how many tables the schema has.
printf '\xde\xad\xbe\xef%.0s' $(seq 1 256) | dd of="$WORK/l3.db" bs=1 seek=$((size / 2 / page * page)) conv=notrunc 2> /dev/null
"$RAILYARD" ledger --db "$WORK/l3.db" import "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" > /dev/null 2> "$WORK/3.err"
check "3: import into a damaged ledger exits 3 (the store, not the input)" test $? -eq 3
check "3: and says it is damaged, and how to recover" grep -q "damaged.*recover" "$WORK/3.err"
"$RAILYARD" ledger --db "$WORK/l3.db" list > "$WORK/3.out" 2> /dev/null
check "3: list of a damaged ledger exits 3 and prints no row" test $? -eq 3 -a ! -s "$WORK/3.out"
"$RAILYARD" ledger --db "$WORK/no-such.db" list 2> "$WORK/3b.err"
check "3: list with a mistyped --db exits 2" test $? -eq 2
check "3: and creates no database" test ! -e "$WORK/no-such.db"
chmod 0444 "$WORK/l2.db"
"$RAILYARD" ledger --db "$WORK/l2.db" list > /dev/null 2>&1
check "3: a read-only ledger can be listed" test $? -eq 0
chmod 0644 "$WORK/l2.db"

# 4. Bytes that are not UTF-8: in a serial (the ledger keeps them; JSON output replaces them), in a spec's
#    name (rejected with file:line), in a capture's hostname and VPD (collect warns, writes valid JSON).
printf 'serial,opn\nMT23\xff\xfe0001,MCX75310AAS-NEAT\n' > "$WORK/4.csv"
"$RAILYARD" ledger --db "$WORK/l4.db" import "$WORK/4.csv" > /dev/null 2>&1
check "4: a serial with bad bytes is imported" test $? -eq 0
"$RAILYARD" ledger --db "$WORK/l4.db" check --format json > "$WORK/4.json" 2> "$WORK/4.err"
check "4: ledger check --format json still works" test $? -le 1
check "4: and writes valid JSON" jq -e . "$WORK/4.json" > /dev/null
sed 's/^name: .*/name: "lab\xFF"/' "$SPEC" | sed 's/\\xFF/'"$(printf '\xff')"'/' > "$WORK/4b.yaml"
"$RAILYARD" plan "$WORK/4b.yaml" -o "$WORK/out4" > /dev/null 2> "$WORK/4b.err"
check "4: a spec name that is not UTF-8 exits 2" test $? -eq 2
check "4: naming file:line and the key" grep -q "4b.yaml:$(grep -n '^name:' "$SPEC" | cut -d: -f1):.*name" "$WORK/4b.err"
check "4: and writes no plan" test ! -e "$WORK/out4/plan.json"
mkdir -p "$WORK/cap4"
printf 'gpu\xff\xfe01\n' > "$WORK/cap4/hostname.txt"
cp "$FIXTURES/lspci/cx7-ndr-osfp-gen5-x16-vpd.txt" "$WORK/cap4/lspci-vvv.txt"
"$RAILYARD" collect --from "$WORK/cap4" -o "$WORK/4-facts.json" 2> "$WORK/4c.err"
check "4: collect with a non-UTF-8 hostname exits 0" test $? -eq 0
check "4: writes valid JSON" jq -e .host.hostname "$WORK/4-facts.json" > /dev/null
check "4: and warns about the bytes" grep -q "not UTF-8" "$WORK/4c.err"

# 5. CSV formula injection: a serial that is a formula reaches no CSV as one.
printf 'serial,opn,note\n=cmd|%s /C calc%s!A0,MCX75310AAS-NEAT,@SUM(1+1)\n' "'" "'" > "$WORK/5.csv"
"$RAILYARD" ledger --db "$WORK/l5.db" import "$WORK/5.csv" > /dev/null 2>&1
"$RAILYARD" ledger --db "$WORK/l5.db" list --csv > "$WORK/5-list.csv"
check "5: ledger list --csv neutralises the formula" bash -c "! grep -q '^=' '$WORK/5-list.csv' && grep -q \"'=cmd\" '$WORK/5-list.csv'"
"$RAILYARD" accept --db "$WORK/l5.db" report --csv "$WORK/5-accept.csv" > /dev/null 2>&1
check "5: accept report --csv too" bash -c "! grep -Eq '(^|,)=' '$WORK/5-accept.csv'"
"$RAILYARD" plan "$SPEC" -o "$WORK/out5" > /dev/null 2>&1
mkdir -p "$WORK/lldp5"
printf '{"lldp":{"interface":{"swp1":{"chassis":{"=HYPERLINK(\\"x\\")":{"id":{"type":"mac","value":"00:00:00:00:00:01"}}},"port":{"id":{"type":"ifname","value":"-2+3"}}}}}}\n' > "$WORK/lldp5/compute-leaf-001.json"
"$RAILYARD" verify --plan "$WORK/out5/plan.json" --lldp "$WORK/lldp5" --format csv > "$WORK/5-verify.csv" 2> /dev/null
check "5: verify --format csv too" bash -c "! grep -Eq '(^|,)[=@+-][^0-9]' '$WORK/5-verify.csv'"

# 6. Escape sequences in outside names reach a terminal as text, not as commands.
printf 'serial,opn\nMT\x1b]0;pwned\x07X1,MCX75310AAS-NEAT\n' > "$WORK/6.csv"
"$RAILYARD" ledger --db "$WORK/l6.db" import "$WORK/6.csv" > /dev/null 2>&1
script -qc "'$RAILYARD' ledger --db '$WORK/l6.db' list" /dev/null > "$WORK/6.tty" 2>&1
check "6: on a terminal the ESC is shown as \\x1b" grep -q 'x1b' "$WORK/6.tty"
check "6: and no raw ESC reaches it" bash -c "! grep -q \$'\\x1b]0' '$WORK/6.tty'"

# 7. A receiving list saved by Excel (UTF-8 BOM, CRLF) is read.
printf '\xef\xbb\xbfserial,opn\r\nMT2347J0100Z,MCX75310AAS-NEAT\r\n' > "$WORK/7.csv"
"$RAILYARD" ledger --db "$WORK/l7.db" import "$WORK/7.csv" > "$WORK/7.out" 2>&1
check "7: a BOM and CRLF receiving list imports" grep -q "1 assets" "$WORK/7.out"
check "7: the serial has no CR" bash -c "'$RAILYARD' ledger --db '$WORK/l7.db' show MT2347J0100Z > /dev/null"

# 8. NaN and infinity are no thresholds.
printf 'max_module_temp_c: .nan\n' > "$WORK/8a.yaml"
"$RAILYARD" accept --db "$WORK/l7.db" run --policy "$WORK/8a.yaml" > /dev/null 2> "$WORK/8a.err"
check "8: an acceptance policy with .nan exits 2" test $? -eq 2
check "8: naming the line and key" grep -q "8a.yaml:1:[0-9]*: max_module_temp_c" "$WORK/8a.err"
printf 'module_temp_warn_c: .inf\n' > "$WORK/8b.yaml"
"$RAILYARD" doctor "$WORK/4-facts.json" --policy "$WORK/8b.yaml" > /dev/null 2> "$WORK/8b.err"
check "8: a doctor policy with .inf exits 2" test $? -eq 2

# 9. A key given twice is an error, not a silent first-wins.
cp "$SPEC" "$WORK/9.yaml"; printf 'name: second-name\n' >> "$WORK/9.yaml"
"$RAILYARD" plan "$WORK/9.yaml" > /dev/null 2> "$WORK/9.err"
check "9: a spec with a duplicate key exits 2" test $? -eq 2
check "9: naming both lines" grep -q "appears twice.*first at line" "$WORK/9.err"
printf 'max_effective_ber: 1e-12\nmax_effective_ber: 1e-3\n' > "$WORK/9b.yaml"
"$RAILYARD" accept --db "$WORK/l7.db" run --policy "$WORK/9b.yaml" > /dev/null 2>&1
check "9: an acceptance policy with a duplicate key exits 2" test $? -eq 2
printf 'ethernet_mtu: 9000\nethernet_mtu: 1500\n' > "$WORK/9c.yaml"
"$RAILYARD" doctor "$WORK/4-facts.json" --policy "$WORK/9c.yaml" > /dev/null 2>&1
check "9: a doctor policy with a duplicate key exits 2" test $? -eq 2

# 10. Many hosts sharing one GUID: one finding, not one per host each listing every host.
mkdir -p "$WORK/fleet10"
for i in $(seq 1 300); do
  jq -c --arg h "host$i" '.host.hostname = $h' "$WORK/4-facts.json" >> "$WORK/fleet10/all.ndjson"
done
mkdir -p "$WORK/cap10"; cp "$FIXTURES/flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt" "$WORK/cap10/flint-q-19:00.0.txt"
"$RAILYARD" collect --from "$WORK/cap10" -q > "$WORK/10-one.json"
: > "$WORK/fleet10/all.ndjson"
for i in $(seq 1 300); do jq -c --arg h "host$i" '.host.hostname = $h' "$WORK/10-one.json" >> "$WORK/fleet10/all.ndjson"; done
"$RAILYARD" doctor "$WORK/fleet10/all.ndjson" --format json > "$WORK/10.json" 2> /dev/null
check "10: 300 hosts sharing a GUID give one finding" test "$(jq '[.findings[] | select(.rule == "fleet-duplicate-identity")] | length' "$WORK/10.json")" -eq 1
check "10: which says 300 hosts and caps the list" jqtest '[.findings[] | select(.rule == "fleet-duplicate-identity")][0].message | test("on 300 hosts.*and 280 more")' "$WORK/10.json"

# 11. A huge spec, and extra endpoints past the node cap, are refused at once with a clear error.
head -c $((5 * 1024 * 1024)) /dev/zero | tr '\0' '#' > "$WORK/11.yaml"
"$RAILYARD" plan "$WORK/11.yaml" > /dev/null 2> "$WORK/11.err"
check "11: a 5 MiB spec exits 2" test $? -eq 2
check "11: saying the limit" grep -q "at most" "$WORK/11.err"

# 12. accept report with a bad second path writes neither file.
"$RAILYARD" accept --db "$WORK/l2.db" report --csv "$WORK/12.csv" --html "$WORK/no-such-dir/12.html" > /dev/null 2>&1
check "12: a bad --html path exits 3 (I/O)" test $? -eq 3
check "12: and the CSV was not written either" test ! -e "$WORK/12.csv"

# 13. Burn-in results an attacker or a broken run left: a result symlinked to another file, garbage,
#     a huge line, UTF-16, an escape sequence in a result line; and a burnin-plan.json whose result
#     names climb out of the results directory or whose host names are commands. Every pair is
#     judged or counted missing, nothing is followed out, nothing runs.
"$RAILYARD" plan "$SRC/examples/lab-8-node.yaml" -o "$WORK/bplan" > /dev/null 2>&1
"$RAILYARD" burnin plan --plan "$WORK/bplan/plan.json" --rounds 1 -o "$WORK/b13" 2> /dev/null
check "13: burnin plan on the lab exits 0" test -s "$WORK/b13/burnin-plan.json"
mapfile -t stems < <(jq -r '.rounds[0].pairs[].result' "$WORK/b13/burnin-plan.json")
R="$WORK/b13/results"
for i in "${!stems[@]}"; do mkdir -p "$(dirname "$R/${stems[$i]}")"; done
head -c 4096 /dev/urandom > "$R/${stems[0]}.txt"
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' 'x' > "$R/${stems[1]}.txt"
printf '\xff\xfe#\x00b\x00y\x00t\x00e\x00s\x00' > "$R/${stems[2]}.txt"
printf ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n 65536      5000   1.0   1.0   0.1\n\033]0;pwned\007Couldn'"'"'t connect to \033[31mx\n' > "$R/${stems[3]}.txt"
echo "secret" > "$WORK/13-secret.txt"
ln -s "$WORK/13-secret.txt" "$R/${stems[4]}.txt"
"$RAILYARD" burnin check --plan "$WORK/bplan/plan.json" "$R" > "$WORK/13.out" 2> "$WORK/13.err"
check "13: burnin check over hostile results exits 1 (failures and missing), not a crash" test $? -eq 1
check "13: no escape sequence reaches the terminal" bash -c "! grep -q \$'\033' '$WORK/13.out'"
check "13: the symlinked result is not followed: its target's text appears nowhere" bash -c "! grep -q secret '$WORK/13.out'"
check "13: every pair accounted for (measured + missing = pairs)" \
  bash -c "'$RAILYARD' burnin check --plan '$WORK/bplan/plan.json' '$R' --format json | jq -e '.summary.measured + .summary.missing == .summary.pairs' > /dev/null"
sed 's#"result":"round-000/#"result":"../../../#' "$WORK/b13/burnin-plan.json" > "$WORK/13-escape.json"
"$RAILYARD" burnin check --plan "$WORK/bplan/plan.json" "$R" --burnin "$WORK/13-escape.json" > /dev/null 2> "$WORK/13b.err"
check "13: a burnin-plan.json whose results climb out of the directory exits 2" test $? -eq 2
sed 's#"host":"lab001"#"host":"lab001;touch '"$WORK"'/13-pwned"#' "$WORK/b13/burnin-plan.json" > "$WORK/13-cmd.json"
"$RAILYARD" burnin bisect --plan "$WORK/bplan/plan.json" "$R" --burnin "$WORK/13-cmd.json" -o "$WORK/13-bisect" > /dev/null 2> "$WORK/13c.err"
check "13: a host name that is a command is refused (exit 2), no script written" sh -c "test $? -eq 2 && test ! -e '$WORK/13-bisect' && test ! -e '$WORK/13-pwned'"

# 14. An InfiniBand fabric directory a broken or hostile run left: iblinkinfo cut mid-line with an
#     escape sequence in a node description, ibqueryerrors without its summary and with a GUID that
#     is not hex, perfquery as a symlink to another file. The switches read are written, every
#     problem is a warning with its file, nothing is followed, no escape reaches the terminal.
mkdir -p "$WORK/14"
{
  printf 'Switch: 0x0002c90300000800 MF0;leaf\033[31m01:MQM9790/U1:\n'
  printf '        1081    1[  ] ==( 4X         106.25 Gbps Active/  LinkUp)==>      13    1[  ] "h1 mlx5_0" ( )\n'
  printf '        1081    2[  ] ==( 4X         106.25 Gbps Act'
} > "$WORK/14/iblinkinfo.txt"
printf 'Errors for 0xZZZ "x"\n   GUID 0xZZZ port 1: [SymbolErrorCounter == 9]\n   GUID 0x2c90300000800 port 1: [SymbolErrorCounter == 99999999999999999999999]\n' > "$WORK/14/ibqueryerrors.txt"
echo "secret" > "$WORK/14-secret.txt"
ln -s "$WORK/14-secret.txt" "$WORK/14/perfquery.txt"
"$RAILYARD" collect --switch --from "$WORK/14" > "$WORK/14.out" 2> "$WORK/14.err"
check "14: a damaged fabric directory still gives its switch (exit 0)" test "$(jq -r .hostname "$WORK/14.out" | wc -l)" -eq 1
check "14: the cut line, the bad counters and the missing summary are warnings" \
  sh -c "grep -q 'iblinkinfo.txt:3' '$WORK/14.err' && grep -q 'ibqueryerrors.txt:2' '$WORK/14.err' && grep -q 'cut short' '$WORK/14.err'"
check "14: the symlinked perfquery is not followed, and said" bash -c "! grep -q secret '$WORK/14.out' '$WORK/14.err' && grep -q 'perfquery.txt: a symlink' '$WORK/14.err'"
check "14: no escape sequence reaches the terminal" bash -c "! grep -q \$'\033' '$WORK/14.err'"

# 15. An ESXi capture a broken or hostile run left: the vmnic list cut mid-row with an escape sequence in a
#     description and a 20-digit speed, a VIB list with a NUL byte, a PCI list whose vendor id is not hex, and a
#     Linux lsusb tree 3,000 levels deep beside them. The vmnic read is written, every problem is a warning with
#     its file and line, no escape reaches the terminal.
mkdir -p "$WORK/15"
{
  printf 'Name    PCI Device    Driver  Admin Status  Link Status  Speed  Duplex  MAC Address        MTU   Description\n'
  printf -- '------  ------------  ------  ------------  -----------  -----  ------  -----------------  ----  -----------\n'
  printf 'vmnic0  0000:04:00.0  ixgben  Up            Up           99999999999999999999  Full  00:00:00:00:00:00  1500  Intel \033[31mX550\n'
  printf 'vmnic1  0000:04:00.1  ixg'
} > "$WORK/15/esxcli-network-nic-list.txt"
printf 'Name Version Vendor Acceptance Level Install Date\nixgben 1.0\0x VMW VMwareCertified 2020-01-01\n' > "$WORK/15/esxcli-software-vib-list.txt"
printf '0000:04:00.0\n   Vendor ID: 0xZZZZ\n   Module Name: None\n   Device Class Name: Ethernet controller\n' > "$WORK/15/esxcli-hardware-pci-list.txt"
{
  echo '/:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/1p, 480M'
  for i in $(seq 1 3000); do printf '%*s|__ Port 1: Dev 2, If 0, Class=Hub, Driver=hub/1p, 480M\n' $((4 * i)) ''; done
} > "$WORK/15/lsusb-t.txt"
"$RAILYARD" collect --from "$WORK/15" > "$WORK/15.out" 2> "$WORK/15.err"
check "15: a damaged ESXi capture still gives its host (exit 0, platform esxi, vmnic0)" \
  test "$(jq -r '.host.platform + " " + .netdevs[0].name' "$WORK/15.out")" = "esxi vmnic0"
check "15: the bad speed, the cut row, the bad id and the Linux file are warnings with their lines" \
  sh -c "grep -q 'nic list: line 3: Speed' '$WORK/15.err' && grep -q 'nic list: line 4' '$WORK/15.err' && grep -q 'pci list: line 2' '$WORK/15.err' && grep -q 'lsusb -t: line 1' '$WORK/15.err'"
check "15: no escape sequence reaches the terminal" bash -c "! grep -q \$'\033' '$WORK/15.err'"


# 16. (The payloads call railyard_injected, a command no machine has: harmless should a test go wrong.)
#     What railyard writes runs as root (issue "Everything railyard writes is safe to run as root"): each
#     class of injection seen, one case each (tests/hostile/generators_test.sh tries them at random).
mkdir -p "$WORK/16"
"$RAILYARD" plan "$SRC/examples/arista-roce-pod.yaml" -o "$WORK/16/plan" -q > /dev/null 2>&1
P16="$WORK/16/plan/plan.json"
rm -f "$WORK/16/plan/plan.index"
hostile_plan() { jq -c "$1" "$P16" > "$WORK/16/bad.json"; }
hostile_plan '.devices[0].name = "../../escaped" | .links[0].a.device = "../../escaped"'
"$RAILYARD" config hosts --plan "$WORK/16/bad.json" -o "$WORK/16/hosts" 2> "$WORK/16/a.err"
check "16: a host named ../../escaped: exit 2 naming the file and pointer" \
  sh -c "test $? -eq 2 && grep -q 'bad.json: /devices/0/name: .\.\./\.\./escaped. is not a name' '$WORK/16/a.err'"
check "16: and nothing written, nothing outside" test ! -e "$WORK/16/hosts" -a ! -e "$WORK/escaped"
hostile_plan '.links[0].label = "C1\nIPADDR=6.6.6.6"'
"$RAILYARD" config hosts --plan "$WORK/16/bad.json" --format ifcfg -o "$WORK/16/ifcfg" 2> "$WORK/16/b.err"
check "16: a cable label with a line break: exit 2 naming /links/0/label, nothing written" \
  sh -c "test $? -eq 2 && grep -q '/links/0/label' '$WORK/16/b.err' && test ! -e '$WORK/16/ifcfg'"
hostile_plan '.name = "pod\nExecStartPre=/bin/sh -c railyard_injected"'
"$RAILYARD" config roce --plan "$WORK/16/bad.json" -o "$WORK/16/roce" 2> "$WORK/16/c.err"
check "16: a plan name with a line break (a unit directive): exit 2 naming /name" \
  sh -c "test $? -eq 2 && grep -q 'bad.json: /name: ' '$WORK/16/c.err'"
hostile_plan '.name = "pod $(railyard_injected) `railyard_injected` 100%"'
"$RAILYARD" config roce --plan "$WORK/16/bad.json" --host node001 -o "$WORK/16/roce" 2> /dev/null
check "16: a plan name that is text is written, as comments only: the unit verifies, the script is clean" \
  sh -c "systemd-analyze verify '$WORK/16/roce/node001/etc/systemd/system/railyard-roce-qos.service' 2>&1 | grep -v 'not executable\|No such file' | grep -q . && exit 1; grep -v '^#' '$WORK/16/roce/node001/etc/railyard/roce-qos.sh' | grep -q railyard_injected && exit 1; shellcheck '$WORK/16/roce/node001/etc/railyard/roce-qos.sh'"
# A symlinked host directory in -o is refused, never written through.
mkdir -p "$WORK/16/out/elsewhere"
ln -s "$WORK/16/out/elsewhere" "$WORK/16/out/node001"
"$RAILYARD" config hosts --plan "$P16" --host node001 -o "$WORK/16/out" 2> "$WORK/16/d.err"
check "16: a host directory that is a symlink: refused (exit 3)" sh -c "test $? -eq 3 && grep -q 'is a symlink' '$WORK/16/d.err'"
check "16: and nothing written through it" test -z "$(ls -A "$WORK/16/out/elsewhere")"
# A directory where a file goes is refused before anything moves: no .old directory left behind.
mkdir -p "$WORK/16/out2/node001/etc/netplan/60-railyard.yaml/x"
"$RAILYARD" config hosts --plan "$P16" --host node001 -o "$WORK/16/out2" > /dev/null 2>&1
check "16: a directory where a file goes: exit 3, the directory kept, no .old left" \
  sh -c "test $? -eq 3 && test -d '$WORK/16/out2/node001/etc/netplan/60-railyard.yaml/x' && test -z \"\$(find '$WORK/16/out2' -name '*.old')\""
# rollout.json: a wave name that walks out of the state dir; a device that is a command.
(cd "$SRC" && examples/rollout/fleet.sh "$(dirname "$RAILYARD")" 2> /dev/null || examples/rollout/fleet.sh build) > "$WORK/16/fleet.ndjson"
"$RAILYARD" plan "$SRC/examples/superpod-h100-4su.yaml" -o "$WORK/16/sp" -q > /dev/null 2>&1
"$RAILYARD" rollout plan --facts "$WORK/16/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --plan "$WORK/16/sp/plan.json" \
  -o "$WORK/16/state" -q > /dev/null 2>&1
cp "$WORK/16/state/rollout.json" "$WORK/16/rollout.good"
jq '.waves[0].name = "../../../escaped"' "$WORK/16/rollout.good" > "$WORK/16/state/rollout.json"
"$RAILYARD" rollout approve --state "$WORK/16/state" --wave 0 --by bob 2> "$WORK/16/e.err"
check "16: a wave name that leaves the state dir: exit 2 naming /waves/0/name, no approval anywhere" \
  sh -c "test $? -eq 2 && grep -q 'rollout.json: /waves/0/name' '$WORK/16/e.err' && test ! -e '$WORK/escaped.json' -a ! -d '$WORK/16/state/approvals'"
jq '.waves[0].devices[0].device = "$(railyard_injected)"' "$WORK/16/rollout.good" > "$WORK/16/state/rollout.json"
"$RAILYARD" rollout check --state "$WORK/16/state" --wave 0 --facts "$WORK/16/fleet.ndjson" > /dev/null 2> "$WORK/16/f.err"
check "16: a device that is a command: exit 2 naming /waves/0/devices/0/device, no rollback script" \
  sh -c "test $? -eq 2 && grep -q '/waves/0/devices/0/device' '$WORK/16/f.err' && test -z \"\$(ls '$WORK/16/state' | grep rollback)\""
cp "$WORK/16/rollout.good" "$WORK/16/state/rollout.json"
"$RAILYARD" rollout approve --state "$WORK/16/state" --wave 0 --by "$(printf 'bob\n0     test  done')" 2> "$WORK/16/g.err"
check "16: --by with a line break (a forged status line): refused" test $? -eq 2
jq -c '.firmware |= with_entries(.value.fw_version = "28.39.1002\"$(railyard_injected)\"")' <(head -1 "$WORK/16/fleet.ndjson") > "$WORK/16/h.ndjson"
tail -n +2 "$WORK/16/fleet.ndjson" >> "$WORK/16/h.ndjson"
"$RAILYARD" rollout plan --facts "$WORK/16/h.ndjson" --target "$SRC/examples/rollout/target.yaml" --plan "$WORK/16/sp/plan.json" \
  -o "$WORK/16/state-h" -q > /dev/null 2>&1
check "16: a firmware version from facts that is a command: the device held back (unsafe-name), in no script" \
  sh -c "jq -e '[.skipped[] | select(.rule == \"unsafe-name\")] | length > 0' '$WORK/16/state-h/rollout.json' > /dev/null && ! grep -l railyard_injected '$WORK/16/state-h/'*.sh"
printf 'switch,firmware,address\ncompute-spine-01,31.2012.1000,fd00::1\n' > "$WORK/16/switches.csv"
"$RAILYARD" rollout plan --facts "$WORK/16/fleet.ndjson" --target "$SRC/examples/rollout/target.yaml" --plan "$WORK/16/sp/plan.json" \
  --switches "$WORK/16/switches.csv" -o "$WORK/16/state-v6" -q > /dev/null 2>&1
check "16: an IPv6 switch address: scp gets it in brackets, ssh bare" \
  sh -c "grep -q 'case \$addr in \*:\*) target=\"\[\$addr\]\"' '$WORK/16/state-v6/'wave-*-switch-*.sh"


# 17. Nothing observed is nothing checked: each of these exits 2 saying so, never 0 with a clean report.
"$RAILYARD" verify --plan "$P16" > /dev/null 2> "$WORK/17a.err"
check "17: verify with no capture at all: exit 2, nothing to verify" sh -c "test $? -eq 2 && grep -q 'nothing to verify' '$WORK/17a.err'"
: > "$WORK/17-empty.ndjson"
"$RAILYARD" doctor "$WORK/17-empty.ndjson" > /dev/null 2> "$WORK/17b.err"
check "17: doctor on an empty facts file: exit 2, nothing examined" sh -c "test $? -eq 2 && grep -q 'nothing was examined' '$WORK/17b.err'"
mkdir -p "$WORK/17-empty-dir"
"$RAILYARD" collect --from "$WORK/17-empty-dir" -o "$WORK/17.json" 2> "$WORK/17c.err"
check "17: collect from an empty directory: exit 2, no document written" sh -c "test $? -eq 2 && test ! -e '$WORK/17.json'"
# 300 MiB of zeros (an endless stream, bounded here so that a regression cannot eat the machine).
head -c 300M /dev/zero | timeout 120 "$RAILYARD" doctor - > /dev/null 2> "$WORK/17d.err"
check "17: doctor on an endless stream: exit 2 at the document size limit, not out of memory" \
  sh -c "test ${PIPESTATUS[1]} -eq 2 && grep -q 'more than 256 MiB' '$WORK/17d.err'"

finish
