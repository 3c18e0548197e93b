// railyard rollout plan --facts FLEET --target target.yaml [--plan plan.json] [--policy rollout.yaml] -o STATE_DIR
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "doctor/doctor.h"
#include "export/summary.h"
#include "rollout/state.h"

namespace railyard::cli {

std::function<int()> AddRolloutCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> facts;
    std::string target;
    std::string plan;
    std::string policy;
    std::string out;
    std::string format = "table";
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
  cmd->add_option("--target", a->target, "target.yaml: image, version and sha256 per PSID (docs/rollout.md)")
      ->required()->check(CLI::ExistingFile);
  cmd->add_option("--plan", a->plan, "plan.json: scalable units and leaves as failure domains")->check(CLI::ExistingFile);
  cmd->add_option("--policy", a->policy, "rollout policy YAML (docs/rollout.md); defaults without one")->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", a->out, "state directory: rollout.json, per-wave scripts, nodesets, inventory.ini");
  cmd->add_option("--format", a->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  return [a, cmd]() -> int {
    if (!cmd->parsed()) return kExitInput;
    try {
      RolloutTarget target = LoadRolloutTarget(a->target);
      RolloutPolicy policy = a->policy.empty() ? RolloutPolicy{} : LoadRolloutPolicy(a->policy);
      std::unique_ptr<PlannedFabric> plan;
      if (!a->plan.empty()) plan = std::make_unique<PlannedFabric>(LoadPlanNoting(a->plan));
      std::vector<FleetHost> fleet;
      ForEachFacts(a->facts, [&](HostFacts&& facts) { fleet.push_back(FleetHostFromFacts(facts)); });
      if (fleet.empty()) throw std::runtime_error("no host facts in the given --facts");
      RolloutPlan rollout = PlanRollout(plan.get(), fleet, target, policy);
      if (!a->out.empty()) WriteRolloutState(rollout, target, policy, a->out);
      if (a->format == "json") {
        std::cout << RolloutJsonText(rollout, target, policy);
        return kExitOk;
      }
      size_t devices = 0;
      for (const RolloutWave& w : rollout.waves) devices += w.devices.size();
      std::cout << fmt::format("{} hosts, {} devices to move in {} waves; {} devices held back\n\n", fleet.size(), devices,
                               rollout.waves.size(), rollout.skipped.size());
      std::cout << fmt::format("{:<5} {:<12} {:>6} {:>8}  {}\n", "WAVE", "NAME", "HOSTS", "DEVICES", "FIRST HOSTS");
      for (const RolloutWave& w : rollout.waves) {
        std::string first;
        for (size_t i = 0; i < w.hosts.size() && i < 4; ++i) first += (i ? " " : "") + w.hosts[i];
        if (w.hosts.size() > 4) first += " ...";
        std::cout << fmt::format("{:<5} {:<12} {:>6} {:>8}  {}\n", w.index, w.name, w.hosts.size(), w.devices.size(), first);
      }
      std::map<std::string, size_t> rules;
      for (const RolloutSkip& s : rollout.skipped) ++rules[s.rule];
      if (!rules.empty()) {
        std::cout << "\nheld back:";
        for (const auto& [rule, n] : rules) std::cout << fmt::format(" {} {}", n, rule);
        std::cout << "\n";
      }
      if (!rollout.findings.empty()) std::cout << "\n" << FindingsTable(rollout.findings);
      if (!a->out.empty()) std::cerr << "railyard: wrote the rollout to " << a->out << "\n";
      return kExitOk;
    } catch (const std::exception& e) {
      std::cerr << "railyard: error: " << e.what() << "\n";
      return kExitInput;
    }
  };
}

}  // namespace railyard::cli
