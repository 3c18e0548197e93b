#include "facts/capture_slots.h"

#include <fmt/format.h>

namespace railyard {

const std::vector<CaptureSlot>& CaptureSlots() {
  using W = WhenAbsent;
  using K = SlotKind;
  using I = CollectInputs;
  static const std::vector<CaptureSlot> slots = {
      {K::kIdentity, {"hostname.txt"}, "", "", "", nullptr, "hostname"},
      {K::kIdentity, {"uname-r.txt"}, "", "", "", nullptr, "uname -r"},
      {K::kIdentity, {"ofed_info-s.txt"}, "", "", "", "ofed_info -s", "ofed_info -s"},
      {K::kInterfaces, {"ip-j-d-link.json", "ip-d-link.txt", "ip-d-addr.txt"}, "", "", "", "ip link", "ip -j -d link show"},
      {K::kInterfaces, {"ip-j-addr.json"}, "", "", "", "ip addr", "ip -j addr show"},
      {K::kFixed, {"lspci-vvv.txt"}, "", "", "", "lspci -vvv", "sudo lspci -vvv", &I::lspci, nullptr, W::kNoted},
      {K::kFixed, {"dmesg.txt"}, "", "", "", "dmesg", "sudo dmesg", &I::dmesg, nullptr, W::kNoted},
      {K::kFixed, {"nmcli.txt"}, "", "", "", "nmcli", "nmcli -t device status", &I::nmcli, nullptr, W::kNoted},
      {K::kFixed, {"ibstat.txt"}, "", "", "", "ibstat", "ibstat", &I::ibstat, nullptr, W::kNoted},
      {K::kFixed, {"ibdev2netdev.txt"}, "", "", "", "ibdev2netdev", "ibdev2netdev -v", &I::ibdev2netdev, nullptr, W::kNoted},
      {K::kFixed, {"mst-status.txt"}, "", "", "", "mst status", "mst status -v", &I::mst_status, nullptr, W::kNoted},
      {K::kFixed,
       {"mlxfwmanager.txt", "mlxfwmanager.xml"},
       "",
       "",
       "",
       "mlxfwmanager --query",
       "mlxfwmanager --query",
       &I::mlxfwmanager,
       nullptr,
       W::kNoted},
      // The host's lldpctl in any of its output forms: json/json0, xml, plain or keyvalue text.
      {K::kFixed,
       {"lldpctl.json", "lldpctl.xml", "lldpctl.txt"},
       "",
       "",
       "",
       "lldpctl -f json",
       "lldpctl -f json",
       &I::lldpctl,
       nullptr,
       W::kNoted},
      {K::kFixed, {"ibstatus.txt"}, "", "", "", "ibstatus", "ibstatus", &I::ibstatus},
      {K::kFixed, {"devlink-dev-info.txt"}, "", "", "", "devlink dev info", "devlink dev info", &I::devlink},
      {K::kFixed, {"ibv_devinfo.txt"}, "", "", "", "ibv_devinfo", "ibv_devinfo -v", &I::ibv_devinfo},
      {K::kFixed, {"rdma-link.txt"}, "", "", "", "rdma link", "rdma link show", &I::rdma_link},
      {K::kFixed,
       {"esxcli-network-nic-list.txt"},
       "",
       "",
       "",
       "esxcli network nic list",
       "esxcli network nic list",
       &I::esxcli_nic_list},
      {K::kFixed,
       {"esxcli-software-vib-list.txt"},
       "",
       "",
       "",
       "esxcli software vib list",
       "esxcli software vib list",
       &I::esxcli_vib_list,
       nullptr,
       W::kNotedOnEsxi},
      {K::kFixed,
       {"esxcli-hardware-pci-list.txt"},
       "",
       "",
       "",
       "esxcli hardware pci list",
       "esxcli hardware pci list",
       &I::esxcli_pci_list,
       nullptr,
       W::kNotedOnEsxi},
      {K::kFixed, {"vmware-vl.txt"}, "", "", "", nullptr, "vmware -vl", &I::vmware_version},
      {K::kFixed, {"lsusb-t.txt"}, "", "", "", "lsusb -t", "lsusb -t", &I::lsusb},
      {K::kFixed,
       {"dmidecode.txt"},
       "",
       "",
       "",
       "dmidecode",
       "dmidecode -t system -t bios -t baseboard",
       &I::dmidecode,
       nullptr,
       W::kNoted},
      {K::kFixed, {"os-release.txt"}, "", "", "", "os-release", "cat /etc/os-release", &I::os_release, nullptr, W::kNoted},
      {K::kFixed, {"proc-cmdline.txt"}, "", "", "", "/proc/cmdline", "cat /proc/cmdline", &I::cmdline, nullptr, W::kNoted, true},
      {K::kPerObject,
       {"esxcli-network-nic-get-"},
       ".txt",
       "vmnic",
       "vmnic9",
       "esxcli network nic get -n ",
       "esxcli network nic get -n VMNIC",
       nullptr,
       &I::esxcli_nic_get},
      {K::kPerObject, {"flint-q-"}, ".txt", "pci address", "19:00.0", "flint q ", "mstflint -d BDF q", nullptr, &I::flint},
      {K::kPerObject, {"ethtool-i-"}, ".txt", "if", "eth9", "ethtool -i ", "ethtool -i IF", nullptr, &I::ethtool_info},
      {K::kPerObject, {"ethtool-m-"}, ".txt", "if", "eth9", "ethtool -m ", "ethtool -m IF", nullptr, &I::ethtool_module},
      {K::kPerObject, {"ethtool-S-"}, ".txt", "if", "eth9", "ethtool -S ", "ethtool -S IF", nullptr, &I::ethtool_stats},
      {K::kPerObject, {"mstvpd-"}, ".txt", "pci address", "19:00.0", "mstvpd ", "mstvpd BDF", nullptr, &I::mstvpd},
      {K::kPerObject, {"vpd-"}, ".bin", "pci address", "19:00.0", "vpd ", "cat /sys/bus/pci/devices/BDF/vpd", nullptr, &I::vpd},
      {K::kPerObject, {"ethtool-"}, ".txt", "if", "eth9", "ethtool ", "ethtool IF", nullptr, &I::ethtool},
      {K::kPerObject, {"mlnx_qos-"}, ".txt", "if", "eth9", "mlnx_qos -i ", "mlnx_qos -i IF", nullptr, &I::mlnx_qos},
      {K::kPerObject,
       {"ecn-"},
       ".txt",
       "if",
       "eth9",
       "ecn ",
       "grep -H . /sys/class/net/IF/ecn/roce_*/enable/*",
       nullptr,
       &I::ecn},
      {K::kPerObject, {"mlxlink-"}, ".txt", "rdma device", "mlx5_9", "mlxlink ", "mlxlink -d DEV -c -m", nullptr, &I::mlxlink},
      {K::kPerObject,
       {"bonding-"},
       ".txt",
       "bond",
       "bond9",
       "/proc/net/bonding/",
       "cat /proc/net/bonding/BOND",
       nullptr,
       &I::bonding},
      // Configuration files keep their own names: netplan-<file>.yaml as /etc/netplan/<file>.yaml,
      // ifcfg-<name> as in network-scripts.
      {K::kConfig, {"netplan-"}, ".yaml", "file", "99-test", "/etc/netplan/", "cat /etc/netplan/FILE.yaml", nullptr, &I::netplan},
      {K::kConfig, {"ifcfg-"}, "", "name", "eth9", "", "cp /etc/sysconfig/network-scripts/ifcfg-* .", nullptr, &I::ifcfg},
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

std::string CaptureSlotsTable() {
  std::string out = fmt::format("{:<40} {}\n", "FILE", "MADE BY");
  for (const CaptureSlot& s : CaptureSlots()) {
    const std::vector<std::string> names = DocumentedNames(s);
    for (size_t i = 0; i < names.size(); ++i) {
      out += fmt::format("{:<40} {}\n", names[i], i == 0 ? s.command : "  (the same, in another form)");
    }
  }
  return out;
}

}  // namespace railyard
