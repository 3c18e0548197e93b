#include "rollout/check.h"

#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "doctor/doctor.h"
#include "rollout/waves.h"

namespace railyard {
namespace {

Finding Halt(const std::string& rule, const std::string& host, std::string message, std::string fix) {
  Finding f;
  f.rule = rule;
  f.severity = Severity::kError;
  f.host = host;
  f.object = "host " + host;
  f.message = std::move(message);
  f.fix = std::move(fix);
  return f;
}

std::vector<Finding> DoctorFindings(const std::vector<HostFacts>& facts, const std::set<std::string>& hosts,
                                    std::shared_ptr<const HostPlan> plan) {
  Doctor doctor(DoctorPolicy{}, std::move(plan));
  for (const HostFacts& f : facts) {
    if (hosts.count(f.hostname)) doctor.AddHost(f);
  }
  std::vector<Finding> out;
  for (Finding& f : doctor.Finish().findings) {
    if (f.severity >= Severity::kWarning && !f.host.empty()) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

WaveCheck CheckWave(const nlohmann::json& rollout, uint32_t wave, const std::vector<HostFacts>& before,
                    const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan) {
  if (!rollout.is_object() || rollout.value("schema", "") != "railyard.rollout/1") {
    throw std::runtime_error("rollout.json: not railyard.rollout/1");
  }
  const nlohmann::json& waves = rollout.at("waves");
  if (wave >= waves.size()) throw std::runtime_error(fmt::format("the rollout has waves 0 to {}; no wave {}", waves.size() - 1, wave));
  const nlohmann::json& w = waves.at(wave);
  WaveCheck check;
  check.wave = fmt::format("wave-{:02}-{}", wave, w.at("name").get<std::string>());
  std::set<std::string> hosts;
  for (const auto& h : w.at("hosts")) hosts.insert(h.get<std::string>());
  std::map<std::string, FleetHost> now;
  for (const HostFacts& f : after) {
    if (hosts.count(f.hostname)) now[f.hostname] = FleetHostFromFacts(f);
  }
  std::string rollback = fmt::format(
      "#!/usr/bin/env bash\n# railyard rollout {}: roll back what did not come out right. Run as root on each host.\n"
      "# A device with the new image pending goes back with `flint ir`; one already running it needs the\n"
      "# previous image, from $PREVIOUS (a directory of the images the devices ran before).\n"
      "set -uo pipefail\nPREVIOUS=${{PREVIOUS:-/opt/firmware/previous}}\nhost=$(hostname -s)\ncase \"$host\" in\n",
      check.wave);
  std::map<std::string, std::string> rollback_by_host;
  for (const std::string& host : hosts) {
    if (!now.count(host)) {
      check.findings.push_back(Halt("rollout-host-not-reporting", host,
                                    fmt::format("{} of {} has no facts after the wave", host, check.wave),
                                    "collect its facts (railyard collect) and check again; if it does not boot, "
                                    "power-cycle it before anything else"));
    }
  }
  for (const auto& d : w.at("devices")) {
    ++check.devices;
    const std::string host = d.at("host"), device = d.at("device"), to = d.at("to"), from = d.at("from");
    auto it = now.find(host);
    if (it == now.end()) continue;
    const FleetDevice* seen = nullptr;
    for (const FleetDevice& x : it->second.devices) {
      if (x.pci == device) seen = &x;
    }
    if (seen && seen->flashed == to && (seen->running.empty() || seen->running == to)) {
      ++check.at_target;
      continue;
    }
    std::string state = !seen ? "is not in its facts any more"
                              : !seen->running.empty() && seen->running != seen->flashed
                                    ? fmt::format("has {} in flash but runs {}", seen->flashed, seen->running)
                                    : fmt::format("is at {}, not {}", seen->flashed, to);
    check.findings.push_back(Halt("rollout-device-not-at-target", host, fmt::format("{} {} {}", host, device, state),
                                  "look at the host's wave log; reset the device (mlxfwreset) or reboot, or roll back"));
    rollback_by_host[host] += fmt::format(
        "    if flint -d {0} q | grep -q 'FW Version(Running)'; then flint -d {0} -y ir; "
        "else mlxfwmanager -d {0} -i \"$PREVIOUS/{1}-{2}.bin\" -u -y -f; fi\n",
        device, d.at("psid").get<std::string>(), from);
  }
  // New doctor findings at warning or above on the wave's hosts.
  std::set<std::tuple<std::string, std::string, std::string>> known;
  for (const Finding& f : DoctorFindings(before, hosts, plan)) known.insert({f.host, f.rule, f.object});
  for (Finding& f : DoctorFindings(after, hosts, plan)) {
    // Firmware differing across the wave's hosts is what a rollout is in the middle of; the device
    // check above judges firmware.
    if (f.rule == "fleet-firmware-drift") continue;
    if (known.count({f.host, f.rule, f.object}) || !now.count(f.host)) continue;
    Finding halt = Halt("rollout-new-finding", f.host,
                        fmt::format("{}: {} appeared after {}: {}", f.host, f.rule, check.wave, f.message), f.fix);
    halt.evidence = f.evidence;
    check.findings.push_back(std::move(halt));
  }
  check.pass = check.findings.empty();
  if (!check.pass) {
    for (const auto& [host, lines] : rollback_by_host) rollback += fmt::format("  {})\n{}    ;;\n", host, lines);
    rollback += "  *) echo \"$host: nothing to roll back in " + check.wave + "\" ;;\nesac\n";
    check.rollback_script = rollback;
  }
  return check;
}

}  // namespace railyard
