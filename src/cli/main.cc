// railyard: plan, accept, verify, diagnose and upgrade the network of large GPU clusters.
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "util/suggest.h"
#include "util/terminal.h"
#include "util/version.h"

namespace {

// A mistyped verb ("railyard plna") gets the verb it most likely meant, not CLI11's generic complaint.
bool RefusedUnknownVerb(const CLI::App& app, int argc, char** argv) {
  int first = 1;  // past the global options
  while (first < argc && argv[first][0] == '-' && std::string_view(argv[first]) != "-") {
    first += std::string_view(argv[first]) == "--color" ? 2 : 1;
  }
  if (first >= argc) return false;
  std::vector<std::string> verbs;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) verbs.push_back(sub->get_name());
  const std::string verb = argv[first];
  if (std::find(verbs.begin(), verbs.end(), verb) != verbs.end()) return false;
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
  return true;
}

// Standard input can be read once: two inputs both "-" would be handed the same bytes.
bool RefusedStdinTwice(int argc, char** argv) {
  if (std::count_if(argv + 1, argv + argc, [](const char* arg) { return std::string_view(arg) == "-"; }) <= 1) return false;
  std::cerr << "railyard: error: '-' (standard input) is given for more than one input; give files for the others\n";
  return true;
}

// With --verbose: "ledger import: exit 0 after 1.20 s, peak memory 80 MiB".
void SayHowItWent(const CLI::App& app, int code, std::chrono::duration<double> took) {
  std::string command;  // the command and its sub-command
  for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
    sub = sub->get_subcommands().front();
    command += (command.empty() ? "" : " ") + sub->get_name();
  }
  railyard::cli::Detail(fmt::format("{}: exit {} after {:.2f} s, peak memory {:.0f} MiB", command, code, took.count(),
                                    railyard::cli::PeakMemoryMiB()));
}

}  // namespace

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
      "\nExit codes: 0 ok, 1 findings at or above --fail-on, 2 usage or input error (fix what was given),\n"
      "3 any other failure (I/O such as an unwritable output, a held lock, an internal error).");
  app.require_subcommand(1);
  app.set_version_flag("--version", railyard::VersionLine());
  // Global options, before or after the command ("railyard -q collect", "railyard collect -q"):
  // fallthrough is inherited by every subcommand added below.
  app.fallthrough();
  bool quiet = false, verbose = false;
  std::string color = "auto";
  CLI::Option* quiet_flag = app.add_flag("-q,--quiet", quiet, "print no warnings or notes on stderr, only errors");
  app.add_flag("-v,--verbose", verbose, "also print what was read, counts, time and peak memory on stderr")->excludes(quiet_flag);
  app.add_option("--color", color, "colour the severities: auto (a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  // Each command's name and what runs it: the Add* functions parse arguments into their options.
  const std::vector<std::pair<std::string, std::function<int()>>> commands = {
      {"plan", railyard::cli::AddPlanCommand(app)},     {"check", railyard::cli::AddCheckCommand(app)},
      {"advise", railyard::cli::AddAdviseCommand(app)}, {"catalog", railyard::cli::AddCatalogCommand(app)},
      {"verify", railyard::cli::AddVerifyCommand(app)}, {"collect", railyard::cli::AddCollectCommand(app)},
      {"doctor", railyard::cli::AddDoctorCommand(app)}, {"ledger", railyard::cli::AddLedgerCommand(app)},
      {"accept", railyard::cli::AddAcceptCommand(app)}, {"rollout", railyard::cli::AddRolloutCommand(app)},
      {"config", railyard::cli::AddConfigCommand(app)}, {"burnin", railyard::cli::AddBurninCommand(app)},
      {"serve", railyard::cli::AddServeCommand(app)},   {"completion", railyard::cli::AddCompletionCommand(app)},
  };
  if (RefusedUnknownVerb(app, argc, argv) || RefusedStdinTwice(argc, argv)) return railyard::cli::kExitInput;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : railyard::cli::kExitInput;
  }
  railyard::cli::SetVerbosity(quiet     ? railyard::cli::Verbosity::kQuiet
                              : verbose ? railyard::cli::Verbosity::kVerbose
                                        : railyard::cli::Verbosity::kNormal);
  railyard::ApplyColor(*railyard::ParseColorChoice(color));
  const auto started = std::chrono::steady_clock::now();
  int code = railyard::cli::kExitInput;
  for (const auto& [name, run] : commands) {
    if (app.got_subcommand(name)) code = railyard::cli::ReportingErrors(run);
  }
  SayHowItWent(app, code, std::chrono::steady_clock::now() - started);
  return code;
}
