// HostFacts: one host's network facts, gathered once from sysfs, procfs and the usual tools,
// as one versioned JSON document ("schema": "railyard.facts/1", see docs/facts.md). The doctor,
// the verifier and the inventory ledger read it; `railyard collect` writes it.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/schemas.h"
#include "parse/bonding.h"
#include "parse/dmesg.h"
#include "parse/flint.h"
#include "parse/ibstat.h"
#include "parse/lspci.h"
#include "parse/lsusb.h"
#include "parse/mellanox_tools.h"
#include "parse/mlxlink.h"
#include "parse/module.h"
#include "parse/netconfig.h"
#include "parse/qos.h"
#include "parse/system_identity.h"
#include "parse/vpd.h"
#include "util/input_error.h"

namespace railyard {

struct NetdevFacts {
  std::string name;
  std::string kind;  // physical | bond | bridge | vlan | veth | loopback | other
  uint32_t mtu = 0;
  std::string operstate;  // up | down | lowerlayerdown | unknown ...
  std::optional<bool> carrier;
  std::string mac;
  uint32_t speed_mbps = 0;  // 0 = unknown
  std::string duplex;
  bool promiscuous = false;
  std::string master;   // bond or bridge this port belongs to
  std::string pci_bdf;  // backing PCI function, "" for virtual devices
  std::string lower;    // VLAN/macvlan parent, veth peer (ip link's "@" name)
  int vlan_id = -1;
  int tx_queues = 0;  // queues in use (sysfs queues/tx-N), 0 = unknown
  int rx_queues = 0;
  std::vector<std::string> addresses;  // "10.0.0.5/24", "fd00::5/64" (link-local omitted)
  std::string driver;                  // ethtool -i
  std::string driver_version;          // ethtool -i "version:"
  std::string driver_origin;           // inbox | out-of-tree (MLNX_OFED or DOCA-OFED) | "" (DriverOrigin)
  std::string firmware_version;
  std::string firmware_psid;
  std::optional<bool> link_detected;
  std::string link_detected_reason;
  std::vector<std::string> supported_fec_modes;
  std::vector<std::string> supported_link_modes;  // ethtool: "1000baseT/Full", "2500baseT/Full" ...
  std::vector<std::string> partner_link_modes;    // ethtool "Link partner advertised link modes"
  int lanes = 0;
  std::string bus_info;              // ethtool -i: "0000:03:00.0", "usb-0000:00:14.0-2" (USB: host controller + port path)
  std::string usb_device;            // a USB adapter's device as the kernel names it ("2-1.1"), "" for others
  double usb_speed_mbps = 0;         // the speed its USB link enumerated at: 1.5, 12, 480, 5000, 10000, 20000; 0 = unknown
  std::string usb_speed_from;        // where that came from: sysfs, lsusb -t, the kernel log
  std::string usb_id;                // "0bda:8156" (idVendor:idProduct)
  std::optional<ModuleInfo> module;  // ethtool -m
  std::map<std::string, uint64_t> counters;  // ethtool -S, the counters kept_counters.csv lists
  std::optional<MlnxQos> qos;                // mlnx_qos -i IF
  std::optional<EcnState> ecn;               // /sys/class/net/IF/ecn/roce_np|roce_rp/enable/N
};

// The ethtool -S counters HostFacts keeps (hundreds exist): data/catalog/kept_counters.csv, each
// with the rules that read it and its source. `*` stands for a priority number (rx_prio3_pause).
bool IsKeptCounter(std::string_view name);

// A counter of the netdev, as a rule reads it: nullopt when ethtool -S did not show it. Throws
// std::logic_error for a name kept_counters.csv does not list: the collector would have dropped it,
// and the rule would never fire (an internal error, found by the rule's first test).
std::optional<uint64_t> KeptCounter(const NetdevFacts& n, std::string_view name);

// One RDMA device: ibstat's view, joined with ibdev2netdev's netdev and PCI address.
struct RdmaFacts {
  IbstatCa ca;
  std::string netdev;  // from ibdev2netdev
  std::string netdev_state;
  std::string pci_bdf;  // from ibdev2netdev -v
};

// One LLDP neighbour the host sees (lldpctl on the host): local NIC port -> switch and port.
struct LldpNeighbor {
  std::string local_port;      // the host's interface name
  std::string remote_device;   // the switch's LLDP system name
  std::string remote_port;     // its port (ifname, or the description when the id is a MAC)
  std::string remote_chassis;  // chassis id
  int pvid = -1;               // the port VLAN the switch announces (LLDP 802.1 TLV), -1 when not sent
};

// A driver package an OS installed (ESXi: `esxcli software vib list`).
struct DriverPackage {
  std::string name;  // "nmlx5-core", "i40en"
  std::string version;
  std::string vendor;
  std::string acceptance;  // VMwareCertified | VMwareAccepted | PartnerSupported | CommunitySupported
  std::string install_date;
};

struct SourceStatus {
  std::string name;      // "lspci -vvv", "/sys/class/net", "ethtool -i ib0" ...
  bool present = false;  // the tool or file existed and produced output
  std::string detail;    // why not, or where it came from
  std::vector<std::string> warnings;
};

struct HostFacts {
  std::string platform = "linux";  // linux | esxi
  std::string hostname;
  std::string kernel;
  std::string ofed;            // ofed_info -s
  SystemIdentity system;       // server model and BIOS (dmidecode, /sys/class/dmi/id, or the kernel's "DMI:" line)
  OsRelease os;                // /etc/os-release
  std::string kernel_cmdline;  // /proc/cmdline, as read
  std::map<std::string, std::string> kernel_params;  // its words: "iommu" -> "pt"; flags -> ""
  std::vector<PciFunction> pci;                      // Mellanox/NVIDIA functions (vendor 15b3)
  std::vector<PciFunction> other_pci;                // every other network function (Ethernet, Network, InfiniBand class)
  std::vector<DriverPackage> packages;               // driver packages the OS lists (ESXi VIBs)
  std::vector<UsbTreeNode> usb;                      // lsusb -t: every USB device interface with its link speed
  std::map<std::string, FirmwareQuery> firmware;     // by PCI address
  std::vector<NetdevFacts> netdevs;
  std::map<std::string, BondStatus> bonds;       // by bond name
  std::vector<RdmaFacts> rdma;                   // by RDMA device, ibstat order
  std::map<std::string, MlxlinkPort> links;      // mlxlink, by RDMA device
  std::vector<KernelEvent> kernel_events;        // mlx4/mlx5/pci kernel messages, classified
  int kernel_log_lines = 0;                      // kernel-log lines read (0: no log): "no event" means something only when > 0
  std::vector<NmDevice> networkmanager;          // nmcli device status / show
  std::map<std::string, IfcfgFile> ifcfg;        // by file name (ifcfg-eth2)
  std::map<std::string, NetplanConfig> netplan;  // by file name (50-cloud-init.yaml)
  std::map<std::string, BinaryVpd> vpd;          // /sys/bus/pci/devices/<bdf>/vpd, by PCI address
  std::vector<MstDevice> mst;                    // mst status [-v]: /dev/mst paths and PCI addresses
  std::vector<FwManagerDevice> firmware_images;  // mlxfwmanager/mlxup --query: current vs available
  std::vector<DevlinkDevice> devlink;            // devlink dev info: running vs stored firmware, serials
  std::vector<LldpNeighbor> lldp;                // lldpctl -f json on the host
  std::vector<SourceStatus> sources;
  // true: an NVIDIA/Mellanox NIC was seen (lspci, ethtool -i, RDMA devices, flint, mlxlink); false: lspci ran
  // and listed none; unset: nothing could tell.
  std::optional<bool> has_nvidia_nic;
};

// Why a text is not a HostFacts document: not JSON at all, JSON naming another schema (schema() says
// which: a switch's facts in a stream of hosts' is not an error to every reader), or a field that does
// not fit.
class FactsDocumentError : public InputError {
 public:
  enum class Kind { kNotJson, kOtherSchema, kBadField };
  FactsDocumentError(Kind kind, const std::string& message, std::string schema = "")
      : InputError(message), kind_(kind), schema_(std::move(schema)) {}
  Kind kind() const { return kind_; }
  const std::string& schema() const { return schema_; }

 private:
  Kind kind_;
  std::string schema_;
};

// The railyard.facts/1 document, written and read from one table of fields (host_facts.cc).
nlohmann::json ToJson(const HostFacts& facts);
// Reads a document's text (simdjson: validated whole first). Throws FactsDocumentError naming the
// section and path ("HostFacts: bad "netdevs" section: netdevs[3].mtu: expected an unsigned
// integer") when it is not railyard.facts/1, "not JSON: ..." when it is not JSON at all.
HostFacts FactsFromJsonText(std::string_view text);
// The same over text followed by at least kFactsJsonPadding readable bytes (the next lines of a larger
// buffer, or padding): parsed where it lies, without the copy FactsFromJsonText makes.
inline constexpr size_t kFactsJsonPadding = 64;
HostFacts FactsFromPaddedJsonText(std::string_view text);
// The same, from a parsed document (tests, fuzzers): the text path is the one that matters for speed.
HostFacts FactsFromJson(const nlohmann::json& json);

}  // namespace railyard
