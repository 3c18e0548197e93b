// Rules for VMware ESXi hosts (facts from esxcli: `collect --from` a capture with esxcli-network-nic-list.txt):
// a vmnic below what it advertises, a NIC without a driver, and the user's compatibility list.
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

// "VMware ESXi 8.0.2 build-22380479" -> "8.0.2"; "" when the version was not captured.
std::string EsxiRelease(const std::string& kernel) {
  size_t at = kernel.find("ESXi ");
  if (at == std::string::npos) return {};
  std::string rest = kernel.substr(at + 5);
  return rest.substr(0, rest.find(' '));
}

void NicBelowCapability(RuleContext& c) {
  if (c.facts.platform != "esxi") return;
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.operstate != "up" || n.speed_mbps == 0) continue;
    uint32_t best = BestLinkModeMbps(n.supported_link_modes);
    if (best <= n.speed_mbps) continue;
    c.Report(fmt::format("vmnic {}", n.name),
             fmt::format("{} ({}) runs at {} Mb/s but advertises up to {} Mb/s: the switch port, the cable or module, or a "
                         "forced speed holds it down",
                         n.name, n.driver, n.speed_mbps, best),
             "compare the switch port's speed with `esxcli network nic get -n " + n.name +
                 "`; check the cable/module is "
                 "rated for the speed; let both ends auto-negotiate (`esxcli network nic set -n " +
                 n.name + " -a`)")
        .evidence = {{"speed_mbps", std::to_string(n.speed_mbps)},
                     {"best_advertised_mbps", std::to_string(best)},
                     {"advertised", fmt::format("{}", fmt::join(n.supported_link_modes, ","))}};
  }
}

std::string VibName(std::string s) {
  for (char& ch : s) ch = ch == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

void DriverMissing(RuleContext& c) {
  const HostFacts& f = c.facts;
  if (f.platform != "esxi") return;
  for (const std::vector<PciFunction>* list : {&f.pci, &f.other_pci}) {
    for (const PciFunction& p : *list) {
      if (!p.driver.empty()) continue;
      c.Report(Severity::kError, fmt::format("PCI {}", p.bdf),
               fmt::format("no VMkernel driver claimed this network function ({} [{}:{}]): it has no vmnic and carries no "
                           "traffic",
                           p.description, p.vendor_id, p.device_id),
               "install the VIB of a native driver for this device (the vendor's or VMware's async driver listed for it on "
               "the VMware Compatibility Guide) and reboot; ESXi 7 and later have no vmklinux, so old net-* drivers do not load")
          .evidence = {{"vendor_device", p.vendor_id + ":" + p.device_id}, {"module", "None"}};
    }
  }
  // A vmnic's driver with no VIB: only judged against a whole VIB list (a grep'd one proves nothing).
  bool complete = false;
  for (const SourceStatus& s : f.sources) {
    if (s.name != "esxcli software vib list" || !s.present) continue;
    complete = !f.packages.empty();
    for (const std::string& w : s.warnings) complete &= w.find("no header") == std::string::npos;
  }
  if (!complete) return;
  for (const NetdevFacts& n : f.netdevs) {
    if (n.driver.empty()) continue;
    std::string want = VibName(n.driver);
    bool found = false;
    for (const DriverPackage& p : f.packages) {
      std::string name = VibName(p.name);
      found |= name == want || name == "net-" + want || name == "net-" + VibName(n.driver.substr(n.driver.find('_') + 1));
    }
    if (found) continue;
    c.Report(Severity::kWarning, fmt::format("vmnic {}", n.name),
             fmt::format("{}'s driver {} is not among the {} installed VIBs: it comes from the base image or was "
                         "loaded some other way, and an image update may drop it",
                         n.name, n.driver, f.packages.size()),
             "install the driver as a VIB (`esxcli software vib install -d <offline bundle>`) or add it to the image profile")
        .evidence = {{"driver", n.driver}, {"vibs", std::to_string(f.packages.size())}};
  }
}

void NotOnHcl(RuleContext& c) {
  const HostFacts& f = c.facts;
  if (f.platform != "esxi" || c.policy.hcl.empty()) return;
  std::string release = EsxiRelease(f.kernel);
  for (const std::vector<PciFunction>* list : {&f.pci, &f.other_pci}) {
    for (const PciFunction& p : *list) {
      if (p.vendor_id.empty() || p.device_id.empty()) continue;
      const NetdevFacts* nic = nullptr;
      for (const NetdevFacts& n : f.netdevs) {
        if (SamePciAddress(n.pci_bdf, p.bdf)) nic = &n;
      }
      std::string driver = nic ? nic->driver : p.driver;
      std::string version = nic ? nic->driver_version : "";
      std::vector<const DoctorPolicy::HclEntry*> rows;
      for (const DoctorPolicy::HclEntry& e : c.policy.hcl) {
        if (e.vendor_id == p.vendor_id && e.device_id == p.device_id) rows.push_back(&e);
      }
      std::string id = p.vendor_id + ":" + p.device_id;
      if (rows.empty()) {
        c.Report(
             fmt::format("PCI {}", p.bdf),
             fmt::format("{} ({}) is not on the compatibility list {}", id, p.description, c.policy.hcl_file),
             "replace the card with a listed one, or add it to the list once its vendor or VMware certifies it for this release")
            .evidence = {{"vendor_device", id}, {"driver", driver}};
        continue;
      }
      std::string why;
      bool ok = false;
      for (const DoctorPolicy::HclEntry* e : rows) {
        std::string miss;
        if (!e->driver.empty() && e->driver != driver)
          miss = fmt::format("driver {} (listed: {})", driver.empty() ? "none" : driver, e->driver);
        else if (!e->min_driver_version.empty() && (version.empty() || CompareVersions(version, e->min_driver_version) < 0)) {
          miss = fmt::format("driver version {} (listed: {} or later)", version.empty() ? "unknown" : version,
                             e->min_driver_version);
        } else if (!e->releases.empty()) {
          bool match = false;
          for (const std::string& r : e->releases) match |= !release.empty() && release.starts_with(r);
          if (!match)
            miss =
                fmt::format("ESXi {} (listed: {})", release.empty() ? "release unknown" : release, fmt::join(e->releases, ", "));
        }
        if (miss.empty())
          ok = true;
        else if (why.empty())
          why = fmt::format("{} (list line {})", miss, e->line);
      }
      if (ok) continue;
      c.Report(fmt::format("PCI {}", p.bdf),
               fmt::format("{} ({}) is on the compatibility list, but not with this host's {}", id, p.description, why),
               "install the listed driver version (VIB) for this ESXi release, or move to a release the list names")
          .evidence = {{"vendor_device", id}, {"driver", driver}, {"driver_version", version}, {"esxi", release}};
    }
  }
}

}  // namespace

void AddEsxiRules(std::vector<HostRule>& rules) {
  rules.push_back(
      {"esxi-nic-below-capability", Severity::kWarning, "an ESXi vmnic runs below the speed it advertises", NicBelowCapability});
  rules.push_back({"esxi-driver-missing", Severity::kError,
                   "an ESXi network function with no driver, or a vmnic driver not installed as a VIB", DriverMissing});
  rules.push_back({"esxi-nic-not-on-hcl", Severity::kWarning,
                   "an ESXi NIC, driver version or release not on the compatibility list given (--hcl)", NotOnHcl});
}

}  // namespace railyard
