// railyard rollout plan --facts FLEET --target target.yaml [--plan plan.json] [--policy rollout.yaml] -o STATE_DIR
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "doctor/doctor.h"
#include "export/summary.h"
#include "ledger/authenticity.h"
#include "ledger/ledger.h"
#include "model/findings_formats.h"
#include "model/schemas.h"
#include "rollout/check.h"
#include "rollout/state.h"
#include "util/json_input.h"
#include "util/output_file.h"

namespace railyard::cli {

namespace {

// The facts the rollout was planned from, kept in STATE_DIR/facts-before/ for `rollout check`: each
// input file copied under a temporary name and renamed into place.
void KeepFactsBefore(const std::vector<std::string>& inputs, const std::string& state) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(state) / "facts-before";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  size_t n = 0;
  auto keep = [&](const fs::path& file) {
    fs::path target = dir / fmt::format("{:04}-{}", n++, file.filename().string());
    if (target.extension() != ".json" && target.extension() != ".ndjson") target += ".ndjson";
    fs::path temp = target;
    temp += ".tmp";
    fs::copy_file(file, temp, fs::copy_options::overwrite_existing);
    fs::rename(temp, target);
  };
  for (const std::string& input : inputs) {
    if (fs::is_directory(input)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(input)) {
        if (e.path().extension() == ".json" || e.path().extension() == ".ndjson") files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) keep(f);
    } else {
      keep(input);
    }
  }
}

template <typename Args>
int RunCheck(const Args& c) {
  namespace fs = std::filesystem;
  try {
    nlohmann::json rollout = ReadJsonFile((fs::path(c.state) / "rollout.json").string());
    std::vector<HostFacts> before, after;
    if (fs::is_directory(fs::path(c.state) / "facts-before")) {
      ForEachFacts({(fs::path(c.state) / "facts-before").string()}, [&](HostFacts&& f) { before.push_back(std::move(f)); });
    }
    if (!c.facts.empty()) ForEachFacts(c.facts, [&](HostFacts&& f) { after.push_back(std::move(f)); });
    std::shared_ptr<const HostPlan> plan;
    if (!c.plan.empty()) plan = std::make_shared<HostPlan>(LoadPlanNoting(c.plan, true));
    std::vector<SwitchFirmwareSeen> switches;
    if (!c.switches.empty()) switches = LoadSwitchInventory(c.switches);
    const nlohmann::json* wave =
        rollout.contains("waves") && c.wave < rollout["waves"].size() ? &rollout["waves"][c.wave] : nullptr;
    if (c.facts.empty() && (!wave || wave->value("kind", "host") != "switch")) {
      throw std::runtime_error(fmt::format("--facts: wave {} is a wave of hosts: give the facts collected after it", c.wave));
    }
    // Opened before the check so that a wrong --ledger stops here, before anything is recorded.
    std::unique_ptr<LedgerStore> ledger;
    if (!c.ledger.empty()) ledger = OpenLedger(c.ledger, LedgerAccess::kWrite);
    WaveCheck check = CheckWave(rollout, c.wave, before, after, plan, c.switches.empty() ? nullptr : &switches);
    if (!check.pass) {
      OutputFile script((fs::path(c.state) / (check.wave + "-rollback.sh")).string());
      script.Append(check.rollback_script);
      CommitAll({&script});
    }
    const std::string json =
        nlohmann::json{
            {"schema", kRolloutCheckSchema}, {"wave", check.wave},           {"pass", check.pass},
            {"devices", check.devices},      {"at_target", check.at_target}, {"findings", FindingsJson(check.findings)}}
            .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
        "\n";
    RecordCheck(c.state, check.wave, json);  // `rollout status` reads it back
    if (ledger) {
      std::vector<AssetObservation> events = CheckObservations(check);
      if (!events.empty()) ledger->Record(events, c.by.empty() ? "railyard" : c.by, "railyard rollout check " + check.wave);
      Note(fmt::format("recorded {} device result(s) in the ledger ({} without a serial)", events.size(),
                       check.results.size() - events.size()));
    }
    if (c.format == "json") {
      std::cout << json;
    } else {
      std::cout << fmt::format("{}: {} ({} of {} devices at target)\n", check.wave,
                               check.pass ? "pass: the next wave may start" : "HALT", check.at_target, check.devices);
      if (!check.findings.empty()) std::cout << "\n" << FindingsTable(check.findings);
      if (!check.pass) std::cout << fmt::format("\nrollback script: {}/{}-rollback.sh\n", c.state, check.wave);
    }
    return check.pass ? kExitOk : kExitFindings;
  } catch (const std::exception& e) {
    std::cerr << "railyard: error: " << e.what() << "\n";
    return kExitInput;
  }
}

}  // namespace

std::function<int()> AddRolloutCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> facts;
    std::string target;
    std::string plan;
    std::string policy;
    std::string out;
    std::string format = "table";
    std::string by;
    std::string ledger;
    std::string switches;
  };
  auto a = std::make_shared<Args>();
  CLI::App* verb = app.add_subcommand("rollout", "Plan firmware rollouts in waves across failure domains");
  verb->require_subcommand(1);
  CLI::App* cmd = verb->add_subcommand("plan", "Plan the waves: test, canary, rolling; gates that hold devices back");
  cmd->footer(
      "Examples:\n"
      "  railyard rollout plan --facts fleet.ndjson --target examples/rollout/target.yaml --plan out/plan.json -o rollout/\n"
      "  railyard rollout plan --facts facts/ --target target.yaml --policy examples/rollout/policy.yaml --format json");
  cmd->add_option("--facts", a->facts, "HostFacts of the fleet: NDJSON, files or directories")->required();
  cmd->add_option("--target", a->target,
                  "target.yaml: image, version and sha256 per PSID (docs/rollout.md); - for standard input")
      ->required()
      ->check(kFileOrStdin);
  cmd->add_option("--plan", a->plan, "plan.json: scalable units and leaves as failure domains")->check(kFileOrStdin);
  cmd->add_option("--policy", a->policy, "rollout policy YAML (docs/rollout.md); defaults without one")->check(kFileOrStdin);
  cmd->add_option("-o,--output", a->out, "state directory: rollout.json, per-wave scripts, nodesets, inventory.ini");
  cmd->add_option("--format", a->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("--ledger", a->ledger, "the asset ledger: cards with an authenticity finding are never flashed")
      ->check(CLI::ExistingFile);
  cmd->add_option("--switches", a->switches,
                  "switch inventory CSV (switch,firmware[,address]): switch waves first, per target.yaml")
      ->check(CLI::ExistingFile);
  cmd->add_option("--by", a->by, "who plans it (default $USER): with two_person, someone else approves")->envname("USER");
  auto status_state = std::make_shared<std::string>();
  CLI::App* status_cmd = verb->add_subcommand("status", "Where the rollout stands: done, halted, waiting for approval, ready");
  status_cmd->add_option("--state", *status_state, "the state directory")->required()->check(CLI::ExistingDirectory);
  struct ReportArgs {
    std::string state, format = "html";
  };
  auto rp = std::make_shared<ReportArgs>();
  CLI::App* report_cmd = verb->add_subcommand("report", "The whole rollout for the record: per device, CSV or one HTML page");
  report_cmd->add_option("--state", rp->state, "the state directory")->required()->check(CLI::ExistingDirectory);
  report_cmd->add_option("--format", rp->format, "html (default) or csv")->check(CLI::IsMember({"html", "csv"}));
  struct ApproveArgs {
    std::string state, by;
    uint32_t wave = 0;
  };
  auto ap = std::make_shared<ApproveArgs>();
  CLI::App* approve_cmd = verb->add_subcommand("approve", "Record the approval of a wave (two_person policies need one)");
  approve_cmd->add_option("--state", ap->state, "the state directory")->required()->check(CLI::ExistingDirectory);
  approve_cmd->add_option("--wave", ap->wave, "the wave")->required();
  approve_cmd->add_option("--by", ap->by, "who approves")->required();
  struct CheckArgs {
    std::string state;
    uint32_t wave = 0;
    std::vector<std::string> facts;
    std::string plan;
    std::string format = "table";
    std::string switches, ledger, by;
  };
  auto c = std::make_shared<CheckArgs>();
  CLI::App* check_cmd = verb->add_subcommand("check", "After a wave: may the next start? (exit 0 go, 1 halt)");
  check_cmd->footer("Example:\n  railyard rollout check --state rollout/ --wave 1 --facts after/ --plan out/plan.json");
  check_cmd->add_option("--state", c->state, "the state directory of `rollout plan -o`")
      ->required()
      ->check(CLI::ExistingDirectory);
  check_cmd->add_option("--wave", c->wave, "the wave that just ran")->required();
  check_cmd->add_option("--facts", c->facts,
                        "HostFacts collected after the wave (at least its hosts; a switch wave: the drained ones)");
  check_cmd->add_option("--switches", c->switches, "switch inventory CSV taken after a switch wave (switch,firmware)")
      ->check(CLI::ExistingFile);
  check_cmd->add_option("--ledger", c->ledger, "the asset ledger: each device's result is recorded on its serial")
      ->check(CLI::ExistingFile);
  check_cmd->add_option("--by", c->by, "who ran the check (default $USER), for the ledger")->envname("USER");
  check_cmd->add_option("--plan", c->plan, "plan.json: links checked against their planned speed and rail")->check(kFileOrStdin);
  check_cmd->add_option("--format", c->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  return [a, cmd, c, check_cmd, status_cmd, status_state, approve_cmd, ap, report_cmd, rp]() -> int {
    if (check_cmd->parsed()) return RunCheck(*c);
    if (status_cmd->parsed() || approve_cmd->parsed() || report_cmd->parsed()) {
      try {
        if (report_cmd->parsed()) {
          std::cout << (rp->format == "csv" ? RolloutReportCsv(rp->state) : RolloutReportHtml(rp->state));
          return kExitOk;
        }
        if (approve_cmd->parsed()) {
          ApproveWave(ap->state, ap->wave, ap->by);
          std::cout << fmt::format("wave {} approved by {}\n", ap->wave, ap->by);
          return kExitOk;
        }
        std::cout << fmt::format("{:<5} {:<16} {:<21} {}\n", "WAVE", "NAME", "STATE", "DETAIL");
        for (const WaveStatus& s : RolloutStatus(*status_state)) {
          std::cout << fmt::format("{:<5} {:<16} {:<21} {}\n", s.index, s.name, s.state, s.detail);
        }
        return kExitOk;
      } catch (const std::exception& e) {
        std::cerr << "railyard: error: " << e.what() << "\n";
        return kExitInput;
      }
    }
    if (!cmd->parsed()) return kExitInput;
    try {
      RolloutTarget target = LoadRolloutTarget(a->target);
      RolloutPolicy policy = a->policy.empty() ? RolloutPolicy{} : LoadRolloutPolicy(a->policy);
      std::unique_ptr<PlannedFabric> plan;
      if (!a->plan.empty()) plan = std::make_unique<PlannedFabric>(LoadPlanNoting(a->plan));
      std::vector<FleetHost> fleet;
      ForEachFacts(a->facts, [&](HostFacts&& facts) { fleet.push_back(FleetHostFromFacts(facts)); });
      if (fleet.empty()) throw std::runtime_error("no host facts in the given --facts");
      std::map<std::string, std::string> suspect;
      if (!a->ledger.empty()) {
        std::unique_ptr<LedgerStore> ledger = OpenLedger(a->ledger, LedgerAccess::kRead);
        for (const AuthenticityFinding& f : CheckLedger(*ledger)) {
          if (f.finding.severity >= Severity::kWarning)
            suspect.emplace(f.finding.host, f.finding.rule + ": " + f.finding.message);
        }
      }
      std::vector<SwitchFirmwareSeen> switches;
      if (!a->switches.empty()) switches = LoadSwitchInventory(a->switches);
      RolloutPlan rollout = PlanRollout(plan.get(), fleet, target, policy, suspect, switches);
      if (!a->out.empty()) {
        WriteRolloutState(rollout, target, policy, a->out, a->by);
        KeepFactsBefore(a->facts, a->out);
      }
      if (a->format == "json") {
        std::cout << RolloutJsonText(rollout, target, policy);
        return kExitOk;
      }
      size_t devices = 0;
      for (const RolloutWave& w : rollout.waves) devices += w.devices.size();
      std::cout << fmt::format("{} hosts, {} devices to move in {} waves; {} devices held back\n\n", fleet.size(), devices,
                               rollout.waves.size(), rollout.skipped.size());
      std::cout << fmt::format("{:<5} {:<15} {:>6} {:>8} {:>7}  {}\n", "WAVE", "NAME", "HOSTS", "DEVICES", "DRAINED",
                               "FIRST HOSTS");
      for (const RolloutWave& w : rollout.waves) {
        std::string first;
        for (size_t i = 0; i < w.hosts.size() && i < 4; ++i) first += (i ? " " : "") + w.hosts[i];
        if (w.hosts.size() > 4) first += " ...";
        std::cout << fmt::format("{:<5} {:<15} {:>6} {:>8} {:>7}  {}\n", w.index, w.name, w.hosts.size(), w.devices.size(),
                                 w.drain.size(), first);
      }
      std::map<std::string, size_t> rules;
      for (const RolloutSkip& s : rollout.skipped) ++rules[s.rule];
      if (!rules.empty()) {
        std::cout << "\nheld back:";
        for (const auto& [rule, n] : rules) std::cout << fmt::format(" {} {}", n, rule);
        std::cout << "\n";
      }
      if (!rollout.findings.empty()) std::cout << "\n" << FindingsTable(rollout.findings);
      if (!a->out.empty()) Note("wrote the rollout to " + a->out);
      return kExitOk;
    } catch (const std::exception& e) {
      std::cerr << "railyard: error: " << e.what() << "\n";
      return kExitInput;
    }
  };
}

}  // namespace railyard::cli
