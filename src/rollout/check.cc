#include "rollout/check.h"
#include "model/schemas.h"
#include "util/input_error.h"

#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "doctor/doctor.h"
#include "facts/facts_files.h"
#include "rollout/rollout_file.h"
#include "rollout/state.h"
#include "rollout/waves.h"
#include "util/json_input.h"
#include "util/output_file.h"
#include "util/output_path.h"
#include "util/shell_emit.h"

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

// Doctor findings at warning or above on `hosts` after the wave that the facts before did not have.
void AddNewFindings(WaveCheck& check, const std::set<std::string>& hosts, const std::vector<HostFacts>& before,
                    const std::vector<HostFacts>& after, const std::shared_ptr<const HostPlan>& plan) {
  std::set<std::string> reporting;
  for (const HostFacts& f : after) reporting.insert(f.hostname);
  std::set<std::tuple<std::string, std::string, std::string>> known;
  for (const Finding& f : DoctorFindings(before, hosts, plan)) known.insert({f.host, f.rule, f.object});
  for (Finding& f : DoctorFindings(after, hosts, plan)) {
    // Firmware differing across the wave's hosts is what a rollout is in the middle of; the device
    // check judges firmware.
    if (f.rule == "fleet-firmware-drift") continue;
    if (known.count({f.host, f.rule, f.object}) || !reporting.count(f.host)) continue;
    Finding halt = Halt("rollout-new-finding", f.host,
                        fmt::format("{}: {} appeared after {}: {}", f.host, f.rule, check.wave, f.message), f.fix);
    halt.evidence = f.evidence;
    check.findings.push_back(std::move(halt));
  }
}

WaveCheck CheckSwitchWave(const nlohmann::json& w, const std::string& name, const std::vector<HostFacts>& before,
                          const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan,
                          const std::vector<SwitchFirmwareSeen>* switches_after) {
  if (!switches_after) {
    throw UsageError(fmt::format("{} is a wave of switches: give --switches with what they run now", name));
  }
  WaveCheck check;
  check.wave = name;
  std::map<std::string, const SwitchFirmwareSeen*> now;
  for (const SwitchFirmwareSeen& s : *switches_after) now[s.name] = &s;
  std::string rollback = fmt::format(
      "#!/usr/bin/env bash\n# railyard rollout {}: put back the switch firmware that ran before, from an admin host\n"
      "# (NVOS: the same steps as the wave, with the previous image from $PREVIOUS).\n"
      "set -uo pipefail\nPREVIOUS=${{PREVIOUS:-/opt/firmware/previous}}\nSSH_USER=${{SSH_USER:-admin}}\n",
      name);
  for (const auto& d : w.at("devices")) {
    ++check.devices;
    const std::string sw = d.at("host"), to = d.at("to"), from = d.at("from"), address = d.value("address", sw);
    auto it = now.find(sw);
    std::string serial = d.value("serial", "");
    if (it != now.end() && !it->second->serial.empty()) serial = it->second->serial;
    check.results.push_back(
        {sw, "asic", serial, to, it == now.end() ? "" : it->second->firmware, it != now.end() && it->second->firmware == to});
    if (check.results.back().at_target) {
      ++check.at_target;
      continue;
    }
    Finding f =
        Halt(it == now.end() ? "rollout-switch-not-reporting" : "rollout-device-not-at-target", sw,
             it == now.end() ? fmt::format("{} of {} is not in the switch inventory taken after the wave", sw, name)
                             : fmt::format("{} runs {}, not {}", sw, it->second->firmware, to),
             "look at the switch's console and `nv show platform firmware ASIC`; roll it back if it does not come up right");
    f.object = "switch " + sw;
    check.findings.push_back(std::move(f));
    // scp takes an IPv6 address in brackets, ssh bare.
    const std::string image = fmt::format("asic-{}.mfa", from);
    const std::string scp_host = address.find(':') != std::string::npos ? "[" + address + "]" : address;
    rollback += fmt::format(
        "# {}: back to {}\nscp -o BatchMode=yes -- \"$PREVIOUS\"/{} \"$SSH_USER\"@{} && "
        "printf 'y\\n' | ssh -o BatchMode=yes \"$SSH_USER\"@{} {}\n",
        sw, from, ShellWord(image), ShellWord(scp_host + ":/host/fw-images/asic/" + image), ShellWord(address),
        ShellCommand({"nv", "action", "install", "platform", "firmware", "ASIC", "files", image}));
  }
  std::set<std::string> drained;
  for (const auto& h : w.value("drain", nlohmann::json::array())) drained.insert(h.get<std::string>());
  if (!after.empty()) AddNewFindings(check, drained, before, after, plan);
  check.pass = check.findings.empty();
  if (!check.pass) check.rollback_script = rollback;
  return check;
}

// CheckWave on a rollout.json whose values were checked already (rollout/rollout_file.h).
WaveCheck CheckCheckedWave(const nlohmann::json& rollout, uint32_t wave, const std::vector<HostFacts>& before,
                           const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan,
                           const std::vector<SwitchFirmwareSeen>* switches_after);

}  // namespace

WaveCheck CheckWave(const nlohmann::json& rollout, uint32_t wave, const std::vector<HostFacts>& before,
                    const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan,
                    const std::vector<SwitchFirmwareSeen>* switches_after) {
  CheckRolloutJson(rollout, "rollout.json");
  return CheckCheckedWave(rollout, wave, before, after, std::move(plan), switches_after);
}

namespace {

WaveCheck CheckCheckedWave(const nlohmann::json& rollout, uint32_t wave, const std::vector<HostFacts>& before,
                           const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan,
                           const std::vector<SwitchFirmwareSeen>* switches_after) {
  const nlohmann::json& waves = rollout.at("waves");
  if (wave >= waves.size()) throw UsageError(fmt::format("the rollout has waves 0 to {}; no wave {}", waves.size() - 1, wave));
  const nlohmann::json& w = waves.at(wave);
  WaveCheck check;
  check.wave = WaveFileName(wave, w.at("name").get<std::string>());
  if (w.value("kind", "host") == "switch") return CheckSwitchWave(w, check.wave, before, after, std::move(plan), switches_after);
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
    if (it == now.end()) {
      check.results.push_back({host, device, d.value("serial", ""), to, "", false});
      continue;
    }
    const FleetDevice* seen = nullptr;
    for (const FleetDevice& x : it->second.devices) {
      if (x.pci == device) seen = &x;
    }
    bool ok = seen && seen->flashed == to && (seen->running.empty() || seen->running == to);
    check.results.push_back({host, device, seen && !seen->serial.empty() ? seen->serial : d.value("serial", ""), to,
                             seen ? (seen->running.empty() ? seen->flashed : seen->running) : "", ok});
    if (ok) {
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
        "    if {} | grep -q 'FW Version(Running)'; then {}; "
        "else mlxfwmanager -d {} -i \"$PREVIOUS\"/{} -u -y -f; fi\n",
        ShellCommand({"flint", "-d", device, "q"}), ShellCommand({"flint", "-d", device, "-y", "ir"}), ShellWord(device),
        ShellWord(fmt::format("{}-{}.bin", d.at("psid").get<std::string>(), from)));
  }
  // New doctor findings at warning or above on the wave's hosts.
  AddNewFindings(check, hosts, before, after, plan);
  check.pass = check.findings.empty();
  if (!check.pass) {
    for (const auto& [host, lines] : rollback_by_host) rollback += fmt::format("  {})\n{}    ;;\n", ShellWord(host), lines);
    rollback += fmt::format("  *) echo \"$host: nothing to roll back in {}\" ;;\nesac\n", ShellInDoubleQuotes(check.wave));
    check.rollback_script = rollback;
  }
  return check;
}

}  // namespace

std::vector<AssetObservation> CheckObservations(const WaveCheck& check) {
  std::vector<AssetObservation> out;
  for (const DeviceCheck& d : check.results) {
    if (d.serial.empty()) continue;
    AssetObservation o;
    o.serial = d.serial;
    o.kind = d.device == "asic" ? "switch" : "nic";
    o.fields["rollout." + check.wave] =
        fmt::format("{} {}", d.at_target ? "at-target" : "not-at-target", d.now.empty() ? "not-seen" : d.now);
    out.push_back(std::move(o));
  }
  return out;
}

WaveCheckRun CheckWaveInState(const std::string& state, uint32_t wave, const std::vector<std::string>& facts_after,
                              std::shared_ptr<const HostPlan> plan, const std::vector<SwitchFirmwareSeen>* switches_after,
                              LedgerStore* ledger, const std::string& by) {
  namespace fs = std::filesystem;
  StateDirLock lock(state);  // from the read of the state to the record of the check
  nlohmann::json rollout = ReadRolloutFile(state);
  // In order: a wave is checked once every wave before it is done; a halted wave is checked again
  // (after its fix) before any later one.
  std::vector<WaveStatus> status = RolloutStatus(state, rollout);
  for (uint32_t i = 0; i < wave && i < status.size(); ++i) {
    if (status[i].state != "done")
      throw UsageError(fmt::format("wave {} ({}) is {}: check the waves in order (wave {} comes after it)", i, status[i].name,
                                   status[i].state, wave));
  }
  const nlohmann::json* planned = rollout.contains("waves") && wave < rollout["waves"].size() ? &rollout["waves"][wave] : nullptr;
  if (facts_after.empty() && (!planned || planned->value("kind", "host") != "switch")) {
    throw UsageError(fmt::format("--facts: wave {} is a wave of hosts: give the facts collected after it", wave));
  }
  std::vector<HostFacts> before, after;
  if (fs::is_directory(fs::path(state) / "facts-before")) {
    ForEachFacts({(fs::path(state) / "facts-before").string()}, [&](HostFacts&& f) { before.push_back(std::move(f)); });
  }
  if (!facts_after.empty()) ForEachFacts(facts_after, [&](HostFacts&& f) { after.push_back(std::move(f)); });
  WaveCheckRun run;
  run.check = CheckCheckedWave(rollout, wave, before, after, std::move(plan), switches_after);  // read by ReadRolloutFile
  const WaveCheck& check = run.check;
  nlohmann::json record = {
      {"schema", kRolloutCheckSchema}, {"wave", check.wave},           {"pass", check.pass},
      {"devices", check.devices},      {"at_target", check.at_target}, {"findings", FindingsJson(check.findings)}};
  if (!check.pass) record["rollback_script"] = check.rollback_script;
  run.json = record.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // The check is recorded first, the rollback script (also kept in the record) written after it: a
  // kill between the two leaves a recorded halt whose script the record holds, never a script whose
  // check was not recorded. A pass removes the script of an earlier failed check of the wave.
  RecordCheck(state, check.wave, run.json);
  const fs::path rollback = PathUnder(state, check.wave + "-rollback.sh");
  if (!check.pass) {
    OutputFile script(rollback.string());
    script.Append(check.rollback_script);
    script.Commit();  // one rename over any earlier script: never a moment without one
    fs::permissions(rollback, fs::perms::owner_exec, fs::perm_options::add);
  } else {
    std::error_code ec;
    fs::remove(rollback, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("{}: cannot remove the rollback script of the failed check before: {}", rollback.string(), ec.message()));
  }
  if (ledger) {
    std::vector<AssetObservation> events = CheckObservations(check);
    if (!events.empty()) ledger->Record(events, by.empty() ? "railyard" : by, "railyard rollout check " + check.wave);
    run.recorded = events.size();
  }
  return run;
}

}  // namespace railyard
