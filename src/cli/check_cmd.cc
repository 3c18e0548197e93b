// railyard check SPEC [--format table|json|csv|junit|prometheus] [--fail-on SEVERITY] | railyard check --list-rules
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "plan/checks.h"

namespace railyard::cli {

std::function<int()> AddCheckCommand(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  auto list = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("check", "Run the design checks of a cluster spec");
  cmd->footer(
      "Examples:\n"
      "  railyard check cluster.yaml\n"
      "  railyard check cluster.yaml --fail-on warning --format json\n"
      "  railyard check --list-rules");
  AddSpecOptions(cmd, *options, true);
  cmd->get_option("SPEC")->required(false);
  cmd->add_flag("--list-rules", *list, "print every design rule and exit");
  return [options, list] {
    if (*list) {
      for (const DesignRule& rule : DesignRules()) {
        std::cout << fmt::format("{:<30} {:<8} {}\n", rule.id, ToString(rule.severity), rule.summary);
      }
      return kExitOk;
    }
    if (options->spec.empty()) {
      std::cerr << "railyard check: a SPEC is required\n";
      return kExitInput;
    }
    return RunPlan(*options, true);
  };
}

}  // namespace railyard::cli
