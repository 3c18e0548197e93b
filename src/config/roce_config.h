// `railyard config roce`: per host, the RoCE lossless class of its planes (spec `qos:`, defaults in
// model/fabric.h RoceQos) set on every RoCE port by the real tools, as a script and a systemd unit
// that runs it at every boot (mlnx_qos settings do not survive a reboot or a driver reload).
//
// The script, per port: trust DSCP and PFC on the lossless priority only (`mlnx_qos -i IF --trust
// dscp`, `--pfc 0,0,0,1,0,0,0,0`), ECN on that priority as notification and reaction point
// (`/sys/class/net/IF/ecn/roce_np|roce_rp/enable/P`), the CNP's DSCP and priority
// (`ecn/roce_np/cnp_dscp`, `cnp_802p_prio`), the RoCE ToS for rdma_cm (`cma_roce_tos -d DEV -t TOS`)
// and for verbs users such as NCCL (MLNX_OFED `/sys/class/infiniband/DEV/tc/1/traffic_class`).
// Each setting is read first and written only where it differs; what cannot be set (an inbox driver
// without the ECN sysfs, a missing tool) is named and the script exits 1: nothing unset passes as set.
#pragma once

#include <string>
#include <vector>

#include "config/host_config.h"

namespace railyard {

// The script (/etc/railyard/roce-qos.sh) and unit (/etc/systemd/system/railyard-roce-qos.service) of
// a host; none when it has no RoCE port.
std::vector<HostFile> RoceFiles(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan_name);

}  // namespace railyard
