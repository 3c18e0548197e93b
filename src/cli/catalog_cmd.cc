// railyard catalog [switches|nics|cables] [--format table|json]: what the planner can choose from.
#include <iostream>

#include "catalog/catalog.h"
#include "catalog/listing.h"
#include "cli/commands.h"

namespace railyard::cli {

std::function<int()> AddCatalogCommand(CLI::App& app) {
  auto what = std::make_shared<std::string>("switches");
  auto format = std::make_shared<std::string>("table");
  auto site = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("catalog", "List the switches, NICs and cables railyard plans with");
  cmd->footer("Examples:\n  railyard catalog switches\n  railyard catalog nics --format json | jq '.[].opn'");
  cmd->add_option("WHAT", *what, "switches (default), nics or cables")->check(CLI::IsMember({"switches", "nics", "cables"}));
  cmd->add_option("--format", *format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("--catalog", *site, "site catalog directory laid over the built-in one (shows each row's origin)")
      ->envname("RAILYARD_CATALOG");
  return [what, format, site]() -> int {
    const Catalog& c = CatalogFor(*site);
    const CatalogListing listing = *what == "switches" ? ListSwitches(c) : *what == "nics" ? ListNics(c) : ListCables(c);
    if (*format == "json")
      std::cout << listing.rows.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
      std::cout << listing.table;
    return kExitOk;
  };
}

}  // namespace railyard::cli
