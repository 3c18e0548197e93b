// PCIe and NIC bring-up rules: the slot a card trained in, and whether its firmware runs.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "catalog/compatibility.h"
#include "catalog/identity.h"
#include "doctor/policy.h"
#include "doctor/rules.h"
#include "model/units.h"
#include "util/csv.h"

namespace railyard {
namespace {

const PolicyKey<std::map<std::string, std::string>> kFirmwareBaseline{
    "firmware_baseline",
    {},
    "a mapping of PSID or family to version",
    "PSID or family (\"ConnectX-7\") -> minimum firmware version",
    {"firmware-below-baseline"}};
const PolicyKey<bool> kRequireIommu{
    "require_iommu", false, "true or false", "hosts pass NICs to VMs: the IOMMU must be on", {"iommu-off"}};
const PolicyKey<bool> kRequireSriov{
    "require_sriov", false, "true or false", "hosts hand VFs to VMs or pods: SR-IOV on, VFs created", {"sriov-off"}};
const PolicyKey<std::string> kDriverStack{"driver_stack",           "",
                                          "any, mlnx_ofed or doca", "the driver stack `ofed_info -s` must show",
                                          {"driver-stack-missing"}, OneOf({"any", "mlnx_ofed", "doca"})};

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
             fmt::format("the card trained at {} but is capable of {}: {} of its PCIe bandwidth is lost", Link(p.sta),
                         Link(p.cap), narrower && slower ? "most" : "part"),
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
    auto value = [&](const char* k) {
      auto it = e.values.find(k);
      return it == e.values.end() ? std::string() : it->second;
    };
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
                         "reach line rate",
                         rate, usable),
             "put the card in a slot of its own generation at x16 (400G needs Gen5 x16; 200G Gen4 x16)")
        .evidence = {{"LnkSta", Link(p.sta)},
                     {"port_rate_gbps", fmt::format("{:g}", rate)},
                     {"pcie_usable_gbps", fmt::format("{:.0f}", usable)}};
  }
}

void FirmwareNotRunning(RuleContext& c) {
  for (const PciFunction& p : c.facts.pci) {
    if (p.description.find("Flash Recovery") == std::string::npos && p.description.find("Recovery Mode") == std::string::npos)
      continue;
    c.Report(fmt::format("PCI {}", p.bdf), "the card enumerates in its flash-recovery identity: no firmware is running",
             "burn a firmware image for the card's PSID with mstflint/flint (mlxfwmanager finds it), then cold-boot")
        .evidence = {{"device", p.description}};
  }
  for (const KernelEvent& e : c.facts.kernel_events) {
    if (!e.driver.starts_with("mlx") && e.driver != "pci") continue;  // other drivers: nic-probe-failed
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

// Firmware burned but not running: flint/mstflint's "FW Version(Running)", mlxup/mlxfwmanager's
// "FW (Running)" row, or the flash version against what the driver reports running (ethtool -i,
// ibstat) for the same card. Tools print "Up to date" in this state: the flash is, the card is not.
void FirmwarePendingActivation(RuleContext& c) {
  struct Card {
    std::string flashed, flashed_from, running, running_from;
  };
  std::map<std::string, Card> cards;  // by PCI address as the flash tool names it
  for (const auto& [bdf, q] : c.facts.firmware) {
    Card& card = cards[bdf];
    card.flashed = q.fw_version;
    card.flashed_from = "flint q";
    if (!q.running_fw_version.empty()) {
      card.running = q.running_fw_version;
      card.running_from = "flint q (FW Version(Running))";
    }
  }
  for (const FwManagerDevice& d : c.facts.firmware_images) {
    std::string bdf = d.pci_device_name;
    for (const MstDevice& m : c.facts.mst) {
      if (m.mst_path == d.pci_device_name && !m.pci_address.empty()) bdf = m.pci_address;
    }
    auto it = std::find_if(cards.begin(), cards.end(), [&](const auto& kv) { return SamePciAddress(kv.first, bdf); });
    Card& card = it != cards.end() ? it->second : cards[bdf];
    if (card.flashed.empty()) {
      card.flashed = FlashedFirmware(d);
      card.flashed_from = "mlxfwmanager";
    }
    if (card.running.empty() && d.versions.count("FW (Running)")) {
      card.running = RunningFirmware(d);
      card.running_from = "mlxfwmanager (FW (Running))";
    }
  }
  // devlink: the kernel's own view of running and stored firmware per function.
  for (const DevlinkDevice& d : c.facts.devlink) {
    if (d.stored_fw.empty() || d.running_fw.empty()) continue;
    auto it = std::find_if(cards.begin(), cards.end(), [&](const auto& kv) { return SamePciAddress(kv.first, d.pci_address); });
    // One finding per card: its functions report the same firmware.
    std::string card_key = d.pci_address.substr(0, d.pci_address.rfind('.'));
    auto same_card = std::find_if(cards.begin(), cards.end(),
                                  [&](const auto& kv) { return kv.first.substr(0, kv.first.rfind('.')) == card_key; });
    Card& card = it != cards.end() ? it->second : same_card != cards.end() ? same_card->second : cards[d.pci_address];
    if (card.flashed.empty()) {
      card.flashed = d.stored_fw;
      card.flashed_from = "devlink dev info (stored)";
    }
    if (card.running.empty()) {
      card.running = d.running_fw;
      card.running_from = "devlink dev info (running)";
    }
  }
  for (auto& [bdf, card] : cards) {
    if (!card.running.empty()) continue;
    for (const NetdevFacts& n : c.facts.netdevs) {
      if (!SamePciAddress(n.pci_bdf, bdf) || n.firmware_version.empty()) continue;
      card.running = n.firmware_version.substr(0, n.firmware_version.find(' '));
      card.running_from = "ethtool -i " + n.name;
      break;
    }
    for (const RdmaFacts& r : c.facts.rdma) {
      if (!card.running.empty() || !SamePciAddress(r.pci_bdf, bdf) || r.ca.firmware_version.empty()) continue;
      card.running = r.ca.firmware_version;
      card.running_from = "ibstat " + r.ca.name;
    }
  }
  for (const auto& [bdf, card] : cards) {
    if (card.flashed.empty() || card.running.empty() || CompareVersions(card.flashed, card.running) == 0) continue;
    c.Report(
         fmt::format("PCI {}", bdf),
         fmt::format("firmware {} is burned in flash but {} is running: the new image takes effect only after a firmware "
                     "reset or cold reboot, and until then the card runs the old one (tools may still say \"Up to date\")",
                     card.flashed, card.running),
         fmt::format("activate it: `mlxfwreset -d {} reset` (or a cold reboot / power cycle where mlxfwreset is not supported), "
                     "then check that flint q shows no FW Version(Running) line",
                     bdf))
        .evidence = {{"flashed", card.flashed},
                     {"flashed_from", card.flashed_from},
                     {"running", card.running},
                     {"running_from", card.running_from}};
  }
}

// "MT2910 Family [ConnectX-7]" -> "ConnectX-7".
std::string Family(const std::string& description) {
  size_t open = description.rfind('['), close = description.rfind(']');
  return open != std::string::npos && close > open ? description.substr(open + 1, close - open - 1) : std::string();
}

void FirmwareBelowBaseline(RuleContext& c) {
  const std::map<std::string, std::string>& baseline = c.policy.Get(kFirmwareBaseline);
  if (baseline.empty()) return;
  for (const auto& [bdf, q] : c.facts.firmware) {
    std::string family;
    for (const PciFunction& p : c.facts.pci) {
      if (SamePciAddress(p.bdf, bdf)) family = Family(p.description);
    }
    auto it = baseline.find(q.psid);
    if (it == baseline.end() && !family.empty()) it = baseline.find(family);
    if (it == baseline.end() || q.fw_version.empty() || CompareVersions(q.fw_version, it->second) >= 0) continue;
    c.Report(
         fmt::format("PCI {}", bdf),
         fmt::format("firmware {} is below the baseline {} for {}", q.fw_version, it->second, it->first),
         fmt::format("update with `mlxfwmanager -u -d {}` (or flint burn of the {} image for PSID {}), then mlxfwreset or reboot",
                     bdf, it->second, q.psid))
        .evidence = {{"fw_version", q.fw_version}, {"baseline", it->second}, {"psid", q.psid}};
  }
}

void IommuOff(RuleContext& c) {
  const auto& p = c.facts.kernel_params;
  if (c.facts.kernel_cmdline.empty()) return;
  auto has = [&](const char* k, const char* v) {
    auto it = p.find(k);
    return it != p.end() && it->second == v;
  };
  bool off = has("intel_iommu", "off") || has("amd_iommu", "off") || has("iommu", "off");
  bool on = has("intel_iommu", "on") || has("amd_iommu", "on") || has("iommu", "pt") || has("iommu", "on");
  if (!off && !(c.policy.Get(kRequireIommu) && !on)) return;
  c.Report("kernel command line",
           off ? "the IOMMU is turned off on the kernel command line: SR-IOV VFs cannot be passed to VMs or containers, and "
                 "GPUDirect RDMA with ATS/ACS setups misbehave"
               : "the policy requires the IOMMU (VMs / SR-IOV passthrough) but the kernel command line does not enable it",
           "add intel_iommu=on iommu=pt (Intel) or amd_iommu=on iommu=pt (AMD) to GRUB_CMDLINE_LINUX, update-grub, reboot")
      .evidence = {{"cmdline", c.facts.kernel_cmdline}};
}

bool IsVirtualFunction(const PciFunction& p) { return p.description.find("Virtual Function") != std::string::npos; }

void PowerSavingOn(RuleContext& c) {
  for (const PciFunction& p : c.facts.pci) {
    if (p.aspm.empty() || p.aspm == "Disabled" || IsVirtualFunction(p)) continue;
    c.Report(fmt::format("PCI {}", p.bdf),
             fmt::format("PCIe ASPM is on ({}): the link drops into low-power states between bursts and every wake-up adds "
                         "microseconds to RDMA latency",
                         p.aspm),
             "turn ASPM off: BIOS (PCIe ASPM support = Disabled) or pcie_aspm=off on the kernel command line; "
             "check /sys/module/pcie_aspm/parameters/policy is not powersave")
        .evidence = {{"LnkCtl", "ASPM " + p.aspm}, {"device", p.description}};
  }
}

void SriovOff(RuleContext& c) {
  if (!c.policy.Get(kRequireSriov)) return;
  for (const PciFunction& p : c.facts.pci) {
    // A PF whose capabilities lspci could read (LnkCap needs root; without it the list is absent).
    if (IsVirtualFunction(p) || p.cap.width == 0) continue;
    std::string why, fix;
    if (p.sriov_total_vfs < 0) {
      why = "the card exposes no SR-IOV capability: SR-IOV is off in its firmware";
      fix = fmt::format("mlxconfig -d {} set SRIOV_EN=1 NUM_OF_VFS=<n>, then a cold reboot (or mlxfwreset)", p.bdf);
    } else if (p.sriov_total_vfs == 0) {
      why = "SR-IOV is on but the firmware offers 0 VFs";
      fix = fmt::format("mlxconfig -d {} set NUM_OF_VFS=<n>, then a cold reboot", p.bdf);
    } else if (p.sriov_num_vfs == 0) {
      why = fmt::format("no VFs are created ({} available)", p.sriov_total_vfs);
      fix = "echo <n> > /sys/bus/pci/devices/<bdf>/sriov_numvfs at boot (udev rule, systemd unit or the SR-IOV network operator)";
    } else {
      continue;
    }
    c.Report(fmt::format("PCI {}", p.bdf), "the policy requires SR-IOV for VMs or pods, but " + why, fix).evidence = {
        {"total_vfs", std::to_string(p.sriov_total_vfs)},
        {"num_vfs", std::to_string(p.sriov_num_vfs)},
        {"device", p.description}};
  }
}

void DriverStackMissing(RuleContext& c) {
  const std::string& want = c.policy.Get(kDriverStack);
  if (want.empty()) return;
  // Known only when ofed_info was asked (live: "not installed" is an answer; a capture: the file).
  const SourceStatus* asked = nullptr;
  for (const SourceStatus& s : c.facts.sources) {
    if (s.name == "ofed_info -s") asked = &s;
  }
  bool ofed_known =
      asked && (asked->present || asked->detail.find("not installed") != std::string::npos || !c.facts.ofed.empty());
  if (!ofed_known) {
    // No ofed_info: ethtool -i still says whether the mlx5 driver is the kernel's own or an out-of-tree stack's.
    // An inbox driver settles it; an out-of-tree one satisfies "any" (MLNX_OFED and DOCA-OFED share its numbering).
    const NetdevFacts* inbox = nullptr;
    bool out_of_tree = false;
    for (const NetdevFacts& n : c.facts.netdevs) {
      if (!n.driver.starts_with("mlx")) continue;
      if (n.driver_origin == "inbox" && !inbox) inbox = &n;
      out_of_tree |= n.driver_origin == "out-of-tree";
    }
    if (!inbox || out_of_tree) return;
    c.Report("driver stack",
             fmt::format(
                 "{} runs the kernel's inbox {} ({}): no MLNX_OFED or DOCA-OFED driver is loaded, which the policy ({}) requires",
                 inbox->name, inbox->driver, inbox->driver_version, want),
             "install the required stack (DOCA-Host: doca-host repo + doca-ofed; MLNX_OFED: mlnxofedinstall) matching the "
             "fleet's release, then reboot or /etc/init.d/openibd restart")
        .evidence = {{"ethtool -i version", inbox->driver_version}, {"policy", want}};
    return;
  }
  const std::string& have = c.facts.ofed;
  // ofed_info -s prints "MLNX_OFED_LINUX-24.10-1.1.4.0" for MLNX_OFED and "OFED-internal-24.07-…" for DOCA-OFED.
  bool is_mlnx = have.starts_with("MLNX_OFED"), is_doca = have.starts_with("OFED-internal") || have.starts_with("DOCA");
  bool ok = want == "any" ? !have.empty() : want == "mlnx_ofed" ? is_mlnx : is_doca;
  if (ok) return;
  std::string want_name = want == "any" ? "MLNX_OFED or DOCA-OFED" : want == "mlnx_ofed" ? "MLNX_OFED" : "DOCA-OFED (doca-host)";
  c.Report("driver stack",
           have.empty() ? fmt::format("no {} is installed (ofed_info missing or empty): the inbox driver lacks the tools "
                                      "(mlnx_qos, mlxlink via MFT) and the tuned RDMA stack the policy requires",
                                      want_name)
                        : fmt::format("the installed stack is {} but the policy requires {}", have, want_name),
           "install the required stack (DOCA-Host: doca-host repo + doca-ofed; MLNX_OFED: mlnxofedinstall) matching the "
           "fleet's release, then reboot or /etc/init.d/openibd restart")
      .evidence = {{"ofed_info", have.empty() ? asked->detail : have}, {"policy", want}};
}

// The family's support limits (data/catalog/driver_stacks.csv) against the stack the host runs: MLNX_OFED on a
// ConnectX-8 or BlueField-3, DOCA-OFED newer than the last train that supports ConnectX-4.
void DriverStackUnsupported(RuleContext& c) {
  const std::string& have = c.facts.ofed;
  auto [stack, train] = DriverStackOf(have);
  if (stack.empty() || stack == "inbox") return;  // inbox or unknown: driver-stack-missing's business
  std::set<std::string> reported;
  for (const PciFunction& p : c.facts.pci) {
    std::string family = FamilyOf(p);
    if (family.empty() || !reported.insert(family).second) continue;
    std::optional<DriverStackLimit> limit = UnsupportedStack(family, {stack, train});
    if (!limit) continue;
    c.Report(fmt::format("PCI {}", p.bdf),
             fmt::format("{} runs {}, which does not support the {}: {}",
                         c.facts.hostname.empty() ? "the host" : c.facts.hostname, have, family, limit->why),
             stack == "mlnx_ofed"
                 ? "install DOCA-Host (doca-ofed) in place of MLNX_OFED, with the firmware its release bundles"
                 : fmt::format("stay on a DOCA-OFED {} (DOCA 2.9.x LTS) release for these cards, or replace them", limit->last))
        .evidence = {{"ofed_info", have},
                     {"family", family},
                     {"stack", stack},
                     {"train", train},
                     {"last_supported", limit->last},
                     {"source", limit->source + " (confidence " + limit->confidence + ")"}};
  }
}

// The server × NIC compatibility matrix the user supplied (`doctor --compat`): each ConnectX/BlueField card
// (function 0) against the server model, BIOS, OS, kernel, driver stack and firmware this host runs.
void ServerNicUnsupported(RuleContext& c) {
  const CompatMatrix& m = c.policy.compat;
  if (m.empty()) return;
  const HostFacts& f = c.facts;
  std::string host = f.hostname.empty() ? "the host" : f.hostname;
  if (f.system.empty()) {
    c.Report(Severity::kInfo, "server",
             fmt::format("{}: the server model is not in the facts, so {} was not checked", host, m.file),
             "collect with dmidecode.txt (or from a live host, which reads /sys/class/dmi/id), or keep the boot log in "
             "dmesg.txt: its 'DMI:' line names the model");
    return;
  }
  std::string model = f.system.Model();
  CompatQuery q;
  q.is_server = [&](std::string_view s) { return f.system.IsModel(s); };
  q.server_name = model;
  q.bios = f.system.bios_version;
  if (!f.os.empty()) {
    q.os_matches = [&](std::string_view entry) { return f.os.Matches(entry); };
    q.os_name = f.os.pretty_name.empty() ? f.os.id + " " + f.os.version_id : f.os.pretty_name;
  }
  q.kernel = f.kernel;
  q.stack = DriverStackOf(f.ofed);
  if (f.ofed.empty() && f.sources.end() == std::find_if(f.sources.begin(), f.sources.end(), [](const SourceStatus& s) {
                          return s.name == "ofed_info -s" && s.present;
                        })) {
    q.stack = {};  // ofed_info was not run: the stack is unknown, not "inbox"
  }
  std::vector<std::string> not_listed_server;
  for (const PciFunction& p : f.pci) {
    if (!p.bdf.ends_with(".0")) continue;  // one card (function 0), one check
    q.family = FamilyOf(p);
    q.opn.clear();
    if (auto it = p.vpd.find("PN"); it != p.vpd.end()) q.opn = it->second;
    q.firmware.clear();
    for (const auto& [bdf, fq] : f.firmware) {
      if (!SamePciAddress(bdf, p.bdf)) continue;
      if (q.opn.empty()) q.opn = fq.part_number;
      q.firmware = fq.running_fw_version.empty() ? fq.fw_version : fq.running_fw_version;
    }
    for (const NetdevFacts& n : f.netdevs) {
      if (q.firmware.empty() && !n.firmware_version.empty() && SamePciAddress(n.pci_bdf, p.bdf)) {
        q.firmware = n.firmware_version.substr(0, n.firmware_version.find(' '));
      }
    }
    std::string card = q.opn.empty() ? (q.family.empty() ? p.description : q.family) : q.opn;
    CompatVerdict v = CheckCompat(m, q);
    std::vector<std::pair<std::string, std::string>> evidence = {
        {"server", model}, {"bios", q.bios}, {"card", card}, {"matrix", m.file}};
    auto row_of = [&](const CompatEntry* e) {
      evidence.push_back({"row", fmt::format("{}:{}", m.file, e->line)});
      if (!e->source.empty()) evidence.push_back({"source", e->source});
      if (!e->note.empty()) evidence.push_back({"note", e->note});
    };
    using K = CompatVerdict::Kind;
    if (v.kind == K::kServerNotListed) {
      not_listed_server.push_back(card);
    } else if (v.kind == K::kNicNotListed) {
      c.Report(fmt::format("PCI {}", p.bdf),
               fmt::format("{} runs a {} that {} does not list for the {} (it lists {})", host, card, m.file, model,
                           fmt::join(v.listed_nics, ", ")),
               "replace the card with one the server vendor supports, or get the vendor's support statement and add its row to "
               "the matrix")
          .evidence = evidence;
    } else if (v.kind == K::kUnsupported) {
      row_of(v.row);
      c.Report(fmt::format("PCI {}", p.bdf),
               fmt::format("{}: the {} in the {} is listed as unsupported{}", host, card, model,
                           v.row->note.empty() ? "" : ": " + v.row->note),
               "move the card to a server model that supports it, or replace it")
          .evidence = evidence;
    } else if (v.kind == K::kOutOfRange) {
      row_of(v.row);
      c.Report(fmt::format("PCI {}", p.bdf),
               fmt::format("{}: the {} in the {} is supported only {}: {}", host, card, model,
                           fmt::format("as {} line {} says", m.file, v.row->line), fmt::join(v.mismatches, "; ")),
               "bring the host to that row: BIOS, OS, kernel, driver stack and firmware as listed (update the lowest first: "
               "BIOS, then firmware, then the driver stack)")
          .evidence = evidence;
    }
    if (v.kind != K::kServerNotListed && !v.unchecked.empty()) {
      c.Report(Severity::kInfo, fmt::format("PCI {}", p.bdf),
               fmt::format("{}: not checked against {} for the {}: {} unknown in the facts", host, m.file, card,
                           fmt::join(v.unchecked, ", ")),
               "collect with flint/mlxfwmanager (firmware), ofed_info -s (driver stack), os-release.txt and dmidecode.txt");
    }
  }
  if (!not_listed_server.empty()) {
    c.Report(Severity::kInfo, "server",
             fmt::format("{}: {} says nothing about the {}: {} card(s) not checked ({})", host, m.file, model,
                         not_listed_server.size(), fmt::join(not_listed_server, ", ")),
             "add the server vendor's support rows for this model to the matrix")
        .evidence = {{"server", model}, {"matrix", m.file}};
  }
}

void VmNicNotPassthrough(RuleContext& c) {
  static const std::set<std::string> kEmulated = {"virtio_net", "vmxnet3", "hv_netvsc", "e1000", "e1000e", "ena"};
  bool connectx = !c.facts.pci.empty() || !c.facts.rdma.empty();
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.kind != "physical" || !kEmulated.count(n.driver)) continue;
    // An emulated NIC is fine for management; it is wrong when it is the only NIC, or carries jumbo (data) traffic.
    bool data = n.mtu >= 9000;
    if (connectx && !data) continue;
    c.Report(fmt::format("netdev {}", n.name),
             connectx ? fmt::format("{} is an emulated {} NIC carrying MTU {} traffic while a ConnectX is passed through: "
                                    "data traffic takes the hypervisor's software path",
                                    n.name, n.driver, n.mtu)
                      : fmt::format("inside a VM the network is an emulated {} NIC and no ConnectX is passed through: no RDMA, "
                                    "and bandwidth and latency are the hypervisor's",
                                    n.driver),
             "pass the ConnectX (or an SR-IOV VF) through to the VM (VFIO / PCI passthrough, IOMMU on in the host) and move "
             "the data addresses onto it")
        .evidence = {{"driver", n.driver}, {"mtu", std::to_string(n.mtu)}, {"connectx_seen", connectx ? "yes" : "no"}};
  }
}

// A host where lspci ran and listed no NVIDIA/Mellanox function: every NIC rule passes vacuously, so
// "0 findings" would be a false all-clear. (Facts without lspci say what was missing in their sources.)
void NoNvidiaNic(RuleContext& c) {
  const HostFacts& f = c.facts;
  if (f.has_nvidia_nic != false || !f.pci.empty() || !f.rdma.empty() || !f.firmware.empty() || !f.links.empty()) return;
  // The other NICs the facts hold were checked by the rules for them (nic-probe-failed, realtek-inbox-driver,
  // usb-nic-below-usb3, link-below-capability ...): say how many, so the answer is never a bare all-clear.
  std::set<std::string> others;
  for (const PciFunction& p : f.other_pci) others.insert("PCI " + p.bdf);
  for (const NetdevFacts& n : f.netdevs) {
    if (n.kind == "physical" && !n.driver.empty()) others.insert("netdev " + n.name);
  }
  std::string listed;
  for (const std::string& o : others) listed += (listed.empty() ? "" : ", ") + o;
  c.Report(others.empty() ? Severity::kWarning : Severity::kInfo, "host",
           others.empty() ? "lspci lists no NVIDIA/Mellanox network function (vendor 15b3) and no other NIC: none of the NIC "
                            "checks had a card to look at"
                          : fmt::format("no NVIDIA NIC; {} other NIC function(s)/port(s) checked ({})", others.size(), listed),
           "if this host should have a ConnectX/BlueField: reseat it, check the slot is enabled in the BIOS, and run "
           "`lspci -nn -d 15b3:`; if it should not (a login or management node), turn the rule off for it in the policy")
      .evidence = {{"lspci", "ran, no 15b3 function"}, {"other_nics", std::to_string(others.size())}};
}

}  // namespace

void AddPcieRules(std::vector<HostRule>& rules) {
  rules.push_back({"driver-stack-unsupported", Severity::kError,
                   "the installed MLNX_OFED/DOCA-OFED does not support a card's family", DriverStackUnsupported});
  rules.push_back({"server-nic-unsupported", Severity::kError,
                   "a card the compatibility matrix does not support in this server, BIOS, OS, kernel, stack or firmware",
                   ServerNicUnsupported});
  rules.push_back(
      {"no-nvidia-nic", Severity::kWarning, "no NVIDIA/Mellanox NIC in the facts: the NIC checks saw nothing", NoNvidiaNic});
  rules.push_back({"pcie-link-downgraded", Severity::kError, "PCIe link trained below the card's capability", LinkDowngraded});
  rules.push_back(
      {"pcie-slot-below-line-rate", Severity::kError, "PCIe bandwidth below the ports' line rate", SlotBelowLineRate});
  rules.push_back(
      {"nic-firmware-not-running", Severity::kError, "flash recovery, probe failure or firmware timeout", FirmwareNotRunning});
  rules.push_back({"firmware-pending-activation", Severity::kWarning,
                   "a firmware image is burned but the card still runs the old one", FirmwarePendingActivation});
  rules.push_back({"firmware-below-baseline", Severity::kWarning,
                   "firmware older than the policy's baseline for its PSID or family", FirmwareBelowBaseline});
  rules.push_back({"iommu-off", Severity::kWarning,
                   "IOMMU off on the kernel command line (or not on, where the policy requires it)", IommuOff});
  rules.push_back({"power-saving-on", Severity::kWarning, "PCIe ASPM power saving on a ConnectX link", PowerSavingOn});
  rules.push_back({"sriov-off", Severity::kWarning, "SR-IOV off or no VFs where the policy requires it", SriovOff});
  rules.push_back({"driver-stack-missing", Severity::kWarning, "MLNX_OFED / DOCA-OFED missing where the policy requires it",
                   DriverStackMissing});
  rules.push_back({"vm-nic-not-passthrough", Severity::kWarning,
                   "inside a VM the data NIC is emulated, not the passed-through ConnectX", VmNicNotPassthrough});
}

}  // namespace railyard
