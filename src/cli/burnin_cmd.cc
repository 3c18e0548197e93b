// railyard burnin plan --plan plan.json [--pattern rail] [--hosts NODESET] -o DIR
// railyard burnin check --plan plan.json RESULTS_DIR [--policy burnin.yaml] [--format table|json]
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "burnin/burnin_check.h"
#include "burnin/burnin_ledger.h"
#include "burnin/burnin_plan.h"
#include "cli/commands.h"
#include "cli/messages.h"
#include "config/host_config.h"
#include "doctor/doctor.h"
#include "ledger/ledger.h"
#include "util/file.h"

#include <filesystem>

namespace railyard::cli {

namespace {

SubVerb AddPlan(CLI::App& verb) {
  struct Args {
    std::string plan, out, launcher = "ssh";
    BurninOptions options;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = verb.add_subcommand("plan", "Rounds of disjoint NIC pairs from the plan, as JSON and runnable scripts");
  cmd->footer(
      "Examples:\n"
      "  railyard burnin plan --plan out/plan.json -o burnin/                    # rail pattern, 3 rounds, ib_write_bw\n"
      "  railyard burnin plan --plan out/plan.json --pattern pairwise --hosts 'dgx[001-032]' -o burnin/\n"
      "  railyard burnin plan --plan out/plan.json --pattern topo --test nccl --launcher srun -o burnin/\n"
      "  sh burnin/run-all.sh && railyard burnin check --plan out/plan.json burnin/results\n"
      "See docs/burnin.md.");
  cmd->add_option("--plan", a->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  cmd->add_option("--pattern", a->options.pattern, "rail (default), pairwise, topo or loopback")
      ->check(CLI::IsMember({"rail", "pairwise", "topo", "loopback"}));
  cmd->add_option("--test", a->options.test,
                  "perftest (ib_write_bw per NIC pair, default) or nccl (all_reduce_perf per host pair)")
      ->check(CLI::IsMember({"perftest", "nccl"}));
  cmd->add_option("--plane", a->options.plane, "the plane to test (default: compute)");
  cmd->add_option("--hosts", a->options.hosts, "only these hosts: a Slurm host list (dgx[001-064,070]) or a glob (dgx0*)");
  cmd->add_option("--rounds", a->options.rounds, "at most this many rounds (rail: 3 by default; pairwise: all N-1)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--duration", a->options.duration_s, "seconds each test runs (perftest -D; default 30)")
      ->check(CLI::Range(1, 86400));
  cmd->add_option("--gpus-per-node", a->options.gpus_per_node, "NCCL: ranks per host (default 8)")->check(CLI::Range(1, 64));
  cmd->add_flag("!--no-counters", a->options.counters, "do not snapshot each NIC's counters (mlxlink -c -m) around the rounds");
  cmd->add_option("--launcher", a->launcher, "how scripts start a command on a host: ssh (default) or srun")
      ->check(CLI::IsMember({"ssh", "srun"}));
  cmd->add_option("-o,--output", a->out, "directory: burnin-plan.json, round-NNN.sh, run-all.sh (or FILE.tar)")->required();
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    PlannedFabric fabric = LoadPlanNoting(a->plan);
    BurninPlan p = PlanBurnin(fabric, a->options);
    std::vector<HostFile> files = BurninScripts(p, a->launcher);
    files.push_back({"burnin-plan.json", 0644, BurninPlanJson(p)});
    WriteFileTree(files, a->out);
    size_t pairs = 0;
    for (const BurninRound& r : p.rounds) pairs += r.pairs.size();
    for (const std::string& note : p.notes) Note("note: " + note);
    Note(fmt::format("{} pattern on plane {}: {} round(s), {} pair(s) over {} host(s); wrote {}", p.pattern, p.plane,
                     p.rounds.size(), pairs, p.hosts, a->out));
    return kExitOk;
  };
}

// What `check` and `bisect` both read: the plan, the results directory, its burn-in plan and the policy.
struct ResultsArgs {
  std::string plan, results, burnin, policy;
};

void AddResultsOptions(CLI::App& cmd, ResultsArgs& r) {
  cmd.add_option("--plan", r.plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  cmd.add_option("results", r.results, "the results directory the round scripts wrote")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd.add_option("--burnin", r.burnin, "burnin-plan.json (default: in RESULTS or the directory above it)");
  cmd.add_option("--policy", r.policy, "burnin.yaml: thresholds (docs/burnin.md)")->check(kFileOrStdin);
}

// Every result judged against the plan; `burnin` is set to the burn-in plan read.
BurninCheck CheckResults(const ResultsArgs& r, std::string& burnin) {
  burnin = r.burnin.empty() ? FindBurninPlan(r.results) : r.burnin;
  BurninPlan bp = ParseBurninPlan(ReadWholeFile(burnin), burnin);
  BurninPolicy policy = r.policy.empty() ? BurninPolicy{} : ParseBurninPolicy(ReadWholeFile(r.policy), ShownPath(r.policy));
  PlannedFabric fabric = LoadPlanNoting(r.plan);
  return CheckBurnin(bp, &fabric, r.results, policy);
}

SubVerb AddCheck(CLI::App& verb) {
  struct Args {
    ResultsArgs results;
    std::string format = "table", ledger, by;
    std::vector<std::string> facts;
  };
  auto c = std::make_shared<Args>();
  CLI::App* cmd =
      verb.add_subcommand("check", "Read every result, judge it against the link, name the suspects and the next round");
  cmd->footer(
      "Examples:\n"
      "  railyard burnin check --plan out/plan.json burnin/results\n"
      "  railyard burnin check --plan out/plan.json burnin/results --policy burnin.yaml --format json > burnin.json\n"
      "Exit 0: every pair measured and passed; 1: failures or missing results; 2: bad input. See docs/burnin.md.");
  AddResultsOptions(*cmd, c->results);
  cmd->add_option("--format", c->format, "table (default), json, or html (a page with heat maps)")
      ->check(CLI::IsMember({"table", "json", "html"}));
  cmd->add_option("--ledger", c->ledger, "record each NIC's verdict (burnin.result) on its serial, for acceptance");
  cmd->add_option("--facts", c->facts, "host facts (railyard collect) that map each RDMA device to its PCI address, for --ledger")
      ->check(CLI::ExistingFile);
  cmd->add_option("--by", c->by, "who ran the campaign (default $USER), for the ledger")->envname("USER");
  return [c, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    // Opened before the check, so a wrong --ledger stops here, before anything is recorded.
    std::unique_ptr<LedgerStore> ledger;
    if (!c->ledger.empty()) {
      if (c->facts.empty()) throw UsageError("--ledger needs --facts: the host facts map each RDMA device to its card");
      ledger = OpenLedger(c->ledger, LedgerAccess::kWrite);
    }
    std::string burnin;
    BurninCheck result = CheckResults(c->results, burnin);
    if (ledger) {
      BurninLedgerUpdate update = RecordBurninVerdicts(result, c->facts, *ledger, c->by, "railyard burnin check " + burnin);
      Note(fmt::format("recorded the burn-in verdict of {} NIC(s) in the ledger{}", update.observations.size(),
                       update.unmapped.empty() ? ""
                                               : fmt::format("; {} measured NIC(s) have no card in it at their PCI address "
                                                             "(the first: {})",
                                                             update.unmapped.size(), update.unmapped.front())));
    }
    std::cout << (c->format == "json"   ? BurninCheckJson(result)
                  : c->format == "html" ? BurninCheckHtml(result)
                                        : BurninCheckTable(result));
    return result.failed > 0 || !result.missing.empty() ? kExitFindings : kExitOk;
  };
}

SubVerb AddBisect(CLI::App& verb) {
  struct Args {
    ResultsArgs results;
    std::string out, launcher = "ssh";
  };
  auto b = std::make_shared<Args>();
  CLI::App* cmd = verb.add_subcommand("bisect", "Write the next round: each suspect against known-good partners, loopbacks");
  cmd->footer(
      "Example:\n"
      "  railyard burnin bisect --plan out/plan.json burnin/results -o burnin/bisect-1/ && sh burnin/bisect-1/run-all.sh\n"
      "  railyard burnin check --plan out/plan.json burnin/bisect-1/results");
  AddResultsOptions(*cmd, b->results);
  cmd->add_option("--launcher", b->launcher, "ssh (default) or srun")->check(CLI::IsMember({"ssh", "srun"}));
  cmd->add_option("-o,--output", b->out, "directory for the next round's burnin-plan.json and scripts")->required();
  return [b, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    std::string burnin;
    BurninCheck result = CheckResults(b->results, burnin);
    if (result.next_round.pairs.empty()) {
      Note("no suspect to bisect: no next round written");
      return kExitOk;
    }
    BurninPlan next = BisectPlan(result);
    // Scripts for the new round only, writing beside the campaign's results: checked with
    // --burnin DIR/burnin-plan.json, the new round is judged with the history of the others.
    std::vector<HostFile> files =
        BurninScripts(next, b->launcher, result.next_round.index, std::filesystem::absolute(b->results.results).string());
    files.push_back({"burnin-plan.json", 0644, BurninPlanJson(next)});
    WriteFileTree(files, b->out);
    Note(
        fmt::format("next round: {} pair(s) for {} suspect(s); wrote {} (then: railyard burnin check --plan {} {} "
                    "--burnin {}/burnin-plan.json)",
                    result.next_round.pairs.size(), result.localization.suspects.size(), b->out, b->results.plan,
                    b->results.results, b->out));
    return kExitOk;
  };
}

}  // namespace

std::function<int()> AddBurninCommand(CLI::App& app) {
  CLI::App* verb = app.add_subcommand(
      "burnin", "Acceptance under sustained load: plan perftest/NCCL rounds, read the results, name the bad part");
  verb->require_subcommand(1);
  return RunWhicheverRan({AddPlan(*verb), AddCheck(*verb), AddBisect(*verb)});
}

}  // namespace railyard::cli
