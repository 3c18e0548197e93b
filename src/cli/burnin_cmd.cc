// railyard burnin plan --plan plan.json [--pattern rail] [--hosts NODESET] -o DIR
// railyard burnin check --plan plan.json RESULTS_DIR [--policy burnin.yaml] [--format table|json]
#include <iostream>

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

std::function<int()> AddBurninCommand(CLI::App& app) {
  struct PlanArgs {
    std::string plan, out, launcher = "ssh";
    BurninOptions options;
  };
  auto a = std::make_shared<PlanArgs>();
  CLI::App* verb = app.add_subcommand(
      "burnin", "Acceptance under sustained load: plan perftest/NCCL rounds, read the results, name the bad part");
  verb->require_subcommand(1);
  CLI::App* plan = verb->add_subcommand("plan", "Rounds of disjoint NIC pairs from the plan, as JSON and runnable scripts");
  plan->footer(
      "Examples:\n"
      "  railyard burnin plan --plan out/plan.json -o burnin/                    # rail pattern, 3 rounds, ib_write_bw\n"
      "  railyard burnin plan --plan out/plan.json --pattern pairwise --hosts 'dgx[001-032]' -o burnin/\n"
      "  railyard burnin plan --plan out/plan.json --pattern topo --test nccl --launcher srun -o burnin/\n"
      "  sh burnin/run-all.sh && railyard burnin check --plan out/plan.json burnin/results\n"
      "See docs/burnin.md.");
  plan->add_option("--plan", a->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  plan->add_option("--pattern", a->options.pattern, "rail (default), pairwise, topo or loopback")
      ->check(CLI::IsMember({"rail", "pairwise", "topo", "loopback"}));
  plan->add_option("--test", a->options.test,
                   "perftest (ib_write_bw per NIC pair, default) or nccl (all_reduce_perf per host pair)")
      ->check(CLI::IsMember({"perftest", "nccl"}));
  plan->add_option("--plane", a->options.plane, "the plane to test (default: compute)");
  plan->add_option("--hosts", a->options.hosts, "only these hosts: a Slurm host list (dgx[001-064,070]) or a glob (dgx0*)");
  plan->add_option("--rounds", a->options.rounds, "at most this many rounds (rail: 3 by default; pairwise: all N-1)")
      ->check(CLI::Range(1, 100000));
  plan->add_option("--duration", a->options.duration_s, "seconds each test runs (perftest -D; default 30)")
      ->check(CLI::Range(1, 86400));
  plan->add_option("--gpus-per-node", a->options.gpus_per_node, "NCCL: ranks per host (default 8)")->check(CLI::Range(1, 64));
  plan->add_flag("!--no-counters", a->options.counters, "do not snapshot each NIC's counters (mlxlink -c -m) around the rounds");
  plan->add_option("--launcher", a->launcher, "how scripts start a command on a host: ssh (default) or srun")
      ->check(CLI::IsMember({"ssh", "srun"}));
  plan->add_option("-o,--output", a->out, "directory: burnin-plan.json, round-NNN.sh, run-all.sh (or FILE.tar)")->required();
  struct CheckArgs {
    std::string plan, results, burnin, policy, format = "table", out, launcher = "ssh", ledger, by;
    std::vector<std::string> facts;
  };
  auto c = std::make_shared<CheckArgs>();
  CLI::App* check =
      verb->add_subcommand("check", "Read every result, judge it against the link, name the suspects and the next round");
  check->footer(
      "Examples:\n"
      "  railyard burnin check --plan out/plan.json burnin/results\n"
      "  railyard burnin check --plan out/plan.json burnin/results --policy burnin.yaml --format json > burnin.json\n"
      "Exit 0: every pair measured and passed; 1: failures or missing results; 2: bad input. See docs/burnin.md.");
  CLI::App* bisect = verb->add_subcommand("bisect", "Write the next round: each suspect against known-good partners, loopbacks");
  bisect->footer(
      "Example:\n"
      "  railyard burnin bisect --plan out/plan.json burnin/results -o burnin/bisect-1/ && sh burnin/bisect-1/run-all.sh\n"
      "  railyard burnin check --plan out/plan.json burnin/bisect-1/results");
  for (CLI::App* sub : {check, bisect}) {
    sub->add_option("--plan", c->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
    sub->add_option("results", c->results, "the results directory the round scripts wrote")
        ->required()
        ->check(CLI::ExistingDirectory);
    sub->add_option("--burnin", c->burnin, "burnin-plan.json (default: in RESULTS or the directory above it)");
    sub->add_option("--policy", c->policy, "burnin.yaml: thresholds (docs/burnin.md)")->check(kFileOrStdin);
  }
  check->add_option("--format", c->format, "table (default), json, or html (a page with heat maps)")
      ->check(CLI::IsMember({"table", "json", "html"}));
  check->add_option("--ledger", c->ledger, "record each NIC's verdict (burnin.result) on its serial, for acceptance");
  check
      ->add_option("--facts", c->facts,
                   "host facts (railyard collect) that map each RDMA device to its PCI address, for --ledger")
      ->check(CLI::ExistingFile);
  check->add_option("--by", c->by, "who ran the campaign (default $USER), for the ledger")->envname("USER");
  bisect->add_option("--launcher", c->launcher, "ssh (default) or srun")->check(CLI::IsMember({"ssh", "srun"}));
  bisect->add_option("-o,--output", c->out, "directory for the next round's burnin-plan.json and scripts")->required();
  return [a, plan, c, check, bisect]() -> int {
    try {
      if (check->parsed() || bisect->parsed()) {
        namespace fs = std::filesystem;
        std::string burnin = c->burnin;
        if (burnin.empty()) {
          for (const fs::path& p :
               {fs::path(c->results) / "burnin-plan.json", fs::path(c->results).parent_path() / "burnin-plan.json",
                fs::absolute(c->results).parent_path() / "burnin-plan.json"}) {
            if (fs::exists(p)) {
              burnin = p.string();
              break;
            }
          }
          if (burnin.empty())
            throw std::runtime_error(fmt::format("{}: no burnin-plan.json in it or above it (give --burnin)", c->results));
        }
        BurninPlan bp = ParseBurninPlan(ReadWholeFile(burnin), burnin);
        BurninPolicy policy =
            c->policy.empty() ? BurninPolicy{} : ParseBurninPolicy(ReadWholeFile(c->policy), ShownPath(c->policy));
        PlannedFabric fabric = LoadPlanNoting(c->plan);
        // Opened before the check, so a wrong --ledger stops here, before anything is recorded.
        std::unique_ptr<LedgerStore> ledger;
        if (!c->ledger.empty()) {
          if (c->facts.empty())
            throw std::runtime_error("--ledger needs --facts: the host facts map each RDMA device to its card");
          ledger = OpenLedger(c->ledger, LedgerAccess::kWrite);
        }
        BurninCheck result = CheckBurnin(bp, &fabric, c->results, policy);
        if (ledger && check->parsed()) {
          std::vector<HostFacts> facts;
          ForEachFacts(c->facts, [&](HostFacts&& f) { facts.push_back(std::move(f)); });
          BurninLedgerUpdate update = BurninObservations(result, facts, *ledger);
          if (!update.observations.empty()) {
            ledger->Record(update.observations, c->by.empty() ? "railyard" : c->by, "railyard burnin check " + burnin);
          }
          Note(fmt::format("recorded the burn-in verdict of {} NIC(s) in the ledger{}", update.observations.size(),
                           update.unmapped.empty() ? ""
                                                   : fmt::format("; {} measured NIC(s) have no card in it at their PCI address "
                                                                 "(the first: {})",
                                                                 update.unmapped.size(), update.unmapped.front())));
        }
        if (bisect->parsed()) {
          if (result.next_round.pairs.empty()) {
            Note("no suspect to bisect: no next round written");
            return kExitOk;
          }
          BurninPlan next = BisectPlan(result);
          // Scripts for the new round only, writing beside the campaign's results: checked with
          // --burnin DIR/burnin-plan.json, the new round is judged with the history of the others.
          std::vector<HostFile> files =
              BurninScripts(next, c->launcher, result.next_round.index, fs::absolute(c->results).string());
          files.push_back({"burnin-plan.json", 0644, BurninPlanJson(next)});
          WriteFileTree(files, c->out);
          Note(fmt::format(
              "next round: {} pair(s) for {} suspect(s); wrote {} (then: railyard burnin check --plan {} {} "
              "--burnin {}/burnin-plan.json)",
              result.next_round.pairs.size(), result.localization.suspects.size(), c->out, c->plan, c->results, c->out));
          return kExitOk;
        }
        std::cout << (c->format == "json"   ? BurninCheckJson(result)
                      : c->format == "html" ? BurninCheckHtml(result)
                                            : BurninCheckTable(result));
        return result.failed > 0 || !result.missing.empty() ? kExitFindings : kExitOk;
      }
      if (plan->parsed()) {
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
      }
      return kExitInput;
    } catch (const std::exception& e) {
      std::cerr << "railyard: error: " << e.what() << "\n";
      return kExitInput;
    }
  };
}

}  // namespace railyard::cli
