#include "config/roce_config.h"

#include <fmt/format.h>

#include "util/config_emit.h"
#include "util/shell_emit.h"

namespace railyard {
namespace {

const char* kScriptHead = R"SH(#!/usr/bin/env bash
# railyard config roce: {host} from plan {plan}. The RoCE lossless class on each RoCE port; run at
# boot by railyard-roce-qos.service (mlnx_qos settings do not survive a reboot or a driver reload).
# Idempotent: every setting is read first and written only where it differs. Exit 1 names what could
# not be set. SYS (default /sys) is the sysfs root.
set -uo pipefail
SYS=${{SYS:-/sys}}
status=0
say() {{ echo "railyard-roce-qos: $*"; }}
bad() {{ echo "railyard-roce-qos: $*" >&2; status=1; }}
# set_file FILE VALUE: write VALUE where FILE holds another.
set_file() {{
  [ -e "$1" ] || return 2
  [ "$(cat "$1" 2> /dev/null)" = "$2" ] && return 0
  echo "$2" > "$1" 2> /dev/null || return 1
  say "$1 = $2"
}}
# port IF PRIORITY DSCP TOS CNP_DSCP CNP_PRIORITY
port() {{
  local ifc=$1 prio=$2 dscp=$3 tos=$4 cnp_dscp=$5 cnp_prio=$6 q want dev d i
  [ -e "$SYS/class/net/$ifc" ] || {{ bad "$ifc: no such interface"; return; }}
  q=$(mlnx_qos -i "$ifc" 2> /dev/null) || {{ bad "$ifc: mlnx_qos cannot read it (is mlnx-tools installed?)"; return; }}
  if ! grep -q '^Priority trust state: dscp' <<< "$q"; then
    if mlnx_qos -i "$ifc" --trust dscp > /dev/null; then say "$ifc: trust dscp"; else bad "$ifc: mlnx_qos --trust dscp failed"; fi
  fi
  # The plane's DSCP must land on the lossless priority: the NIC's default map puts DSCP d on
  # priority d/8, which is the class only for the default DSCP 26 on priority 3.
  if ! awk -v p="prio:$prio" '$1 == p {{ print $2 }}' <<< "$q" | grep -Eq "[:,]0*$dscp(,|$)"; then
    if mlnx_qos -i "$ifc" --dscp2prio "set,$dscp,$prio" > /dev/null; then
      say "$ifc: DSCP $dscp on priority $prio"
    else
      bad "$ifc: mlnx_qos --dscp2prio set,$dscp,$prio failed"
    fi
  fi
  want=""
  for i in 0 1 2 3 4 5 6 7; do
    if [ "$i" -eq "$prio" ]; then want+="1,"; else want+="0,"; fi
  done
  want=${{want%,}}
  if [ "$(awk '$1 == "enabled" {{ out = $2; for (i = 3; i <= 9; i++) out = out "," $i; print out; exit }}' <<< "$q")" != "$want" ]; then
    if mlnx_qos -i "$ifc" --pfc "$want" > /dev/null; then say "$ifc: PFC $want"; else bad "$ifc: mlnx_qos --pfc $want failed"; fi
  fi
  if grep -q '^DCBX mode: Firmware controlled' <<< "$q"; then
    say "$ifc: DCBX is firmware controlled: a willing NIC may take the switch's PFC settings instead"
  fi
  for role in roce_np roce_rp; do
    set_file "$SYS/class/net/$ifc/ecn/$role/enable/$prio" 1
    case $? in 1) bad "$ifc: cannot enable ECN ($role) on priority $prio" ;;
               2) bad "$ifc: no $SYS/class/net/$ifc/ecn (an inbox driver: set ECN with the vendor's tools or MLNX_OFED)" ;; esac
  done
  set_file "$SYS/class/net/$ifc/ecn/roce_np/cnp_dscp" "$cnp_dscp"; [ $? -eq 1 ] && bad "$ifc: cannot set the CNP DSCP"
  set_file "$SYS/class/net/$ifc/ecn/roce_np/cnp_802p_prio" "$cnp_prio"; [ $? -eq 1 ] && bad "$ifc: cannot set the CNP priority"
  dev=""
  for d in "$SYS/class/net/$ifc/device/infiniband"/*; do
    if [ -e "$d" ]; then dev=${{d##*/}}; break; fi
  done
  [ -n "$dev" ] || {{ bad "$ifc: no RDMA device behind it"; return; }}
  if [ "$(cat "$SYS/kernel/config/rdma_cm/$dev/ports/1/default_roce_tos" 2> /dev/null)" != "$tos" ]; then
    if cma_roce_tos -d "$dev" -t "$tos" > /dev/null 2>&1; then say "$dev: rdma_cm ToS $tos"; else bad "$dev: cma_roce_tos -d $dev -t $tos failed"; fi
  fi
  set_file "$SYS/class/infiniband/$dev/tc/1/traffic_class" "$tos"
  [ $? -eq 1 ] && bad "$dev: cannot set the verbs traffic class $tos"
}}
)SH";

}  // namespace

std::vector<HostFile> RoceFiles(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan_name) {
  std::string body;
  for (const HostPortConfig& p : ports) {
    if (p.kind != "roce") continue;
    body += fmt::format("# {}\nport {} {} {} {} {} {}\n",
                        CommentText(fmt::format("{} plane, {} -> {} {}: priority {}, DSCP {} (ToS {}), CNP DSCP {} priority {}",
                                                p.plane, p.port, p.peer_device, p.peer_port, p.qos.priority, p.qos.dscp,
                                                p.qos.tos(), p.qos.cnp_dscp, p.qos.cnp_priority)),
                        ShellWord(p.netdev), p.qos.priority, p.qos.dscp, p.qos.tos(), p.qos.cnp_dscp, p.qos.cnp_priority);
  }
  if (body.empty()) return {};
  std::string script =
      fmt::format(fmt::runtime(kScriptHead), fmt::arg("host", CommentText(host)), fmt::arg("plan", CommentText(plan_name))) +
      body + "exit $status\n";
  std::string unit = fmt::format(
      "# {}\n[Unit]\nDescription=RoCE lossless class of plan {} (railyard config roce)\n"
      "After=network-pre.target openibd.service\nBefore=network.target\n\n[Service]\nType=oneshot\n"
      "ExecStart=/etc/railyard/roce-qos.sh\nRemainAfterExit=yes\n\n[Install]\nWantedBy=multi-user.target\n",
      CommentText(fmt::format("railyard config roce: {} from plan {}", host, plan_name)),
      UnitValue("Description", plan_name));  // what `systemctl status` shows: % and \ escaped
  return {{"etc/railyard/roce-qos.sh", 0755, std::move(script)},
          {"etc/systemd/system/railyard-roce-qos.service", 0644, std::move(unit)}};
}

}  // namespace railyard
