// PCIe and NIC bring-up rules: the slot a card trained in, and whether its firmware runs.
#include <set>

#include <fmt/format.h>

#include "doctor/rules.h"
#include "model/units.h"

namespace railyard {
namespace {

std::string Link(const PcieLink& l) {
  return l.speed_gts > 0 ? fmt::format("{:g} GT/s (Gen{}) x{}", l.speed_gts, PcieGeneration(l.speed_gts), l.width) : "unknown";
}

void LinkDowngraded(RuleContext& c) {
  std::set<std::string> seen;
  for (const PciFunction& p : c.facts.pci) {
    if (p.cap.speed_gts <= 0 || p.sta.speed_gts <= 0 || p.cap.width == 0 || p.sta.width == 0) continue;
    bool slower = p.sta.speed_gts < p.cap.speed_gts || p.sta.speed_downgraded;
    bool narrower = p.sta.width < p.cap.width || p.sta.width_downgraded;
    if (!slower && !narrower) continue;
    seen.insert(p.bdf);
    c.Report(fmt::format("PCI {}", p.bdf),
             fmt::format("the card trained at {} but is capable of {}: {} of its PCIe bandwidth is lost",
                         Link(p.sta), Link(p.cap), narrower && slower ? "most" : "part"),
             "reseat the card, or move it to a slot wired for the full width and generation; check the riser, "
             "the BIOS slot setting (bifurcation, link speed) and the upstream port in the kernel message")
        .evidence = {{"LnkCap", Link(p.cap)}, {"LnkSta", Link(p.sta)}, {"device", p.description}};
  }
  for (const KernelEvent& e : c.facts.kernel_events) {
    if (e.kind != KernelEventKind::kPcieBandwidthLimited) continue;
    bool already = false;
    for (const std::string& b : seen) already = already || SamePciAddress(b, e.device);
    if (already) continue;
    seen.insert(e.device);
    auto value = [&](const char* k) { auto it = e.values.find(k); return it == e.values.end() ? std::string() : it->second; };
    c.Report(fmt::format("PCI {}", e.device),
             fmt::format("the kernel reports {} Gb/s of PCIe bandwidth, limited by {} (capable of {} Gb/s)",
                         value("available_gbps"), value("limited_by"), value("capable_gbps")),
             "the limiting link is named in the message: reseat the card or move it to a full-width slot of the "
             "card's generation")
        .evidence = {{"dmesg", e.message}};
  }
}

void SlotBelowLineRate(RuleContext& c) {
  for (const PciFunction& p : c.facts.pci) {
    int gen = PcieGeneration(p.sta.speed_gts);
    if (gen == 0 || p.sta.width == 0) continue;
    double usable = PcieGbps(gen, p.sta.width);
    double rate = PortRateGbps(c.facts, p.bdf);
    if (rate <= 0 || usable >= rate) continue;
    c.Report(fmt::format("PCI {}", p.bdf),
             fmt::format("the port runs at {:g} Gb/s but the slot's PCIe link carries at most {:.0f} Gb/s: the NIC cannot "
                         "reach line rate", rate, usable),
             "put the card in a slot of its own generation at x16 (400G needs Gen5 x16; 200G Gen4 x16)")
        .evidence = {{"LnkSta", Link(p.sta)}, {"port_rate_gbps", fmt::format("{:g}", rate)},
                     {"pcie_usable_gbps", fmt::format("{:.0f}", usable)}};
  }
}

void FirmwareNotRunning(RuleContext& c) {
  for (const PciFunction& p : c.facts.pci) {
    if (p.description.find("Flash Recovery") == std::string::npos && p.description.find("Recovery Mode") == std::string::npos) continue;
    c.Report(fmt::format("PCI {}", p.bdf), "the card enumerates in its flash-recovery identity: no firmware is running",
             "burn a firmware image for the card's PSID with mstflint/flint (mlxfwmanager finds it), then cold-boot")
        .evidence = {{"device", p.description}};
  }
  for (const KernelEvent& e : c.facts.kernel_events) {
    const char* what = e.kind == KernelEventKind::kProbeFailed       ? "the driver's probe failed"
                       : e.kind == KernelEventKind::kLoadFailed      ? "the driver could not load the device"
                       : e.kind == KernelEventKind::kFirmwareTimeout ? "the firmware did not finish initialising"
                                                                     : nullptr;
    if (!what) continue;
    c.Report(fmt::format("PCI {}", e.device.empty() ? "?" : e.device), fmt::format("{}: the NIC is not usable", what),
             "read the full dmesg around it; check the firmware (flint q), power-cycle the host (not a warm reboot), "
             "and reflash the firmware if it persists")
        .evidence = {{"dmesg", e.message}, {"line", std::to_string(e.line)}};
  }
}

// "MT2910 Family [ConnectX-7]" -> "ConnectX-7".
std::string Family(const std::string& description) {
  size_t open = description.rfind('['), close = description.rfind(']');
  return open != std::string::npos && close > open ? description.substr(open + 1, close - open - 1) : std::string();
}

void FirmwareBelowBaseline(RuleContext& c) {
  if (c.policy.firmware_baseline.empty()) return;
  for (const auto& [bdf, q] : c.facts.firmware) {
    std::string family;
    for (const PciFunction& p : c.facts.pci) {
      if (SamePciAddress(p.bdf, bdf)) family = Family(p.description);
    }
    auto it = c.policy.firmware_baseline.find(q.psid);
    if (it == c.policy.firmware_baseline.end() && !family.empty()) it = c.policy.firmware_baseline.find(family);
    if (it == c.policy.firmware_baseline.end() || q.fw_version.empty() || CompareVersions(q.fw_version, it->second) >= 0) continue;
    c.Report(fmt::format("PCI {}", bdf), fmt::format("firmware {} is below the baseline {} for {}", q.fw_version, it->second, it->first),
             fmt::format("update with `mlxfwmanager -u -d {}` (or flint burn of the {} image for PSID {}), then mlxfwreset or reboot",
                         bdf, it->second, q.psid))
        .evidence = {{"fw_version", q.fw_version}, {"baseline", it->second}, {"psid", q.psid}};
  }
}

void IommuOff(RuleContext& c) {
  const auto& p = c.facts.kernel_params;
  if (c.facts.kernel_cmdline.empty()) return;
  auto has = [&](const char* k, const char* v) { auto it = p.find(k); return it != p.end() && it->second == v; };
  bool off = has("intel_iommu", "off") || has("amd_iommu", "off") || has("iommu", "off");
  bool on = has("intel_iommu", "on") || has("amd_iommu", "on") || has("iommu", "pt") || has("iommu", "on");
  if (!off && !(c.policy.require_iommu && !on)) return;
  c.Report("kernel command line",
           off ? "the IOMMU is turned off on the kernel command line: SR-IOV VFs cannot be passed to VMs or containers, and "
                 "GPUDirect RDMA with ATS/ACS setups misbehave"
               : "the policy requires the IOMMU (VMs / SR-IOV passthrough) but the kernel command line does not enable it",
           "add intel_iommu=on iommu=pt (Intel) or amd_iommu=on iommu=pt (AMD) to GRUB_CMDLINE_LINUX, update-grub, reboot")
      .evidence = {{"cmdline", c.facts.kernel_cmdline}};
}

}  // namespace

void AddPcieRules(std::vector<HostRule>& rules) {
  rules.push_back({"pcie-link-downgraded", Severity::kError, "PCIe link trained below the card's capability", LinkDowngraded});
  rules.push_back({"pcie-slot-below-line-rate", Severity::kError, "PCIe bandwidth below the ports' line rate", SlotBelowLineRate});
  rules.push_back({"nic-firmware-not-running", Severity::kError, "flash recovery, probe failure or firmware timeout", FirmwareNotRunning});
  rules.push_back({"firmware-below-baseline", Severity::kWarning, "firmware older than the policy's baseline for its PSID or family", FirmwareBelowBaseline});
  rules.push_back({"iommu-off", Severity::kWarning, "IOMMU off on the kernel command line (or not on, where the policy requires it)", IommuOff});
}

}  // namespace railyard
