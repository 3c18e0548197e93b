// Kernel-log rules: what the NIC's driver and the PCIe core said about the card at run time —
// firmware health failures, too little slot power, PCIe errors on its link, and link flaps.
// One finding per device (a health dump is dozens of lines; a flapping port hundreds).
#include <map>
#include <set>

#include <fmt/format.h>

#include "doctor/rules.h"

namespace railyard {

const PolicyKey<int> kLinkFlapDowns{"link_flap_downs",
                                    3,
                                    "a count",
                                    "link-down events of one port in the kernel log that make it flapping",
                                    {"link-flapping", "realtek-inbox-driver"},
                                    InRange(1, 1'000'000)};
namespace {

// "0000:0d:00.3" -> "0000:0d:00": the card whose functions (PFs, VFs) share one firmware.
std::string CardOf(const std::string& bdf) {
  size_t dot = bdf.rfind('.');
  return dot != std::string::npos && dot + 2 >= bdf.size() ? bdf.substr(0, dot) : bdf;
}

// The events of `kind`, grouped by device (or card; and netdev, where the line names one), in log order.
std::map<std::string, std::vector<const KernelEvent*>> ByDevice(const HostFacts& f, KernelEventKind kind,
                                                                bool with_netdev = false, bool by_card = false) {
  std::map<std::string, std::vector<const KernelEvent*>> out;
  for (const KernelEvent& e : f.kernel_events) {
    if (e.kind != kind) continue;
    std::string key = e.device.empty() ? "?" : by_card ? CardOf(e.device) : e.device;
    if (with_netdev) {
      if (auto n = e.values.find("netdev"); n != e.values.end()) key += " " + n->second;
    }
    out[key].push_back(&e);
  }
  return out;
}

void FirmwareHealth(RuleContext& c) {
  // The firmware is the card's: one finding per card, however many of its functions report.
  for (const auto& [card, events] : ByDevice(c.facts, KernelEventKind::kFirmwareHealth, false, true)) {
    const KernelEvent& first = *events.front();
    std::set<std::string> functions;
    for (const KernelEvent* e : events) functions.insert(e->device);
    std::string listed;
    for (const std::string& fn : functions) listed += (listed.empty() ? "" : " ") + fn;
    c.Report(fmt::format("card {}", card),
             fmt::format("the NIC's firmware reported a health failure ({}): the driver resets or disables the card, "
                         "and traffic on it stops",
                         first.message),
             "save the full health dump (dmesg, `devlink health show`, `mlxdump fwdump`) for NVIDIA support; update the "
             "firmware to the current release for the card's PSID; if it recurs after a cold power cycle, replace the card")
        .evidence = {{"dmesg", first.message},
                     {"line", std::to_string(first.line)},
                     {"when", When(first)},
                     {"health_lines", std::to_string(events.size())},
                     {"functions", listed}};
  }
}

void SlotPowerInsufficient(RuleContext& c) {
  for (const auto& [device, events] : ByDevice(c.facts, KernelEventKind::kSlotPowerInsufficient)) {
    const KernelEvent& first = *events.front();
    auto watts = first.values.find("watts");
    c.Report(fmt::format("PCI {}", device),
             fmt::format("the PCIe slot advertises less power than the card needs{}: the card may throttle, drop its "
                         "optics or fail under load",
                         watts != first.values.end() && !watts->second.empty() ? fmt::format(" ({} W)", watts->second) : ""),
             "move the card to a slot (or riser) rated for its power, connect the riser's auxiliary power, or set the "
             "slot power limit in the BIOS; NVIDIA's card datasheet gives the card's maximum power")
        .evidence = {{"dmesg", first.message}, {"line", std::to_string(first.line)}, {"when", When(first)}};
  }
}

void PcieErrors(RuleContext& c) {
  for (const auto& [device, events] : ByDevice(c.facts, KernelEventKind::kPcieError)) {
    int uncorrected = 0;
    const KernelEvent* worst = events.front();
    for (const KernelEvent* e : events) {
      auto s = e->values.find("severity");
      if (s != e->values.end() && s->second.find("Uncorrect") != std::string::npos) {
        if (uncorrected++ == 0) worst = e;
      }
    }
    bool port = worst->driver == "pcieport";
    c.Report(uncorrected > 0 ? Severity::kError : Severity::kWarning, fmt::format("{} {}", port ? "PCIe port" : "PCI", device),
             fmt::format(
                 "{} PCIe error report{} ({} uncorrected) {}: {}", events.size(), events.size() == 1 ? "" : "s", uncorrected,
                 port ? "on a root or switch port (the devices below it include whatever card sits there)" : "on the NIC's link",
                 uncorrected > 0 ? "uncorrected errors reset the link and stop traffic"
                                 : "corrected errors cost retries and hint at a marginal slot, riser or card"),
             "reseat the card and its riser, check the slot's signal integrity settings (link speed, retimers) in the BIOS, "
             "and move the card to another slot if the errors follow the slot; replace it if they follow the card")
        .evidence = {{"dmesg", worst->message},
                     {"line", std::to_string(worst->line)},
                     {"when", When(*worst)},
                     {"reports", std::to_string(events.size())}};
  }
}

void LinkFlapping(RuleContext& c) {
  for (const auto& [port, events] : ByDevice(c.facts, KernelEventKind::kLinkEvent, true)) {
    int downs = 0;
    for (const KernelEvent* e : events) downs += e->values.count("state") && e->values.at("state") == "down";
    if (downs < c.policy.Get(kLinkFlapDowns)) continue;
    const KernelEvent& last = *events.back();
    c.Report(fmt::format("port {}", port),
             fmt::format("the link went down {} times in the kernel log: a flapping link stalls collectives and "
                         "retransmits on every drop",
                         downs),
             last.driver.starts_with("mlx")
                 ? "read the port's counters (`mlxlink -d DEV -c`, `ethtool -S IF | grep -i link_down`) and the module's "
                   "light levels (`ethtool -m IF`); clean or replace the cable or optic, then check the switch port"
                 : "check the cable and the switch port (speed, EEE); read `ethtool -S IF`; for a Realtek 2.5G/5G chip on "
                   "r8169 see realtek-inbox-driver")
        .evidence = {{"link_down_events", std::to_string(downs)},
                     {"last", last.message},
                     {"line", std::to_string(last.line)},
                     {"when", When(last)}};
  }
}

// A module built against another kernel's or another OFED's RDMA/NIC symbols: the kernel refuses to load it
// ("disagrees about version of symbol", "Unknown symbol ... (err -22)"). One finding per module.
void KernelDriverMismatch(RuleContext& c) {
  std::map<std::string, std::vector<const KernelEvent*>> by_module;
  for (const KernelEvent& e : c.facts.kernel_events) {
    if (e.kind == KernelEventKind::kSymbolMismatch) by_module[e.driver].push_back(&e);
  }
  for (const auto& [module, events] : by_module) {
    std::set<std::string> symbols;
    for (const KernelEvent* e : events) symbols.insert(e->values.count("symbol") ? e->values.at("symbol") : "?");
    std::string listed;
    for (const std::string& sym : symbols) listed += (listed.empty() ? "" : ", ") + sym;
    std::string stack = c.facts.ofed.empty() ? "the inbox RDMA stack" : c.facts.ofed;
    c.Report(fmt::format("module {}", module),
             fmt::format("the kernel refused {} ({} symbol(s) built against another version: {}): it was compiled for another "
                         "kernel or another driver stack than the running {} with {}, so it does not load",
                         module, symbols.size(), listed, c.facts.kernel.empty() ? "kernel" : c.facts.kernel, stack),
             "rebuild the module against the running kernel and driver stack (DKMS: `dkms autoinstall -k $(uname -r)`; "
             "MLNX_OFED/DOCA: reinstall for this kernel, `--add-kernel-support`; out-of-tree modules such as nv_peer_mem or "
             "Lustre's ko2iblnd: rebuild against /usr/src/ofa_kernel/$(uname -r)); an inbox module that collides with the "
             "OFED's core (mlx5_vdpa) must come from the same stack")
        .evidence = {{"dmesg", events.front()->message},
                     {"line", std::to_string(events.front()->line)},
                     {"symbols", listed},
                     {"kernel", c.facts.kernel},
                     {"ofed", c.facts.ofed}};
  }
}

}  // namespace

void AddKernelRules(std::vector<HostRule>& rules) {
  rules.push_back(
      {"nic-firmware-health", Severity::kError, "the NIC firmware reported a health failure (kernel log)", FirmwareHealth});
  rules.push_back({"pcie-slot-power-insufficient", Severity::kError, "the PCIe slot gives the card less power than it needs",
                   SlotPowerInsufficient});
  rules.push_back({"pcie-aer-errors", Severity::kWarning, "PCIe AER/DPC error reports on the NIC's link (error when uncorrected)",
                   PcieErrors});
  rules.push_back({"kernel-driver-mismatch", Severity::kError,
                   "a NIC/RDMA module built against another kernel's or OFED's symbols (kernel log)", KernelDriverMismatch});
  rules.push_back({"link-flapping", Severity::kWarning, "a NIC port's link went down repeatedly (kernel log)", LinkFlapping});
}

}  // namespace railyard
