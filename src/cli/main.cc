// railyard: plan, accept, verify, diagnose and upgrade the network of large GPU clusters.
#include <iostream>
#include <vector>

#include <algorithm>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "util/suggest.h"
#include "util/terminal.h"
#include "util/version.h"

int main(int argc, char** argv) {
  railyard::ProtectTerminal();  // outside names (LLDP, captures, serials) may carry escape sequences
  CLI::App app{"railyard: the network of 1,000 to 100,000-GPU training clusters, from plan to acceptance.", "railyard"};
  app.footer(
      "Examples:\n"
      "  railyard plan examples/superpod-h100-4su.yaml            # counts, BOM totals, findings\n"
      "  railyard plan examples/superpod-h100-4su.yaml -o out/    # plus plan.json, cut-sheet, labels, ...\n"
      "  railyard plan cluster.yaml --format json | jq .planes     # machine-readable summary\n"
      "  railyard check cluster.yaml --fail-on warning             # design checks only, for CI\n"
      "  railyard advise --spec cluster.yaml --answers answers.yaml   # IB or RoCE, NIC, switch: sourced advice\n"
      "  railyard catalog switches                                 # what the planner can choose from\n"
      "  railyard verify --plan out/plan.json --ibnetdiscover fabric.topo   # cabling as built vs plan\n"
      "  railyard collect -o host.json                             # this host's NIC facts\n"
      "  railyard doctor facts/ --fail-on warning                  # faults in many hosts' facts\n"
      "\nExit codes: 0 ok, 1 findings at or above --fail-on, 2 usage or input error.");
  app.require_subcommand(1);
  app.set_version_flag("--version", railyard::VersionLine());
  auto plan = railyard::cli::AddPlanCommand(app);
  auto check = railyard::cli::AddCheckCommand(app);
  auto advise = railyard::cli::AddAdviseCommand(app);
  auto catalog = railyard::cli::AddCatalogCommand(app);
  auto verify = railyard::cli::AddVerifyCommand(app);
  auto collect = railyard::cli::AddCollectCommand(app);
  auto doctor = railyard::cli::AddDoctorCommand(app);
  auto ledger = railyard::cli::AddLedgerCommand(app);
  auto accept = railyard::cli::AddAcceptCommand(app);
  auto rollout = railyard::cli::AddRolloutCommand(app);
  auto config = railyard::cli::AddConfigCommand(app);
  auto burnin = railyard::cli::AddBurninCommand(app);
  auto serve = railyard::cli::AddServeCommand(app);
  auto completion = railyard::cli::AddCompletionCommand(app);
  // A mistyped verb ("railyard plna") gets the verb it most likely meant, not CLI11's generic complaint.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> verbs;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) verbs.push_back(sub->get_name());
    std::string verb = argv[1];
    if (std::find(verbs.begin(), verbs.end(), verb) == verbs.end()) {
      std::string guess = railyard::ClosestMatch(verb, verbs);
      for (const std::string& v : verbs) {
        // Short verbs: a transposition ("plna") or a prefix ("ver") is the likelier slip than a far edit.
        std::string a = v, b = verb;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (guess.empty() && (a == b || (verb.size() >= 3 && v.starts_with(verb)))) guess = v;
      }
      std::cerr << "railyard: error: '" << verb << "' is not a command" << (guess.empty() ? "" : "; did you mean '" + guess + "'?")
                << " (railyard --help lists them)\n";
      return railyard::cli::kExitInput;
    }
  }
  // Standard input can be read once: two inputs both "-" would be handed the same bytes.
  if (std::count_if(argv + 1, argv + argc, [](const char* arg) { return std::string_view(arg) == "-"; }) > 1) {
    std::cerr << "railyard: error: '-' (standard input) is given for more than one input; give files for the others\n";
    return railyard::cli::kExitInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : railyard::cli::kExitInput;
  }
  if (app.got_subcommand("plan")) return plan();
  if (app.got_subcommand("check")) return check();
  if (app.got_subcommand("advise")) return advise();
  if (app.got_subcommand("catalog")) return catalog();
  if (app.got_subcommand("verify")) return verify();
  if (app.got_subcommand("collect")) return collect();
  if (app.got_subcommand("doctor")) return doctor();
  if (app.got_subcommand("ledger")) return ledger();
  if (app.got_subcommand("accept")) return accept();
  if (app.got_subcommand("rollout")) return rollout();
  if (app.got_subcommand("config")) return config();
  if (app.got_subcommand("burnin")) return burnin();
  if (app.got_subcommand("serve")) return serve();
  if (app.got_subcommand("completion")) return completion();
  return railyard::cli::kExitInput;
}
