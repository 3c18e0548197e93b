#include "facts/capture_slots.h"

#include <string_view>

#include <fmt/format.h>

namespace railyard {

const std::vector<CaptureSlot>& CaptureSlots() {
  using W = WhenAbsent;
  using K = SlotKind;
  using L = LiveScope;
  using I = CollectInputs;
  static const std::vector<CaptureSlot> slots = {
      {.kind = K::kIdentity,
       .names = {"hostname.txt"},
       .command = "hostname",
       .identity = &I::hostname,
       .live = {.reads = "uname(2)"}},
      {.kind = K::kIdentity,
       .names = {"uname-r.txt"},
       .command = "uname -r",
       .identity = &I::kernel,
       .live = {.reads = "uname(2)"}},
      {.kind = K::kIdentity,
       .names = {"ofed_info-s.txt"},
       .tool = "ofed_info -s",
       .command = "ofed_info -s",
       .identity = &I::ofed,
       .live = {.scope = L::kOnce, .argv = {"ofed_info", "-s"}}},
      {.kind = K::kInterfaces,
       .names = {"ip-j-d-link.json", "ip-d-link.txt", "ip-d-addr.txt"},
       .tool = "ip link",
       .command = "ip -j -d link show",
       .live = {.reads = "/sys/class/net"}},
      {.kind = K::kInterfaces,
       .names = {"ip-j-addr.json"},
       .tool = "ip addr",
       .command = "ip -j addr show",
       .live = {.reads = "getifaddrs(3)"}},
      // The Mellanox/NVIDIA functions (LnkCap and VPD need root; what lspci cannot read it omits), then every
      // other network function (Ethernet 0200, Network 0280, InfiniBand 0207, Fabric 0208) with ids (-nn), so
      // that no other vendor's card is taken for a ConnectX.
      {.kind = K::kFixed,
       .names = {"lspci-vvv.txt"},
       .tool = "lspci -vvv",
       .command = "sudo lspci -vvv",
       .text = &I::lspci,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce,
                .argv = {"lspci", "-vvv", "-d", "15b3:"},
                .empty_ok = true,
                .also = {{"lspci", "-vvvnn", "-d", "::0200"},
                         {"lspci", "-vvvnn", "-d", "::0280"},
                         {"lspci", "-vvvnn", "-d", "::0207"},
                         {"lspci", "-vvvnn", "-d", "::0208"}}}},
      // Needs root where kernel.dmesg_restrict is set.
      {.kind = K::kFixed,
       .names = {"dmesg.txt"},
       .tool = "dmesg",
       .command = "sudo dmesg",
       .text = &I::dmesg,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"dmesg"}}},
      {.kind = K::kFixed,
       .names = {"nmcli.txt"},
       .tool = "nmcli",
       .command = "nmcli -t device status",
       .text = &I::nmcli,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"nmcli", "-t", "device", "status"}}},
      {.kind = K::kFixed,
       .names = {"ibstat.txt"},
       .tool = "ibstat",
       .command = "ibstat",
       .text = &I::ibstat,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"ibstat"}}},
      {.kind = K::kFixed,
       .names = {"ibdev2netdev.txt"},
       .tool = "ibdev2netdev",
       .command = "ibdev2netdev -v",
       .text = &I::ibdev2netdev,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"ibdev2netdev", "-v"}}},
      {.kind = K::kFixed,
       .names = {"mst-status.txt"},
       .tool = "mst status",
       .command = "mst status -v",
       .text = &I::mst_status,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"mst", "status", "-v"}, .only_if_installed = true}},
      {.kind = K::kFixed,
       .names = {"mlxfwmanager.txt", "mlxfwmanager.xml"},
       .tool = "mlxfwmanager --query",
       .command = "mlxfwmanager --query",
       .text = &I::mlxfwmanager,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"mlxfwmanager", "--query"}, .only_if_installed = true}},
      // The host's lldpctl in any of its output forms: json/json0, xml, plain or keyvalue text; live, the
      // neighbours of lldpd running on the host: which switch port each NIC reaches.
      {.kind = K::kFixed,
       .names = {"lldpctl.json", "lldpctl.xml", "lldpctl.txt"},
       .tool = "lldpctl -f json",
       .command = "lldpctl -f json",
       .text = &I::lldpctl,
       .absent = W::kNoted,
       .live = {.scope = L::kOnce, .argv = {"lldpctl", "-f", "json"}, .only_if_installed = true}},
      {.kind = K::kFixed,
       .names = {"ibstatus.txt"},
       .tool = "ibstatus",
       .command = "ibstatus",
       .text = &I::ibstatus,
       .live = {.scope = L::kOnce, .argv = {"ibstatus"}, .only_if_installed = true, .unless = {&I::ibstat}}},
      {.kind = K::kFixed,
       .names = {"devlink-dev-info.txt"},
       .tool = "devlink dev info",
       .command = "devlink dev info",
       .text = &I::devlink,
       .live = {.scope = L::kOnce, .argv = {"devlink", "dev", "info"}, .only_if_installed = true}},
      // Any vendor's RDMA ports (rdma-core's ibverbs-utils), where ibstat (infiniband-diags) is missing.
      {.kind = K::kFixed,
       .names = {"ibv_devinfo.txt"},
       .tool = "ibv_devinfo",
       .command = "ibv_devinfo -v",
       .text = &I::ibv_devinfo,
       .live = {.scope = L::kOnce, .argv = {"ibv_devinfo", "-v"}, .only_if_installed = true, .unless = {&I::ibstat}}},
      {.kind = K::kFixed,
       .names = {"rdma-link.txt"},
       .tool = "rdma link",
       .command = "rdma link show",
       .text = &I::rdma_link,
       .live = {.scope = L::kOnce,
                .argv = {"rdma", "link", "show"},
                .only_if_installed = true,
                .unless = {&I::ibstat, &I::ibstatus, &I::ibv_devinfo}}},
      // VMware ESXi (a capture made with esxcli; railyard does not run on ESXi).
      {.kind = K::kFixed,
       .names = {"esxcli-network-nic-list.txt"},
       .tool = "esxcli network nic list",
       .command = "esxcli network nic list",
       .text = &I::esxcli_nic_list},
      {.kind = K::kFixed,
       .names = {"esxcli-software-vib-list.txt"},
       .tool = "esxcli software vib list",
       .command = "esxcli software vib list",
       .text = &I::esxcli_vib_list,
       .absent = W::kNotedOnEsxi},
      {.kind = K::kFixed,
       .names = {"esxcli-hardware-pci-list.txt"},
       .tool = "esxcli hardware pci list",
       .command = "esxcli hardware pci list",
       .text = &I::esxcli_pci_list,
       .absent = W::kNotedOnEsxi},
      {.kind = K::kFixed, .names = {"vmware-vl.txt"}, .command = "vmware -vl", .text = &I::vmware_version},
      {.kind = K::kFixed,
       .names = {"lsusb-t.txt"},
       .tool = "lsusb -t",
       .command = "lsusb -t",
       .text = &I::lsusb,
       .live = {.scope = L::kOnce, .argv = {"lsusb", "-t"}, .only_if_installed = true, .empty_ok = true}},
      {.kind = K::kFixed,
       .names = {"dmidecode.txt"},
       .tool = "dmidecode",
       .command = "dmidecode -t system -t bios -t baseboard",
       .text = &I::dmidecode,
       .absent = W::kNoted,
       .live = {.reads = "/sys/class/dmi/id"}},
      {.kind = K::kFixed,
       .names = {"os-release.txt"},
       .tool = "os-release",
       .command = "cat /etc/os-release",
       .text = &I::os_release,
       .absent = W::kNoted,
       .live = {.reads = "/etc/os-release"}},
      {.kind = K::kFixed,
       .names = {"proc-cmdline.txt"},
       .tool = "/proc/cmdline",
       .command = "cat /proc/cmdline",
       .text = &I::cmdline,
       .absent = W::kNoted,
       .one_line = true,
       .live = {.reads = "/proc/cmdline"}},
      {.kind = K::kPerObject,
       .names = {"esxcli-network-nic-get-"},
       .suffix = ".txt",
       .object = "vmnic",
       .example = "vmnic9",
       .tool = "esxcli network nic get -n ",
       .command = "esxcli network nic get -n VMNIC",
       .per_object = &I::esxcli_nic_get},
      {.kind = K::kPerObject,
       .names = {"flint-q-"},
       .suffix = ".txt",
       .object = "pci address",
       .example = "19:00.0",
       .tool = "flint q ",
       .command = "mstflint -d BDF q",
       .per_object = &I::flint,
       .live = {.scope = L::kEachCard, .argv = {"mstflint", "-d", "{}", "q"}}},
      {.kind = K::kPerObject,
       .names = {"ethtool-i-"},
       .suffix = ".txt",
       .object = "if",
       .example = "eth9",
       .tool = "ethtool -i ",
       .command = "ethtool -i IF",
       .per_object = &I::ethtool_info,
       .live = {.scope = L::kEachNetdev, .argv = {"ethtool", "-i", "{}"}}},
      {.kind = K::kPerObject,
       .names = {"ethtool-m-"},
       .suffix = ".txt",
       .object = "if",
       .example = "eth9",
       .tool = "ethtool -m ",
       .command = "ethtool -m IF",
       .per_object = &I::ethtool_module,
       .live = {.scope = L::kEachPhysicalNetdev, .argv = {"ethtool", "-m", "{}"}}},
      {.kind = K::kPerObject,
       .names = {"ethtool-S-"},
       .suffix = ".txt",
       .object = "if",
       .example = "eth9",
       .tool = "ethtool -S ",
       .command = "ethtool -S IF",
       .per_object = &I::ethtool_stats,
       .live = {.scope = L::kEachPhysicalNetdev, .argv = {"ethtool", "-S", "{}"}}},
      {.kind = K::kPerObject,
       .names = {"mstvpd-"},
       .suffix = ".txt",
       .object = "pci address",
       .example = "19:00.0",
       .tool = "mstvpd ",
       .command = "mstvpd BDF",
       .per_object = &I::mstvpd,
       .live = {.reads = "/sys/bus/pci/devices/BDF/vpd (the vpd- slot)"}},
      {.kind = K::kPerObject,
       .names = {"vpd-"},
       .suffix = ".bin",
       .object = "pci address",
       .example = "19:00.0",
       .tool = "vpd ",
       .command = "cat /sys/bus/pci/devices/BDF/vpd",
       .per_object = &I::vpd,
       .live = {.reads = "/sys/bus/pci/devices/BDF/vpd"}},
      {.kind = K::kPerObject,
       .names = {"ethtool-"},
       .suffix = ".txt",
       .object = "if",
       .example = "eth9",
       .tool = "ethtool ",
       .command = "ethtool IF",
       .per_object = &I::ethtool,
       .live = {.scope = L::kEachNetdev, .argv = {"ethtool", "{}"}}},
      // MLNX_OFED / mlnx-tools, asked only about the ports with RoCE ECN knobs (Mellanox ports).
      {.kind = K::kPerObject,
       .names = {"mlnx_qos-"},
       .suffix = ".txt",
       .object = "if",
       .example = "eth9",
       .tool = "mlnx_qos -i ",
       .command = "mlnx_qos -i IF",
       .per_object = &I::mlnx_qos,
       .live = {.scope = L::kEachRoceNetdev, .argv = {"mlnx_qos", "-i", "{}"}, .only_if_installed = true}},
      {.kind = K::kPerObject,
       .names = {"ecn-"},
       .suffix = ".txt",
       .object = "if",
       .example = "eth9",
       .tool = "ecn ",
       .command = "grep -H . /sys/class/net/IF/ecn/roce_*/enable/*",
       .per_object = &I::ecn,
       .live = {.reads = "/sys/class/net/IF/ecn"}},
      {.kind = K::kPerObject,
       .names = {"mlxlink-"},
       .suffix = ".txt",
       .object = "rdma device",
       .example = "mlx5_9",
       .tool = "mlxlink ",
       .command = "mlxlink -d DEV -c -m",
       .per_object = &I::mlxlink,
       .live = {.scope = L::kEachIbstatCa, .argv = {"mlxlink", "-d", "{}", "-c", "-m"}, .only_if_installed = true}},
      {.kind = K::kPerObject,
       .names = {"bonding-"},
       .suffix = ".txt",
       .object = "bond",
       .example = "bond9",
       .tool = "/proc/net/bonding/",
       .command = "cat /proc/net/bonding/BOND",
       .per_object = &I::bonding,
       .live = {.reads = "/proc/net/bonding"}},
      // Configuration files keep their own names: netplan-<file>.yaml as /etc/netplan/<file>.yaml,
      // ifcfg-<name> as in network-scripts.
      {.kind = K::kConfig,
       .names = {"netplan-"},
       .suffix = ".yaml",
       .object = "file",
       .example = "99-test",
       .tool = "/etc/netplan/",
       .command = "cat /etc/netplan/FILE.yaml",
       .per_object = &I::netplan,
       .live = {.reads = "/etc/netplan"}},
      {.kind = K::kConfig,
       .names = {"ifcfg-"},
       .object = "name",
       .example = "eth9",
       .tool = "",
       .command = "cp /etc/sysconfig/network-scripts/ifcfg-* .",
       .per_object = &I::ifcfg,
       .live = {.reads = "/etc/sysconfig/network-scripts"}},
  };
  return slots;
}

std::vector<std::string> ExampleCaptureFileNames() {
  std::vector<std::string> out;
  for (const CaptureSlot& s : CaptureSlots()) {
    if (s.kind == SlotKind::kPerObject || s.kind == SlotKind::kConfig) {
      out.push_back(std::string(s.names[0]) + s.example + s.suffix);
    } else {
      for (const char* name : s.names) out.push_back(name);
    }
  }
  return out;
}

std::vector<std::string> DocumentedNames(const CaptureSlot& slot) {
  if (slot.kind == SlotKind::kPerObject || slot.kind == SlotKind::kConfig)
    return {fmt::format("{}<{}>{}", slot.names[0], slot.object, slot.suffix)};
  return {slot.names.begin(), slot.names.end()};
}

std::string IdentityValue(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (!line.empty() && line.back() == ':') line.pop_back();
  return line;
}

std::string LiveCommandText(const CaptureSlot& slot) {
  const char* word = "";
  switch (slot.live.scope) {
    case LiveScope::kNone:
      return "";
    case LiveScope::kOnce:
      break;
    case LiveScope::kEachNetdev:
    case LiveScope::kEachPhysicalNetdev:
    case LiveScope::kEachRoceNetdev:
      word = "IF";
      break;
    case LiveScope::kEachCard:
      word = "BDF";
      break;
    case LiveScope::kEachIbstatCa:
      word = "DEV";
      break;
  }
  std::string out;
  for (const char* arg : slot.live.argv) {
    if (!out.empty()) out += ' ';
    out += std::string_view(arg) == "{}" ? word : arg;
  }
  return out;
}

std::string CaptureSlotsTable() {
  std::string out = fmt::format("{:<40} {:<46} {}\n", "FILE", "MADE BY", "LIVE (railyard collect)");
  for (const CaptureSlot& s : CaptureSlots()) {
    std::string live = LiveCommandText(s);
    if (live.empty()) live = *s.live.reads ? fmt::format("reads {}", s.live.reads) : "not collected live";
    if (s.live.only_if_installed) live += " if installed";
    for (size_t i = 0; i < s.live.unless.size(); ++i) {
      for (const CaptureSlot& other : CaptureSlots()) {
        if (other.text == s.live.unless[i]) live += fmt::format("{}{}", i == 0 ? ", without " : " or ", other.names[0]);
      }
    }
    const std::vector<std::string> names = DocumentedNames(s);
    for (size_t i = 0; i < names.size(); ++i) {
      out += i == 0 ? fmt::format("{:<40} {:<46} {}\n", names[i], s.command, live)
                    : fmt::format("{:<40} {}\n", names[i], "  (the same, in another form)");
    }
  }
  return out;
}

}  // namespace railyard
