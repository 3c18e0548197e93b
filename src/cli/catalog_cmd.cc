// railyard catalog [switches|nics|cables] [--format table|json]: what the planner can choose from.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "cli/commands.h"

namespace railyard::cli {
namespace {

std::string Counts(const std::vector<SpeedCount>& counts) {
  std::string out;
  for (const SpeedCount& sc : counts) out += fmt::format("{}{}x{}", out.empty() ? "" : " ", sc.count, FormatSpeed(sc.speed));
  return out;
}

std::string Optional(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : "-"; }

}  // namespace

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
    nlohmann::json rows = nlohmann::json::array();
    std::string table;
    if (*what == "switches") {
      table = fmt::format("{:<14} {:<10} {:<11} {:<10} {:>5} {:<28} {:<16} {:>3} {:>6} {:>6} {}\n", "MODEL", "VENDOR", "FABRIC",
                          "CAGE", "CAGES", "PORTS", "UPLINKS", "U", "TYP_W", "MAX_W", "CONF ORIGIN");
      for (const SwitchModel& s : c.switches()) {
        table += fmt::format("{:<14} {:<10} {:<11} {:<10} {:>5} {:<28} {:<16} {:>3} {:>6} {:>6} {}\n", s.model, s.vendor,
                             ToString(s.fabric), s.cage, s.cages, Counts(s.ports), Counts(s.uplink_ports), Optional(s.rack_units),
                             Optional(s.typical_power_w), Optional(s.max_power_w), s.confidence + " " + s.origin);
        rows.push_back({{"model", s.model},
                        {"opns", s.opns},
                        {"vendor", s.vendor},
                        {"fabric", ToString(s.fabric)},
                        {"cage", s.cage},
                        {"cages", s.cages},
                        {"ports", Counts(s.ports)},
                        {"uplink_ports", Counts(s.uplink_ports)},
                        {"source", s.source},
                        {"confidence", s.confidence},
                        {"origin", s.origin}});
      }
    } else if (*what == "nics") {
      table = fmt::format("{:<20} {:<14} {:<7} {:>3} {:>5} {:>5} {:<5} {:<9} {:<8} {:<14} {}\n", "OPN", "FAMILY", "PCI_ID", "FW",
                          "PORTS", "SPEED", "LINK", "PCIE", "CAGE", "PSID", "CONF ORIGIN");
      for (const NicModel& n : c.nics()) {
        table += fmt::format("{:<20} {:<14} {:<7} {:>3} {:>5} {:>5} {:<5} {:<9} {:<8} {:<14} {}\n", n.opn, n.family,
                             n.pci_device_id, n.fw_major, n.ports, FormatSpeed(n.max_speed), n.link_types,
                             fmt::format("Gen{} x{}", n.pcie_gen, n.pcie_width), n.cage, n.psid.empty() ? "-" : n.psid,
                             n.confidence + " " + n.origin);
        rows.push_back({{"opn", n.opn},
                        {"family", n.family},
                        {"pci_device_id", n.pci_device_id},
                        {"fw_major", n.fw_major},
                        {"ports", n.ports},
                        {"max_speed_gbps", n.max_speed},
                        {"link_types", n.link_types},
                        {"pcie_gen", n.pcie_gen},
                        {"pcie_width", n.pcie_width},
                        {"cage", n.cage},
                        {"psid", n.psid},
                        {"source", n.source},
                        {"confidence", n.confidence},
                        {"origin", n.origin}});
      }
    } else {
      table = fmt::format("{:<24} {:<12} {:>6} {:>5} {:<10} {:<12} {:<11} {:>7} {:>7} {}\n", "OPN", "KIND", "SPEED", "LINKS",
                          "END_A", "END_B", "MEDIUM", "LENGTH", "REACH", "CONF ORIGIN");
      for (const CableItem& x : c.cables()) {
        table += fmt::format("{:<24} {:<12} {:>6} {:>5} {:<10} {:<12} {:<11} {:>7} {:>7} {}\n", x.opn, ToString(x.kind),
                             FormatSpeed(x.speed), x.links, x.end_a, x.end_b.empty() ? "-" : x.end_b, x.medium,
                             x.length_m > 0 ? fmt::format("{}m", x.length_m) : "-", fmt::format("{}m", x.reach_m),
                             x.confidence + " " + x.origin);
        rows.push_back({{"opn", x.opn},
                        {"kind", ToString(x.kind)},
                        {"speed_gbps", x.speed},
                        {"links", x.links},
                        {"end_a", x.end_a},
                        {"end_b", x.end_b},
                        {"medium", x.medium},
                        {"length_m", x.length_m},
                        {"reach_m", x.reach_m},
                        {"source", x.source},
                        {"confidence", x.confidence},
                        {"origin", x.origin}});
      }
    }
    if (*format == "json") {
      std::cout << rows.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << table;
    }
    return kExitOk;
  };
}

}  // namespace railyard::cli
