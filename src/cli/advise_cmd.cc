// railyard advise --spec SPEC [--answers answers.yaml] [--format table|json|md] [--catalog DIR]
#include <iostream>
#include <nlohmann/json.hpp>

#include "advise/advise.h"
#include "cli/commands.h"

namespace railyard::cli {

std::function<int()> AddAdviseCommand(CLI::App& app) {
  struct Args {
    std::string spec, answers, format = "table", catalog_dir;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("advise", "Before purchase: InfiniBand or RoCE per plane, NIC, switch and cables, with sourced reasons");
  cmd->footer(
      "Examples:\n"
      "  railyard advise --spec cluster.yaml\n"
      "  railyard advise --spec cluster.yaml --answers answers.yaml --format md > advice.md\n"
      "answers.yaml keys: workload (training|inference|mixed), lossless_ethernet_experience (none|some|production),\n"
      "ethernet_operations, budget (cost|balanced|performance), tuning_weeks, needs: {crypto, secure_boot, dpu, dual_port}.\n"
      "See docs/advise.md.");
  cmd->add_option("--spec,SPEC", a->spec, "cluster spec YAML")->required();
  cmd->add_option("--answers", a->answers, "the team's answers (YAML); without it the cautious defaults are used and said");
  cmd->add_option("--format", a->format, "table | json | md")->check(CLI::IsMember({"table", "json", "md"}));
  cmd->add_option("--catalog", a->catalog_dir, "site catalog directory laid over the built-in one");
  return [a] {
    const Catalog& catalog = CatalogFor(a->catalog_dir);
    Spec spec = LoadSpec(a->spec, catalog);
    AdviceAnswers answers = a->answers.empty() ? AdviceAnswers{} : LoadAdviceAnswers(a->answers);
    Advice advice = Advise(spec, answers, catalog);
    if (a->format == "json") {
      std::cout << AdviceJson(advice).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << AdviceText(advice, a->format == "md");
    }
    return kExitOk;
  };
}

}  // namespace railyard::cli
