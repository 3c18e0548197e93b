// `railyard collect`: gathering a host's facts. Gathering (sysfs, procfs, tools, or a capture
// directory) fills CollectInputs; BuildHostFacts interprets them. The same interpretation
// serves a live host and a directory of saved outputs sent from the field.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "facts/host_facts.h"
#include "parse/iproute.h"

namespace railyard {

// One network interface as sysfs (live) or `ip -j -d link` (captured) describes it.
struct NetdevSnapshot {
  std::string name;
  std::string kind;  // physical | bond | bridge | vlan | veth | loopback | other
  uint32_t mtu = 0;
  std::string operstate;
  std::optional<bool> carrier;
  std::string mac;
  uint32_t speed_mbps = 0;
  std::string duplex;
  bool promiscuous = false;
  std::string master;
  std::string pci_bdf;
  std::string lower;  // the device a VLAN / macvlan / veth sits on ("bond1" of bond1.4003@bond1)
  int vlan_id = -1;
  int tx_queues = 0;
  int rx_queues = 0;
  std::vector<std::string> addresses;  // "10.0.0.5/24", "fd00::5/64"
  std::string usb_device;              // a USB adapter's device ("2-1"), from sysfs
  double usb_speed_mbps = 0;           // its sysfs `speed`
  std::string usb_id;                  // its sysfs idVendor:idProduct
};

struct CollectInputs {
  std::string hostname;
  std::string kernel;
  std::string ofed;
  std::vector<NetdevSnapshot> netdevs;
  std::optional<std::string> lspci;                   // lspci -vvv
  std::map<std::string, std::string> flint;           // PCI address -> flint/mstflint q
  std::map<std::string, std::string> ethtool;         // interface -> ethtool IF
  std::map<std::string, std::string> ethtool_info;    // interface -> ethtool -i IF
  std::map<std::string, std::string> bonding;         // bond -> /proc/net/bonding/BOND
  std::map<std::string, BondStatus> ip_bonds;         // bonds as `ip -d link` describes them (where no bonding file is)
  std::optional<std::string> ibstat;                  // ibstat
  std::optional<std::string> ibdev2netdev;            // ibdev2netdev [-v]
  std::optional<std::string> rdma_link;               // rdma link show (iproute2): RDMA ports where ibstat is missing
  std::map<std::string, std::string> mlxlink;         // RDMA device -> mlxlink -d DEV [-c -m]
  std::optional<std::string> dmesg;                   // dmesg (the kernel ring buffer)
  std::optional<std::string> nmcli;                   // nmcli -t device status, or nmcli device show
  std::map<std::string, std::string> ifcfg;           // ifcfg-<name> -> its text
  std::map<std::string, std::string> netplan;         // file name -> its YAML
  std::optional<std::string> mst_status;              // mst status -v
  std::optional<std::string> mlxfwmanager;            // mlxfwmanager --query (or mlxup; text or XML)
  std::optional<std::string> devlink;                 // devlink dev info
  std::optional<std::string> lldpctl;                 // lldpctl -f json (the host's own LLDP neighbours)
  std::optional<std::string> ibstatus;                // ibstatus: RDMA ports where ibstat is missing
  std::map<std::string, std::string> ethtool_module;  // interface -> ethtool -m IF
  std::map<std::string, std::string> ethtool_stats;   // interface -> ethtool -S IF
  std::map<std::string, std::string> vpd;             // PCI address -> raw bytes of sysfs vpd
  std::map<std::string, std::string> mstvpd;          // PCI address -> mstvpd/mlxvpd text
  std::map<std::string, std::string> mlnx_qos;        // interface -> mlnx_qos -i IF
  std::map<std::string, std::string> ecn;             // interface -> "PATH:VALUE" lines of its ecn/*/enable/N
  std::optional<std::string> cmdline;                 // /proc/cmdline
  std::optional<std::string> dmidecode;               // dmidecode (or `grep . /sys/class/dmi/id/*`)
  std::optional<std::string> os_release;              // /etc/os-release
  std::optional<std::string> lsusb;                   // lsusb -t (and/or plain lsusb)
  std::optional<std::string> ibv_devinfo;             // ibv_devinfo [-v]: RDMA ports of any vendor where ibstat is missing
  // VMware ESXi hosts (a capture made with esxcli; no Linux tool output then):
  std::optional<std::string> esxcli_nic_list;         // esxcli network nic list
  std::map<std::string, std::string> esxcli_nic_get;  // vmnic -> esxcli network nic get -n vmnicN
  std::optional<std::string> esxcli_vib_list;         // esxcli software vib list
  std::optional<std::string> esxcli_pci_list;         // esxcli hardware pci list
  std::optional<std::string> vmware_version;          // vmware -vl
  std::vector<SourceStatus> sources;                  // what was read or missing, and why
};

HostFacts BuildHostFacts(const CollectInputs& inputs);

// One interface of `ip link` (text or JSON) as a snapshot; operstate lowercased, carrier from LOWER_UP.
NetdevSnapshot NetdevFromIpLink(const IpLink& link);

// The bonds of an `ip -d link` listing with their 802.3ad state (mode, hash, active aggregator and
// partner, each slave's aggregator): what /proc/net/bonding would say, for captures without it.
std::map<std::string, BondStatus> BondsFromIpLinks(const std::vector<IpLink>& links);

// A capture directory: the files of facts/capture_slots.h (`railyard collect --list-slots`,
// docs/facts.md). Missing files are recorded as absent sources, not errors; a file of no slot is a
// warning. Throws InputError for an unreadable directory or a malformed ip-j-d-link.json
// (naming the file).
CollectInputs ReadCaptureDir(const std::string& dir);

struct LiveOptions {
  std::string sysfs = "/sys";  // roots, so tests can point at a prepared tree
  std::string procfs = "/proc";
  std::string network_scripts = "/etc/sysconfig/network-scripts";  // RHEL ifcfg files
  std::string netplan_dir = "/etc/netplan";                        // Ubuntu netplan files
  std::string os_release = "/etc/os-release";
  int tool_timeout_ms = 10000;
  bool run_tools = true;  // lspci, ethtool, mstflint, ofed_info when installed
};

// Reads sysfs and procfs directly and runs the tools that are installed (argv only, never a
// shell; each with a timeout). A missing tool or file is recorded, not fatal.
CollectInputs CollectLive(const LiveOptions& options = {});

}  // namespace railyard
