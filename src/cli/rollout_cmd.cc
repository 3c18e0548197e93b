// railyard rollout plan|status|report|approve|check: firmware rollouts in waves (docs/rollout.md).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "doctor/doctor.h"
#include "ledger/ledger.h"
#include "model/findings_formats.h"
#include "rollout/check.h"
#include "rollout/rollout_file.h"
#include "rollout/state.h"
#include "rollout/waves.h"
#include "util/file.h"

namespace railyard::cli {

namespace {

// Standard input kept in a temporary file while a command reads it as a path; removed at the end.
class TempCopy {
 public:
  std::string Of(const std::string& text) {
    if (path_.empty()) {
      std::string pattern = (std::filesystem::temp_directory_path() / "railyard-stdin-XXXXXX.ndjson").string();
      int fd = ::mkstemps(pattern.data(), 7);
      if (fd < 0) throw std::runtime_error("cannot keep standard input in a temporary file");
      path_ = pattern;
      const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
      ::close(fd);
      if (!written) throw std::runtime_error(path_ + ": cannot write standard input's copy");
    }
    return path_;
  }
  ~TempCopy() {
    if (!path_.empty()) std::remove(path_.c_str());
  }

 private:
  std::string path_;
};

struct RolloutPlanArgs {
  std::vector<std::string> facts;
  std::string target, plan, policy, out, format = "table", by, ledger, switches;
  bool replace = false;
};

// rollout plan: the fleet's facts, the target and the policy into waves, written to the state
// directory when -o names one.
int RunRolloutPlan(const RolloutPlanArgs& a) {
  RolloutTarget target = LoadRolloutTarget(a.target);
  RolloutPolicy policy = a.policy.empty() ? RolloutPolicy{} : LoadRolloutPolicy(a.policy);
  std::unique_ptr<PlannedFabric> plan;
  if (!a.plan.empty()) plan = std::make_unique<PlannedFabric>(LoadPlanNoting(a.plan));
  std::vector<FleetHost> fleet;
  // "-" is read whole first (and kept): facts-before copies the same bytes after the plan.
  std::vector<std::string> inputs = a.facts;
  TempCopy stdin_copy;
  for (std::string& input : inputs) {
    if (input == "-") input = stdin_copy.Of(ReadWholeFile("-"));
  }
  ForEachFacts(inputs, [&](HostFacts&& facts) { fleet.push_back(FleetHostFromFacts(facts)); });
  if (fleet.empty()) throw InputError("no host facts in the given --facts");
  std::map<std::string, std::string> suspect;
  if (!a.ledger.empty()) suspect = SuspectCards(*OpenLedger(a.ledger, LedgerAccess::kRead));
  std::vector<SwitchFirmwareSeen> switches;
  if (!a.switches.empty()) switches = LoadSwitchInventory(a.switches);
  RolloutPlan rollout = PlanRollout(plan.get(), fleet, target, policy, suspect, switches);
  if (!a.out.empty()) {
    if (policy.two_person && NormalizedApprover(a.by, "--by").empty())
      throw UsageError("--by: the policy wants two people, and who plans is unknown ($USER is unset): give --by NAME");
    StateDirLock lock(a.out);
    if (std::string done = PrepareStateDir(a.out, a.replace); !done.empty()) Note(done);
    WriteRolloutState(rollout, target, policy, a.out, a.by, inputs);
  }
  std::cout << (a.format == "json" ? RolloutJsonText(rollout, target, policy) : RolloutPlanTable(rollout, fleet.size()));
  if (!a.out.empty() && a.format != "json") Note("wrote the rollout to " + a.out);
  return kExitOk;
}

SubVerb AddPlan(CLI::App& verb) {
  auto a = std::make_shared<RolloutPlanArgs>();
  CLI::App* cmd = verb.add_subcommand("plan", "Plan the waves: test, canary, rolling; gates that hold devices back");
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
  cmd->add_flag("--replace", a->replace,
                "-o holds a rollout already: move it into DIR/superseded-<time>/ and plan anew (without it: refused)");
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    return RunRolloutPlan(*a);
  };
}

SubVerb AddStatus(CLI::App& verb) {
  auto state = std::make_shared<std::string>();
  CLI::App* cmd = verb.add_subcommand("status", "Where the rollout stands: done, halted, waiting for approval, ready");
  cmd->add_option("--state", *state, "the state directory")->required()->check(CLI::ExistingDirectory);
  return [state, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    std::cout << RolloutStatusTable(RolloutStatus(*state));
    return kExitOk;
  };
}

SubVerb AddReport(CLI::App& verb) {
  struct Args {
    std::string state, format = "html";
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = verb.add_subcommand("report", "The whole rollout for the record: per device, CSV or one HTML page");
  cmd->add_option("--state", a->state, "the state directory")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--format", a->format, "html (default) or csv")->check(CLI::IsMember({"html", "csv"}));
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    std::cout << (a->format == "csv" ? RolloutReportCsv(a->state) : RolloutReportHtml(a->state));
    return kExitOk;
  };
}

SubVerb AddApprove(CLI::App& verb) {
  struct Args {
    std::string state, by;
    uint32_t wave = 0;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = verb.add_subcommand("approve", "Record the approval of a wave (two_person policies need one)");
  cmd->add_option("--state", a->state, "the state directory")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--wave", a->wave, "the wave")->required();
  cmd->add_option("--by", a->by, "who approves")->required();
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    ApproveWave(a->state, a->wave, a->by);
    std::cout << fmt::format("wave {} approved by {}\n", a->wave, a->by);
    return kExitOk;
  };
}

SubVerb AddCheck(CLI::App& verb) {
  struct Args {
    std::string state;
    uint32_t wave = 0;
    std::vector<std::string> facts;
    std::string plan, format = "table", switches, ledger, by;
  };
  auto c = std::make_shared<Args>();
  CLI::App* cmd = verb.add_subcommand("check", "After a wave: may the next start? (exit 0 go, 1 halt)");
  cmd->footer("Example:\n  railyard rollout check --state rollout/ --wave 1 --facts after/ --plan out/plan.json");
  cmd->add_option("--state", c->state, "the state directory of `rollout plan -o`")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--wave", c->wave, "the wave that just ran")->required();
  cmd->add_option("--facts", c->facts,
                  "HostFacts collected after the wave (at least its hosts; a switch wave: the drained ones)");
  cmd->add_option("--switches", c->switches, "switch inventory CSV taken after a switch wave (switch,firmware)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--ledger", c->ledger, "the asset ledger: each device's result is recorded on its serial")
      ->check(CLI::ExistingFile);
  cmd->add_option("--by", c->by, "who ran the check (default $USER), for the ledger")->envname("USER");
  cmd->add_option("--plan", c->plan, "plan.json: links checked against their planned speed and rail")->check(kFileOrStdin);
  cmd->add_option("--format", c->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  return [c, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    std::shared_ptr<const HostPlan> plan;
    if (!c->plan.empty()) plan = std::make_shared<HostPlan>(LoadPlanNoting(c->plan, true));
    std::vector<SwitchFirmwareSeen> switches;
    if (!c->switches.empty()) switches = LoadSwitchInventory(c->switches);
    // Opened before the check so that a wrong --ledger stops here, before anything is recorded.
    std::unique_ptr<LedgerStore> ledger;
    if (!c->ledger.empty()) ledger = OpenLedger(c->ledger, LedgerAccess::kWrite);
    WaveCheckRun run =
        CheckWaveInState(c->state, c->wave, c->facts, plan, c->switches.empty() ? nullptr : &switches, ledger.get(), c->by);
    const WaveCheck& check = run.check;
    if (ledger) {
      Note(fmt::format("recorded {} device result(s) in the ledger ({} without a serial)", run.recorded,
                       check.results.size() - run.recorded));
    }
    if (c->format == "json") {
      std::cout << run.json;
    } else {
      std::cout << fmt::format("{}: {} ({} of {} devices at target)\n", check.wave,
                               check.pass ? "pass: the next wave may start" : "HALT", check.at_target, check.devices);
      if (!check.findings.empty()) std::cout << "\n" << FindingsTable(check.findings);
      if (!check.pass) std::cout << fmt::format("\nrollback script: {}/{}-rollback.sh\n", c->state, check.wave);
    }
    return check.pass ? kExitOk : kExitFindings;
  };
}

}  // namespace

std::function<int()> AddRolloutCommand(CLI::App& app) {
  CLI::App* verb = app.add_subcommand("rollout", "Plan firmware rollouts in waves across failure domains");
  verb->require_subcommand(1);
  return RunWhicheverRan({AddPlan(*verb), AddStatus(*verb), AddReport(*verb), AddApprove(*verb), AddCheck(*verb)});
}

}  // namespace railyard::cli
