#include "facts/collect.h"
#include "facts/capture_slots.h"
#include "util/file.h"
#include "util/input_error.h"

#include "parse/esxcli.h"
#include "parse/lsusb.h"
#include "parse/nic_drivers.h"
#include "util/lines.h"
#include "util/text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "parse/dmesg.h"
#include "parse/ethtool.h"
#include "parse/ibstat.h"
#include "parse/iproute.h"
#include "parse/key_value.h"
#include "parse/lldpctl.h"
#include "parse/mellanox_tools.h"
#include "parse/mlxlink.h"
#include "parse/module.h"
#include "parse/netconfig.h"
#include "parse/qos.h"
#include "util/terminal.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> ReadIfExists(const fs::path& path) { return ReadFileIfReadable(path.string()); }

std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

std::vector<std::string> AsStrings(const std::vector<ParseWarning>& warnings) {
  std::vector<std::string> out;
  for (const ParseWarning& w : warnings) out.push_back(w.line ? fmt::format("line {}: {}", w.line, w.message) : w.message);
  return out;
}

// The source a file's facts came from, by the slot's source name (live collection names its runs as a
// capture's files are named: "flint q 19:00.0" either way): the first whose name is one of `names`,
// created (as present) when none exists.
SourceStatus& SourceNamed(HostFacts& f, std::initializer_list<std::string> names) {
  for (SourceStatus& s : f.sources) {
    for (const std::string& n : names) {
      if (s.name == n) return s;
    }
  }
  f.sources.push_back({*names.begin(), true, "", {}});
  return f.sources.back();
}

// Attaches a parser's warnings to the source, and says so when the file yielded nothing at all: a
// file that was read must give facts or a warning, never silence.
void Account(HostFacts& f, std::initializer_list<std::string> names, const std::vector<ParseWarning>& warnings, bool yielded,
             std::string_view expected) {
  SourceStatus& s = SourceNamed(f, names);
  for (std::string& w : AsStrings(warnings)) s.warnings.push_back(std::move(w));
  // The parser's own warning already says why nothing was read; otherwise say it here.
  if (!yielded && warnings.empty())
    s.warnings.push_back(fmt::format("line 1: nothing read: no {} found in this output", expected));
}

}  // namespace

NetdevSnapshot NetdevFromIpLink(const IpLink& l) {
  NetdevSnapshot s;
  s.name = l.name;
  s.mtu = l.mtu;
  s.operstate = l.state;
  for (char& c : s.operstate) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  s.mac = l.mac;
  s.master = l.master;
  s.promiscuous = l.HasFlag("PROMISC");
  s.carrier = l.HasFlag("LOWER_UP");
  s.kind = l.name == "lo"       ? "loopback"
           : l.kind == "bond"   ? "bond"
           : l.kind == "bridge" ? "bridge"
           : l.kind == "vlan"   ? "vlan"
           : l.kind == "veth"   ? "veth"
           : l.kind.empty()     ? "physical"
                                : "other";
  s.lower = l.link;
  s.vlan_id = l.vlan_id;
  // ip's numtxqueues is what the device allocated, not what it uses: tx_queues stays unknown.
  if (!l.parentdev.empty()) s.pci_bdf = l.parentdev;
  s.addresses = l.addresses;
  return s;
}

std::map<std::string, BondStatus> BondsFromIpLinks(const std::vector<IpLink>& links) {
  auto lower = [](std::string v) {
    for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return v;
  };
  std::map<std::string, BondStatus> bonds;
  for (const IpLink& l : links) {
    if (l.kind != "bond") continue;
    BondStatus& b = bonds[l.name];
    b.mode = l.bond_mode;  // "802.3ad", "active-backup" ...: BondStatus's tests look for those words
    b.transmit_hash_policy = l.xmit_hash_policy;
    b.lacp_rate = l.lacp_rate;
    b.mii_status = l.HasFlag("LOWER_UP") ? "up" : "down";
    b.active_aggregator_id = l.ad_aggregator;
    b.partner_mac = l.ad_partner_mac;
  }
  for (const IpLink& l : links) {
    auto b = bonds.find(l.master);
    if (l.slave_kind != "bond" || b == bonds.end()) continue;
    BondMember m;
    m.name = l.name;
    m.mii_status = lower(l.slave_mii_status);
    m.link_failure_count = l.slave_link_failure_count;
    m.aggregator_id = l.slave_ad_aggregator_id;
    b->second.members.push_back(m);
  }
  return bonds;
}

namespace {

// "usb-0000:00:14.0-2.1" (ethtool -i bus-info of a USB adapter) -> "2.1", the port path below the root hub.
std::string UsbPortPath(const std::string& bus_info) {
  if (!bus_info.starts_with("usb-")) return {};
  size_t dash = bus_info.rfind('-');
  return dash > 3 ? bus_info.substr(dash + 1) : std::string();
}

// Which USB device each USB network adapter is, and the speed its USB link runs at: sysfs (live) says it
// directly; from a capture, `lsusb -t` (matched by driver and the port path of ethtool's bus-info) or the
// kernel log (the driver's lines name the interface "2-1.1:2.0" and the netdev; the USB core says how the
// device "2-1.1" enumerated).
void AttributeUsbAdapters(HostFacts& f, const CollectInputs& in) {
  std::vector<UsbTreeNode> tree;
  if (in.lsusb) {
    UsbTree t = ParseLsusbTree(*in.lsusb);
    Account(f, {"lsusb -t"}, t.warnings, !t.nodes.empty(), "`/:  Bus` line");
    tree = t.nodes;
    f.usb = std::move(t.nodes);
  }
  std::map<std::string, std::string> usb_of_netdev;           // from the kernel log: netdev -> USB device
  std::map<std::string, const KernelEvent*> enumerated, ids;  // USB device -> last enumeration / id line
  for (const KernelEvent& e : f.kernel_events) {
    if (e.kind == KernelEventKind::kUsbEnumerated) enumerated[e.device] = &e;
    if (e.kind == KernelEventKind::kUsbDeviceId) ids[e.device] = &e;
    const NicDriver* d = FindNicDriver(e.driver);
    auto netdev = e.values.find("netdev");
    if (d && d->bus == "usb" && netdev != e.values.end() && e.device.find(':') != std::string::npos) {
      usb_of_netdev[netdev->second] = e.device.substr(0, e.device.find(':'));
      if (e.message.find(": renamed from ") != std::string::npos)
        usb_of_netdev[e.message.substr(e.message.rfind(' ') + 1)] = usb_of_netdev[netdev->second];
    }
  }
  for (NetdevFacts& n : f.netdevs) {
    const NicDriver* d = FindNicDriver(n.driver);
    bool usb = n.bus_info.starts_with("usb-") || (d && d->bus == "usb") || usb_of_netdev.count(n.name);
    if (!usb) continue;
    std::string path = UsbPortPath(n.bus_info);
    if (n.usb_speed_mbps <= 0 && !tree.empty()) {
      std::vector<const UsbTreeNode*> match;
      for (const UsbTreeNode& t : tree) {
        if (t.interface < 0 || (!n.driver.empty() && t.driver != n.driver)) continue;
        if (!path.empty() && t.port_path != path) continue;
        if (!n.usb_device.empty() && t.Device() != n.usb_device) continue;
        bool seen = false;
        for (const UsbTreeNode* m : match) seen |= m->Device() == t.Device();
        if (!seen) match.push_back(&t);
      }
      if (match.size() == 1) {
        n.usb_device = match[0]->Device();
        n.usb_speed_mbps = match[0]->speed_mbps;
        n.usb_speed_from = "lsusb -t";
        if (n.usb_id.empty()) n.usb_id = match[0]->usb_id;
      } else if (match.size() > 1) {
        SourceNamed(f, {"lsusb -t"})
            .warnings.push_back(fmt::format("{}: {} USB devices with driver {} at port path {}; its USB speed is not guessed",
                                            n.name, match.size(), n.driver, path.empty() ? "(unknown)" : path));
      }
    }
    if (n.usb_device.empty()) {
      if (auto it = usb_of_netdev.find(n.name); it != usb_of_netdev.end()) n.usb_device = it->second;
    }
    if (n.usb_device.empty() && !path.empty()) {
      std::vector<std::string> candidates;  // the same port path on any bus: "1-2" or "2-2"
      for (const auto& [device, e] : enumerated) {
        if (device.size() > path.size() && device.ends_with("-" + path)) candidates.push_back(device);
      }
      if (candidates.size() == 1) n.usb_device = candidates[0];
    }
    if (n.usb_speed_mbps <= 0) {
      if (auto it = enumerated.find(n.usb_device); it != enumerated.end()) {
        double mbps = 0;
        WholeDouble(it->second->values.count("mbps") ? it->second->values.at("mbps") : "", mbps);
        if (mbps > 0) {
          n.usb_speed_mbps = mbps;
          n.usb_speed_from = fmt::format("kernel log line {}", it->second->line);
        }
      }
    }
    if (n.usb_id.empty()) {
      if (auto it = ids.find(n.usb_device); it != ids.end()) n.usb_id = it->second->values.at("usb_id");
    }
    if (n.kind == "other") n.kind = "physical";
  }
}

// An ESXi host: its vmnics as netdevs (driver, link, speed, MTU, MAC; driver and firmware versions and
// advertised link modes from `nic get`), its network-class PCI functions as other_pci (driver = the VMkernel
// module, "" when none claimed it), and its VIBs as packages.
void BuildEsxiFacts(HostFacts& f, const CollectInputs& in) {
  f.platform = "esxi";
  if (in.vmware_version) f.kernel = FirstLine(*in.vmware_version);
  const Parsed<EsxiNic> list = ParseEsxcliNicList(*in.esxcli_nic_list);
  const std::vector<EsxiNic>& nics = list.rows;
  Account(f, {"esxcli network nic list"}, list.warnings, !nics.empty(), "vmnic row");
  for (const EsxiNic& e : nics) {
    NetdevFacts n;
    n.name = e.name;
    n.kind = "physical";
    n.mtu = e.mtu;
    n.operstate = Lower(e.link_status);
    n.carrier = e.link_status == "Up";
    n.mac = e.mac;
    n.speed_mbps = e.speed_mbps;
    n.duplex = e.duplex;
    n.pci_bdf = e.pci;
    n.driver = e.driver;
    if (auto it = in.esxcli_nic_get.find(e.name); it != in.esxcli_nic_get.end()) {
      EsxiNicDetail d = ParseEsxcliNicGet(it->second);
      Account(f, {"esxcli network nic get -n " + e.name}, d.warnings, !d.name.empty() || !d.driver.empty(), "`Key: Value` line");
      n.driver_version = d.driver_version;
      n.firmware_version = d.firmware_version;
      for (const std::string& m : d.advertised_link_modes) n.supported_link_modes.push_back(Lower(m));  // "1000BaseT/Full"
    }
    f.netdevs.push_back(std::move(n));
  }
  if (in.esxcli_pci_list) {
    const Parsed<EsxiPciDevice> pci = ParseEsxcliPciList(*in.esxcli_pci_list);
    const std::vector<ParseWarning>& pw = pci.warnings;
    for (const EsxiPciDevice& d : pci.rows) {
      if (d.device_class.rfind("02", 0) != 0 && d.class_name.find("Ethernet") == std::string::npos &&
          d.class_name.find("Network") == std::string::npos && d.class_name.find("Infiniband") == std::string::npos) {
        continue;
      }
      PciFunction p;
      p.bdf = d.address.empty() ? d.vmkernel_name : d.address;
      p.class_name = d.class_name;
      p.description = d.vendor_name + " " + d.device_name;
      p.vendor_id = d.vendor_id;
      p.device_id = d.device_id;
      p.driver = d.module_name;
      p.kernel_modules = {d.vmkernel_name};  // the VMkernel's name for it (vmnicN), "" when it has none
      p.line = d.line;
      (p.vendor_id == "15b3" ? f.pci : f.other_pci).push_back(std::move(p));
    }
    Account(f, {"esxcli hardware pci list"}, pw, true, "");
  }
  if (in.esxcli_vib_list) {
    const EsxiVibList vibs = ParseEsxcliVibList(*in.esxcli_vib_list);
    for (const EsxiVib& v : vibs.rows) {
      f.packages.push_back({v.name, v.version, v.vendor, v.acceptance, v.install_date});
    }
    Account(f, {"esxcli software vib list"}, vibs.warnings, !f.packages.empty(), "VIB row");
  }
  // Linux outputs in an ESXi capture describe some other machine (or none): said, not mixed in.
  for (const auto& [name, present] :
       std::vector<std::pair<std::string, bool>>{{"lspci -vvv", in.lspci.has_value()},
                                                 {"dmesg", in.dmesg.has_value()},
                                                 {"lsusb -t", in.lsusb.has_value()},
                                                 {"ibstat", in.ibstat.has_value()},
                                                 {"ibv_devinfo", in.ibv_devinfo.has_value()},
                                                 {"ethtool", !in.ethtool.empty() || !in.ethtool_info.empty()},
                                                 {"ip link", !in.netdevs.empty()}}) {
    if (present) SourceNamed(f, {name}).warnings.push_back("line 1: a Linux output in an ESXi capture: not read");
  }
  bool nvidia = !f.pci.empty();
  for (const NetdevFacts& n : f.netdevs) nvidia |= n.driver.starts_with("nmlx");
  f.has_nvidia_nic = nvidia;
}

// The server model and BIOS: dmidecode (or sysfs) first; else the kernel's boot line "DMI: …", which every
// Linux boot log carries. The OS from os-release.
void ReadSystemIdentity(HostFacts& f, const CollectInputs& in) {
  if (in.dmidecode) {
    SystemIdentityParse p = ParseDmidecode(*in.dmidecode);
    Account(f, {"dmidecode"}, p.warnings, !p.system.empty(), "System or BIOS Information block");
    f.system = std::move(p.system);
  }
  if (f.system.empty() && in.dmesg) {
    LineReader lines(*in.dmesg);
    std::string_view line;
    while (lines.Next(line)) {
      if (line.find("DMI: ") == std::string_view::npos && line.find("Hardware name: ") == std::string_view::npos) continue;
      if (std::optional<SystemIdentity> s = ParseKernelDmiLine(line)) {
        f.system = std::move(*s);
        f.system.line = lines.number();
        break;
      }
    }
  }
  if (in.os_release) {
    OsReleaseParse p = ParseOsRelease(*in.os_release);
    Account(f, {"os-release"}, p.warnings, !p.os.empty(), "ID= line");
    f.os = std::move(p.os);
  }
}

// ESXi outputs without `esxcli network nic list` describe no vmnic: say so rather than read half a host.
void WarnEsxiWithoutNicList(HostFacts& f, const CollectInputs& in) {
  for (const auto& [name, present] :
       std::vector<std::pair<std::string, bool>>{{"esxcli software vib list", in.esxcli_vib_list.has_value()},
                                                 {"esxcli hardware pci list", in.esxcli_pci_list.has_value()},
                                                 {"vmware -vl", in.vmware_version.has_value()},
                                                 {"esxcli network nic get", !in.esxcli_nic_get.empty()}}) {
    if (present) {
      SourceNamed(f, {name}).warnings.push_back(
          "line 1: an ESXi output without esxcli-network-nic-list.txt: not read (an ESXi capture starts with the vmnic list)");
    }
  }
}

// The NVIDIA/Mellanox PCI functions, and every other network function beside them.
void ReadPciFunctions(HostFacts& f, const CollectInputs& in) {
  if (in.lspci) {
    LspciReport r = ParseLspci(*in.lspci);
    for (PciFunction& p : r.functions) {
      // Mellanox/NVIDIA functions only: by id with -nn, else by name.
      // (A function whose ids say another vendor is never ours, whatever its VPD or name says.)
      bool other_vendor = !p.vendor_id.empty() && p.vendor_id != "15b3";
      // VPD alone speaks for a headerless excerpt only (an Intel E810 has VPD too).
      bool ours = !other_vendor && (p.vendor_id == "15b3" || p.description.find("Mellanox") != std::string::npos ||
                                    p.description.find("NVIDIA") != std::string::npos || (p.has_vpd && p.description.empty()));
      if (ours) {
        f.pci.push_back(std::move(p));
      } else if (p.class_name.find("Ethernet") != std::string::npos || p.class_name.find("Network") != std::string::npos ||
                 p.class_name.find("Infiniband") != std::string::npos || p.class_name.find("Fabric") != std::string::npos) {
        f.other_pci.push_back(std::move(p));  // every other network function: checked too, never ignored
      }
    }
    for (SourceStatus& s : f.sources) {
      if (s.name == "lspci -vvv") {
        auto more = AsStrings(r.warnings);
        s.warnings.insert(s.warnings.end(), more.begin(), more.end());
      }
    }
  }
}

// flint/mstflint queries per function; bonds from /proc/net/bonding, else from ip link.
void ReadFirmwareAndBonds(HostFacts& f, const CollectInputs& in) {
  for (const auto& [bdf, text] : in.flint) {
    FirmwareQuery q = ParseFlintQuery(text);
    Account(f, {"flint q " + bdf}, q.warnings, !q.fw_version.empty() || !q.psid.empty(), "flint/mstflint query");
    f.firmware[bdf] = std::move(q);
  }
  for (const auto& [bond, text] : in.bonding) {
    BondStatus b = ParseBonding(text);
    Account(f, {"/proc/net/bonding/" + bond}, b.warnings, !b.mode.empty() || !b.members.empty(), "bonding mode or slave");
    f.bonds[bond] = std::move(b);
  }
  for (const auto& [bond, b] : in.ip_bonds) f.bonds.emplace(bond, b);  // /proc/net/bonding says more, where present
}

// The RDMA devices and their ports, from the best tool that ran: ibstat, else ibstatus, else
// ibv_devinfo (with rdma link), else rdma link, else ibdev2netdev alone; ibdev2netdev names netdevs.
void ReadRdmaPorts(HostFacts& f, const CollectInputs& in) {
  std::vector<RdmaNetdev> map;
  if (in.ibdev2netdev) {
    Parsed<RdmaNetdev> parsed = ParseIbdev2netdev(*in.ibdev2netdev);
    map = std::move(parsed.rows);
    Account(f, {"ibdev2netdev"}, parsed.warnings, !map.empty(), "`mlx5_0 port 1 ==> ib0 (Up)` line");
  }
  if (in.ibstat) {
    IbstatReport report = ParseIbstat(*in.ibstat);
    Account(f, {"ibstat"}, report.warnings, !report.cas.empty(), "CA block");
    for (IbstatCa& ca : report.cas) {
      RdmaFacts r;
      for (const RdmaNetdev& m : map) {
        if (m.rdma_device == ca.name) {
          r.netdev = m.netdev;
          r.netdev_state = m.netdev_state;
          r.pci_bdf = m.pci_bdf;
        }
      }
      r.ca = std::move(ca);
      f.rdma.push_back(std::move(r));
    }
  }
  if (in.ibstat == std::nullopt && in.ibstatus) {
    // Only ibstatus: the same ports, in ibstat's words ("ACTIVE" -> "Active", hex LIDs).
    auto words = [](const std::string& s) {
      if (s == "ACTIVE") return std::string("Active");
      if (s == "DOWN") return std::string("Down");
      if (s == "INIT") return std::string("Initializing");
      if (s == "ARMED") return std::string("Armed");
      return s;
    };
    const Parsed<IbstatusPort> parsed = ParseIbstatus(*in.ibstatus);
    const std::vector<IbstatusPort>& ports = parsed.rows;
    Account(f, {"ibstatus"}, parsed.warnings, !ports.empty(), "`Infiniband device ... port N status:` block");
    for (const IbstatusPort& p : ports) {
      if (f.rdma.empty() || f.rdma.back().ca.name != p.device) {
        RdmaFacts r;
        r.ca.name = p.device;
        f.rdma.push_back(std::move(r));
      }
      IbstatPort port;
      port.number = p.port;
      port.state = words(p.state);
      port.physical_state = p.phys_state;
      port.rate = p.rate_gbps;
      port.base_lid = static_cast<int>(std::strtol(p.base_lid.c_str(), nullptr, 0));
      port.sm_lid = static_cast<int>(std::strtol(p.sm_lid.c_str(), nullptr, 0));
      port.link_layer = p.link_layer;
      f.rdma.back().ca.ports.push_back(std::move(port));
    }
  }
  // rdma link (iproute2) where neither ibstat nor ibstatus ran: every port with its logical and physical state.
  if (!in.ibstat && !in.ibstatus && in.ibv_devinfo) {
    // ibv_devinfo: every verbs device, whoever made it (bnxt_re, irdma, hns, efa, rxe); rdma link adds netdevs.
    IbstatReport report = ParseIbvDevinfo(*in.ibv_devinfo);
    Account(f, {"ibv_devinfo"}, report.warnings, !report.cas.empty(), "`hca_id:` block");
    std::vector<RdmaLink> links;
    if (in.rdma_link) {
      Parsed<RdmaLink> parsed = ParseRdmaLink(*in.rdma_link);
      links = std::move(parsed.rows);
      Account(f, {"rdma link"}, parsed.warnings, !links.empty(), "`link DEV/PORT ... state ...` line");
    }
    for (IbstatCa& ca : report.cas) {
      RdmaFacts r;
      for (const RdmaLink& l : links) {
        if (l.rdma_device == ca.name && !l.netdev.empty()) r.netdev = l.netdev;
      }
      for (const RdmaNetdev& m : map) {
        if (m.rdma_device == ca.name) {
          r.pci_bdf = m.pci_bdf;
          if (r.netdev.empty()) r.netdev = m.netdev;
        }
      }
      r.ca = std::move(ca);
      f.rdma.push_back(std::move(r));
    }
  }
  if (!in.ibstat && !in.ibstatus && !in.ibv_devinfo && in.rdma_link) {
    const Parsed<RdmaLink> parsed = ParseRdmaLink(*in.rdma_link);
    const std::vector<RdmaLink>& ports = parsed.rows;
    Account(f, {"rdma link"}, parsed.warnings, !ports.empty(), "`link DEV/PORT ... state ...` line");
    auto words = [](const std::string& s) {
      static const std::map<std::string, std::string> kStates = {{"ACTIVE", "Active"},
                                                                 {"DOWN", "Down"},
                                                                 {"INIT", "Initializing"},
                                                                 {"ARMED", "Armed"},
                                                                 {"LINK_UP", "LinkUp"},
                                                                 {"POLLING", "Polling"},
                                                                 {"DISABLED", "Disabled"},
                                                                 {"SLEEP", "Sleep"},
                                                                 {"LINK_ERROR_RECOVERY", "LinkErrorRecovery"},
                                                                 {"PHY_TEST", "PhyTest"},
                                                                 {"NOP", ""}};
      auto it = kStates.find(s);
      return it == kStates.end() ? s : it->second;
    };
    for (const RdmaLink& l : ports) {
      if (f.rdma.empty() || f.rdma.back().ca.name != l.rdma_device) {
        RdmaFacts r;
        r.ca.name = l.rdma_device;
        r.netdev = l.netdev;
        for (const RdmaNetdev& m : map) {
          if (m.rdma_device == l.rdma_device) r.pci_bdf = m.pci_bdf;
        }
        f.rdma.push_back(std::move(r));
      }
      IbstatPort port;
      port.number = l.port;
      port.state = words(l.state);
      port.physical_state = words(l.physical_state);
      port.base_lid = std::max(l.lid, 0);
      port.sm_lid = std::max(l.sm_lid, 0);
      port.link_layer = l.lid >= 0 ? "InfiniBand" : "Ethernet";  // rdma link prints LIDs for InfiniBand ports only
      f.rdma.back().ca.ports.push_back(std::move(port));
    }
  }
  // ibdev2netdev alone (no ibstat, no ibstatus, no rdma link): its lines still name every RDMA port, its netdev and state.
  if (!in.ibstat && !in.ibstatus && !in.rdma_link && !in.ibv_devinfo) {
    for (const RdmaNetdev& m : map) {
      if (f.rdma.empty() || f.rdma.back().ca.name != m.rdma_device) {
        RdmaFacts r;
        r.ca.name = m.rdma_device;
        r.netdev = m.netdev;
        r.netdev_state = m.netdev_state;
        r.pci_bdf = m.pci_bdf;
        if (!m.firmware.empty()) r.ca.firmware_version = m.firmware;
        f.rdma.push_back(std::move(r));
      }
      IbstatPort port;
      port.number = m.port;
      // -v prints the port's state (ACTIVE/DOWN); plain ibdev2netdev only the netdev's (Up/Down).
      const std::string& state = !m.port_state.empty() ? m.port_state : m.netdev_state;
      port.state = state == "ACTIVE" || state == "Up" ? "Active" : state == "DOWN" || state == "Down" ? "Down" : state;
      // ibdev2netdev names the netdev: IPoIB interfaces are ib*, everything else rides Ethernet (RoCE).
      port.link_layer = m.netdev.starts_with("ib") ? "InfiniBand" : "Ethernet";
      f.rdma.back().ca.ports.push_back(std::move(port));
    }
  } else {
    for (const RdmaNetdev& m : map) {
      bool known = false;
      for (const RdmaFacts& r : f.rdma) known |= r.ca.name == m.rdma_device;
      if (!known) {
        SourceNamed(f, {"ibdev2netdev"})
            .warnings.push_back(
                fmt::format("{} ({}) is in ibdev2netdev but not in ibstat/ibstatus: kept there only", m.rdma_device, m.netdev));
      }
    }
  }
}

// One tool's report each: mst, devlink, mlxfwmanager, lldpctl, dmesg, the system identity, VPD,
// NetworkManager, ifcfg and netplan files, mlxlink.
void ReadToolReports(HostFacts& f, const CollectInputs& in) {
  if (in.mst_status) {
    MstStatus m = ParseMstStatus(*in.mst_status);
    Account(f, {"mst status", "mst status -v"}, m.warnings, !m.devices.empty(), "MST device");
    f.mst = std::move(m.devices);
  }
  if (in.devlink) {
    DevlinkReport r = ParseDevlinkDevInfo(*in.devlink);
    Account(f, {"devlink dev info"}, r.warnings, !r.devices.empty(), "`pci/...:` device");
    f.devlink = std::move(r.devices);
  }
  if (in.mlxfwmanager) {
    FwManagerReport r = ParseMlxfwmanager(*in.mlxfwmanager);
    Account(f, {"mlxfwmanager --query"}, r.warnings, !r.devices.empty(), "device block");
    f.firmware_images = std::move(r.devices);
  }
  if (in.lldpctl) {
    AdjacencyReport r = ParseLldpctl(*in.lldpctl, in.hostname, "lldpctl");  // json, json0, keyvalue, plain or xml
    Account(f, {"lldpctl -f json"}, r.warnings, true, "");
    if (r.adjacencies.empty() && r.warnings.empty()) {
      SourceNamed(f, {"lldpctl -f json"})
          .warnings.push_back(
              "no LLDP neighbour on any port: lldpd hears none (the switch ports send no LLDP, or lldpd does not listen on "
              "the NICs)");
    }
    for (const Adjacency& a : r.adjacencies)
      f.lldp.push_back({a.local_port, a.remote_device, a.remote_port, a.remote_guid, a.pvid});
  }
  if (in.dmesg) {
    KernelLog log = ParseDmesg(*in.dmesg);
    Account(f, {"dmesg"}, log.warnings, true, "");
    f.kernel_events = std::move(log.events);
    f.kernel_log_lines = log.kernel_lines;
  }
  ReadSystemIdentity(f, in);
  for (const auto& [bdf, bytes] : in.vpd) {
    BinaryVpd v = ParseBinaryVpd(bytes);
    Account(f, {"vpd " + bdf}, v.warnings, !v.product_name.empty() || !v.read_only.empty(), "VPD resource");
    f.vpd[bdf] = std::move(v);
  }
  for (const auto& [bdf, text] : in.mstvpd) {
    BinaryVpd v = ParseMstvpd(text);
    Account(f, {"mstvpd " + bdf}, v.warnings, !v.product_name.empty() || !v.read_only.empty(), "`KEY: value` VPD line");
    f.vpd.emplace(bdf, std::move(v));  // the raw sysfs bytes, where also captured, carry the checksum: they win
  }
  if (in.nmcli) {
    Parsed<NmDevice> parsed = ParseNmcli(*in.nmcli);
    f.networkmanager = std::move(parsed.rows);
    Account(f, {"nmcli"}, parsed.warnings, !f.networkmanager.empty(), "NetworkManager device");
  }
  for (const auto& [name, text] : in.ifcfg) {
    IfcfgFile x = ParseIfcfg(text);
    for (SourceStatus& s : f.sources) {
      if (s.name == name || s.name.ends_with("/" + name)) {
        for (std::string& w : AsStrings(x.warnings)) s.warnings.push_back(std::move(w));
      }
    }
    f.ifcfg[name] = std::move(x);
  }
  for (const auto& [name, text] : in.netplan) {
    NetplanConfig x = ParseNetplan(text);
    for (SourceStatus& s : f.sources) {
      if (s.name.ends_with(name)) {
        for (std::string& w : AsStrings(x.warnings)) s.warnings.push_back(std::move(w));
      }
    }
    f.netplan[name] = std::move(x);
  }
  for (const auto& [device, text] : in.mlxlink) {
    MlxlinkReport r = ParseMlxlink(text);
    Account(f, {"mlxlink " + device}, r.warnings, !r.ports.empty(), "mlxlink port section");
    if (!r.ports.empty()) {
      r.ports[0].device = device;
      f.links[device] = std::move(r.ports[0]);
    }
  }
}

// Every interface with what ethtool (-i, -m, -S), mlnx_qos and the ECN knobs say of it.
void ReadNetdevs(HostFacts& f, const CollectInputs& in) {
  std::set<std::string> from_ip;
  for (const NetdevSnapshot& s : in.netdevs) from_ip.insert(s.name);
  auto listed_by_ip = [&](const std::string& name) { return from_ip.count(name) > 0; };
  // A per-interface capture (ethtool, ethtool -i/-m/-S, mlnx_qos, ecn) for an interface that no
  // ip link output lists still describes a real interface: keep it, and say where it came from.
  std::vector<NetdevSnapshot> netdevs = in.netdevs;
  std::set<std::string> listed;
  for (const NetdevSnapshot& s : netdevs) listed.insert(s.name);
  for (const auto* per_if : {&in.ethtool, &in.ethtool_info, &in.ethtool_module, &in.ethtool_stats, &in.mlnx_qos, &in.ecn}) {
    for (const auto& [name, text] : *per_if) {
      if (!listed.insert(name).second) continue;
      NetdevSnapshot s;
      s.name = name;
      s.kind = "other";
      netdevs.push_back(s);
      SourceNamed(f, {"ip -j -d link", "ip -d link", "ip -d addr", "/sys/class/net"})
          .warnings.push_back(fmt::format("{}: captured by ethtool or mlnx_qos but not in the interface list; kept "
                                          "with what those captures say",
                                          name));
    }
  }
  for (const NetdevSnapshot& s : netdevs) {
    NetdevFacts n;
    n.name = s.name;
    n.kind = s.kind;
    n.mtu = s.mtu;
    n.operstate = s.operstate;
    n.carrier = s.carrier;
    n.mac = s.mac;
    n.speed_mbps = s.speed_mbps;
    n.duplex = s.duplex;
    n.promiscuous = s.promiscuous;
    n.master = s.master;
    n.pci_bdf = s.pci_bdf;
    n.lower = s.lower;
    n.vlan_id = s.vlan_id;
    n.tx_queues = s.tx_queues;
    n.rx_queues = s.rx_queues;
    n.addresses = s.addresses;
    n.usb_device = s.usb_device;
    n.usb_speed_mbps = s.usb_speed_mbps;
    n.usb_id = s.usb_id;
    if (n.usb_speed_mbps > 0) n.usb_speed_from = "sysfs";
    if (auto it = in.ethtool_info.find(s.name); it != in.ethtool_info.end()) {
      EthtoolDriver d = ParseEthtoolDriver(it->second);
      Account(f, {"ethtool -i " + s.name}, d.warnings, !d.driver.empty(), "`driver:` line");
      if (n.kind == "other" && !listed_by_ip(s.name) && d.bus_info.find(':') != std::string::npos) n.kind = "physical";
      n.driver = d.driver;
      n.driver_version = d.version;
      n.driver_origin = DriverOrigin(d.version);
      n.firmware_version = d.firmware_version;
      n.firmware_psid = d.firmware_psid;
      n.bus_info = d.bus_info;
      if (n.pci_bdf.empty() && d.bus_info.find(':') != std::string::npos && !d.bus_info.starts_with("usb-"))
        n.pci_bdf = d.bus_info;
      if (d.driver == "veth" && n.kind == "other") n.kind = "veth";
    }
    if (auto it = in.ethtool_module.find(s.name); it != in.ethtool_module.end()) {
      n.module = ParseEthtoolModule(it->second);
      Account(f, {"ethtool -m " + s.name}, n.module->warnings,
              !n.module->readable || !n.module->identifier.empty() || !n.module->vendor_name.empty(), "module EEPROM field");
    }
    if (auto it = in.ethtool_stats.find(s.name); it != in.ethtool_stats.end()) {
      NicCounters stats = ParseEthtoolStats(it->second);
      Account(f, {"ethtool -S " + s.name}, stats.warnings, !stats.values.empty(), "`NIC statistics:` counter");
      for (const auto& [name, value] : stats.values) {
        if (IsKeptCounter(name)) n.counters[name] = value;
      }
    }
    if (auto it = in.mlnx_qos.find(s.name); it != in.mlnx_qos.end()) {
      n.qos = ParseMlnxQos(it->second);
      Account(f, {"mlnx_qos -i " + s.name}, n.qos->warnings,
              !n.qos->trust.empty() || !n.qos->dcbx_mode.empty() || !n.qos->traffic_classes.empty() || n.qos->pfc_enabled[0] >= 0,
              "trust, DCBX, PFC or traffic-class line");
    }
    if (auto it = in.ecn.find(s.name); it != in.ecn.end()) {
      EcnState e = ParseEcnGrep(it->second);
      Account(f, {"ecn " + s.name}, e.warnings, e.Known(), "`.../roce_np|roce_rp/enable/N:VALUE` line");
      if (e.Known() || !e.warnings.empty()) n.ecn = std::move(e);
    }
    if (auto it = in.ethtool.find(s.name); it != in.ethtool.end()) {
      EthtoolSettings e = ParseEthtoolSettings(it->second);
      Account(f, {"ethtool " + s.name}, e.warnings,
              e.link_detected.has_value() || e.speed_mbps > 0 || !e.duplex.empty() || !e.supported_link_modes.empty(),
              "`Settings for IF:` field");
      if (e.speed_mbps) n.speed_mbps = e.speed_mbps;
      if (!e.duplex.empty() && n.duplex.empty()) n.duplex = e.duplex;
      n.link_detected = e.link_detected;
      n.link_detected_reason = e.link_detected_reason;
      n.supported_fec_modes = e.supported_fec_modes;
      n.supported_link_modes = e.supported_link_modes;
      n.partner_link_modes = e.partner_link_modes;
      n.lanes = e.lanes;
    }
    f.netdevs.push_back(std::move(n));
  }
  std::sort(f.netdevs.begin(), f.netdevs.end(), [](const NetdevFacts& a, const NetdevFacts& b) { return a.name < b.name; });
}

// Bytes that are not UTF-8 (a corrupt hostname file, VPD garbage) are kept out of the JSON by the writer
// (replaced with U+FFFD); say where they were.
void NoteBytesNotUtf8(HostFacts& f) {
  if (!ValidUtf8(f.hostname)) {
    SourceNamed(f, {"hostname"})
        .warnings.push_back("hostname.txt: not UTF-8; the bad bytes are replaced with U+FFFD in the facts");
  }
  for (const PciFunction& p : f.pci) {
    for (const auto& [k, v] : p.vpd) {
      if (!ValidUtf8(v))
        SourceNamed(f, {"lspci -vvv"}).warnings.push_back(fmt::format("{} VPD [{}]: not UTF-8 (replaced with U+FFFD)", p.bdf, k));
    }
  }
}

// Whether the host has an NVIDIA/Mellanox NIC at all: a host without one must not read as healthy.
void NoteNvidiaNicPresence(HostFacts& f, const CollectInputs& in) {
  bool seen = !f.pci.empty() || !f.firmware.empty() || !f.links.empty();
  for (const NetdevFacts& n : f.netdevs) seen |= n.driver.starts_with("mlx4") || n.driver.starts_with("mlx5");
  for (const RdmaFacts& r : f.rdma) seen |= r.ca.name.starts_with("mlx");
  if (seen) {
    f.has_nvidia_nic = true;
  } else if (in.lspci) {
    f.has_nvidia_nic = false;
    SourceNamed(f, {"lspci -vvv"})
        .warnings.push_back(
            "no NVIDIA/Mellanox network function (vendor 15b3) on this host: no NIC fact below is about a ConnectX or BlueField");
  }
}

}  // namespace

HostFacts BuildHostFacts(const CollectInputs& in) {
  HostFacts f;
  f.hostname = in.hostname;
  f.kernel = in.kernel;
  f.ofed = in.ofed;
  if (in.cmdline) {
    f.kernel_cmdline = FirstLine(*in.cmdline);
    f.kernel_params = ParseKernelCmdline(f.kernel_cmdline);
  }
  f.sources = in.sources;
  if (in.esxcli_nic_list) {
    BuildEsxiFacts(f, in);
    return f;
  }
  WarnEsxiWithoutNicList(f, in);
  ReadPciFunctions(f, in);
  ReadFirmwareAndBonds(f, in);
  ReadRdmaPorts(f, in);
  ReadToolReports(f, in);
  ReadNetdevs(f, in);
  AttributeUsbAdapters(f, in);
  NoteBytesNotUtf8(f);
  NoteNvidiaNicPresence(f, in);
  return f;
}

namespace {

// The capture files are declared in facts/capture_slots.cc: fixed names, per-object prefixes, the
// identity and interface files read by their own functions below, and the configuration files.

// hostname, kernel and MLNX_OFED version: one line each.
// What a file that holds one line (hostname, uname -r, ofed_info -s, /proc/cmdline) says beyond it:
// a blank first line, or more lines than one, is said, never taken in silence.
std::vector<std::string> OneLineWarnings(const std::string& name, const std::string& text) {
  std::vector<std::string> out;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return out;  // an empty file is said by its source
  if (FirstLine(text).find_first_not_of(" \t") == std::string::npos)
    out.push_back(fmt::format("{}: line 1 is blank: one line with the value is expected; none was read", name));
  size_t more = 0, line = 0, first_more = 0;
  for (size_t at = 0; at < text.size(); ++line) {
    size_t end = std::min(text.find('\n', at), text.size());
    if (line > 0 && text.find_first_not_of(" \t\r", at) < end) {
      if (!more++) first_more = line + 1;
    }
    at = end + 1;
  }
  if (more) {
    out.push_back(fmt::format("{}: {} more line(s) from line {} not read: one line is expected (is it the right file?)", name,
                              more, first_more));
  }
  return out;
}

void ReadCaptureIdentity(const fs::path& root, CollectInputs& in) {
  std::vector<std::string> warnings;
  auto one_line = [&](const char* name) -> std::optional<std::string> {
    std::optional<std::string> t = ReadIfExists(root / name);
    if (!t) return std::nullopt;
    if (t->find_first_not_of(" \t\r\n") == std::string::npos)
      warnings.push_back(fmt::format("{}: the file is empty: the command printed nothing, or its capture failed", name));
    for (std::string& w : OneLineWarnings(name, *t)) warnings.push_back(std::move(w));
    return FirstLine(*t);
  };
  for (const CaptureSlot& slot : CaptureSlots()) {
    if (slot.kind != SlotKind::kIdentity) continue;
    const char* name = slot.names[0];
    std::optional<std::string> t = one_line(name);
    if (t) in.*slot.identity = IdentityValue(*t);
    if (!slot.tool) continue;
    if (t)
      in.sources.push_back({slot.tool, true, (root / name).string(), {}});
    else
      in.sources.push_back({slot.tool, false, fmt::format("{} not in the capture", name), {}});
  }
  if (!warnings.empty()) in.sources.push_back({"capture directory", true, root.string(), std::move(warnings)});
}

// A capture file with nothing in it: the command printed nothing or failed. Said on its source, since
// most readers take no output as "none" (no kernel message, no neighbour, no interface).
std::vector<std::string> EmptyFileWarning(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") != std::string::npos) return {};
  return {"the file is empty: the command printed nothing, or its capture failed"};
}

void ReadFixedCaptureFiles(const fs::path& root, CollectInputs& in) {
  for (const CaptureSlot& file : CaptureSlots()) {
    if (file.kind != SlotKind::kFixed) continue;
    std::optional<std::string>& into = in.*file.text;
    std::string read_from;
    for (const char* name : file.names) {
      if ((into = ReadIfExists(root / name))) {
        read_from = (root / name).string();
        break;
      }
    }
    if (!file.tool) continue;
    if (into) {
      std::vector<std::string> warnings = EmptyFileWarning(*into);
      if (file.one_line) {
        for (std::string& w : OneLineWarnings(fs::path(read_from).filename().string(), *into)) warnings.push_back(std::move(w));
      }
      in.sources.push_back({file.tool, true, read_from, std::move(warnings)});
    } else if (file.absent == WhenAbsent::kNoted || (file.absent == WhenAbsent::kNotedOnEsxi && in.esxcli_nic_list)) {
      std::string also;
      for (size_t i = 1; i < file.names.size(); ++i) also += fmt::format("{}{}", i == 1 ? " (or " : ", ", file.names[i]);
      in.sources.push_back(
          {file.tool, false, fmt::format("{}{} not in the capture", file.names[0], also.empty() ? "" : also + ")"), {}});
    }
  }
}

// One per-object file into its map; one that cannot be read (permissions) is a source marked absent.
void KeepFile(const fs::path& path, std::map<std::string, std::string>& into, const std::string& key, const std::string& source,
              CollectInputs& in) {
  std::optional<std::string> text = ReadIfExists(path);
  std::vector<std::string> warnings = text ? EmptyFileWarning(*text) : std::vector<std::string>{};
  if (text) into[key] = std::move(*text);
  in.sources.push_back({source, text.has_value(), text ? path.string() : path.string() + ": unreadable", std::move(warnings)});
}

// Whether NAME is one of a kind of per-object file; reads it if so.
bool ReadPerObjectFile(const fs::path& path, const std::string& name, CollectInputs& in) {
  for (const CaptureSlot& file : CaptureSlots()) {
    if (file.kind != SlotKind::kPerObject) continue;
    const std::string_view prefix = file.names[0], suffix = file.suffix;
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) continue;
    const std::string object = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    KeepFile(path, in.*file.per_object, object, file.tool + object, in);
    return true;
  }
  // The configuration slots keep their own names: netplan-<file>.yaml (or .yml) as
  // /etc/netplan/<file>.yaml, ifcfg-<name> whole, as in network-scripts.
  if (name.starts_with("netplan-") && (name.ends_with(".yaml") || name.ends_with(".yml"))) {
    KeepFile(path, in.netplan, name.substr(8), "/etc/netplan/" + name.substr(8), in);
    return true;
  }
  if (name.starts_with("ifcfg-") && !name.ends_with(".txt")) {
    KeepFile(path, in.ifcfg, name, name, in);
    return true;
  }
  return false;
}

// Every file of the capture not read by a fixed name; any file railyard does not read is reported, never
// skipped in silence.
void ReadPerObjectFiles(const fs::path& root, CollectInputs& in) {
  std::set<std::string> fixed;  // read by their names, not here
  for (const CaptureSlot& file : CaptureSlots()) {
    if (file.kind == SlotKind::kFixed || file.kind == SlotKind::kIdentity || file.kind == SlotKind::kInterfaces)
      fixed.insert(file.names.begin(), file.names.end());
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> unknown;
  for (const fs::path& p : files) {
    const std::string name = p.filename().string();
    if (!ReadPerObjectFile(p, name, in) && !fixed.count(name)) unknown.push_back(name);
  }
  if (unknown.empty()) return;
  SourceStatus s{"capture directory", true, root.string(), {}};
  for (const std::string& name : unknown) {
    s.warnings.push_back(fmt::format("{}: not a capture file name railyard reads (docs/facts.md lists them); ignored", name));
  }
  in.sources.push_back(std::move(s));
}

// Interfaces: ip -j -d link (preferred) or the text of ip -d link (or ip -d addr: the same interface
// blocks, with inet lines); addresses from ip -j addr.
void ReadCaptureInterfaces(const fs::path& root, CollectInputs& in) {
  auto note = [&](const std::string& name, bool present, const std::string& detail) {
    in.sources.push_back({name, present, detail, {}});
  };
  std::optional<IpLinkReport> links;
  if (auto t = ReadIfExists(root / "ip-j-d-link.json")) {
    links = ParseIpLinkJson(*t);
    if (links->links.empty() && !links->warnings.empty()) {
      throw InputError((root / "ip-j-d-link.json").string(), links->warnings[0].line, 0, "",
                       "not `ip -j -d link` output: " + links->warnings[0].message);
    }
    note("ip -j -d link", true, (root / "ip-j-d-link.json").string());
  } else {
    for (auto [file, source] : {std::pair{"ip-d-link.txt", "ip -d link"}, std::pair{"ip-d-addr.txt", "ip -d addr"}}) {
      auto text = ReadIfExists(root / file);
      if (!text) continue;
      links = ParseIpLinkText(*text);
      note(source, true, (root / file).string());
      in.sources.back().warnings = EmptyFileWarning(*text);
      for (const ParseWarning& w : links->warnings)
        in.sources.back().warnings.push_back(fmt::format("line {}: {}", w.line, w.message));
      break;
    }
    if (!links) note("ip -j -d link", false, "ip-j-d-link.json (or ip-d-link.txt) not in the capture");
  }
  if (links) {
    for (const IpLink& l : links->links) in.netdevs.push_back(NetdevFromIpLink(l));
    in.ip_bonds = BondsFromIpLinks(links->links);
  }
  auto t = ReadIfExists(root / "ip-j-addr.json");
  if (!t) {
    note("ip -j addr", false, "ip-j-addr.json not in the capture");
    return;
  }
  IpAddrReport addrs = ParseIpAddrJson(*t);
  if (addrs.interfaces.empty() && !addrs.warnings.empty()) {
    throw InputError((root / "ip-j-addr.json").string(), addrs.warnings[0].line, 0, "", addrs.warnings[0].message);
  }
  note("ip -j addr", true, (root / "ip-j-addr.json").string());
  for (const IpAddrInterface& i : addrs.interfaces) {
    auto n = std::find_if(in.netdevs.begin(), in.netdevs.end(), [&](const NetdevSnapshot& x) { return x.name == i.name; });
    if (n == in.netdevs.end()) {
      // Not in the interface list (or no list was captured): the interface still exists, with its addresses.
      NetdevSnapshot s;
      s.name = i.name;
      s.kind = i.name == "lo" ? "loopback" : "other";
      in.netdevs.push_back(s);
      n = in.netdevs.end() - 1;
      in.sources.back().warnings.push_back(
          fmt::format("{}: in ip -j addr but not in the interface list; kept with its addresses", i.name));
    }
    for (const IpAddress& a : i.addresses) {
      if (a.scope != "link") n->addresses.push_back(fmt::format("{}/{}", a.address, a.prefix_length));
    }
  }
  if (addrs.interfaces.empty()) in.sources.back().warnings.push_back("line 1: nothing read: no interface found in this output");
}

}  // namespace

CollectInputs ReadCaptureDir(const std::string& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir, 0, 0, "", "not a directory");
  CollectInputs in;
  const fs::path root(dir);
  ReadCaptureIdentity(root, in);
  ReadFixedCaptureFiles(root, in);
  ReadPerObjectFiles(root, in);
  ReadCaptureInterfaces(root, in);
  return in;
}

}  // namespace railyard
