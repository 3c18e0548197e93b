#include "catalog/listing.h"

#include <fmt/format.h>

namespace railyard {
namespace {

std::string Counts(const std::vector<SpeedCount>& counts) {
  std::string out;
  for (const SpeedCount& sc : counts) out += fmt::format("{}{}x{}", out.empty() ? "" : " ", sc.count, FormatSpeed(sc.speed));
  return out;
}

std::string Optional(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : "-"; }

}  // namespace

CatalogListing ListSwitches(const Catalog& catalog) {
  CatalogListing out{"", nlohmann::json::array()};
  out.table = fmt::format("{:<14} {:<10} {:<11} {:<10} {:>5} {:<28} {:<16} {:>3} {:>6} {:>6} {}\n", "MODEL", "VENDOR", "FABRIC",
                          "CAGE", "CAGES", "PORTS", "UPLINKS", "U", "TYP_W", "MAX_W", "CONF ORIGIN");
  for (const SwitchModel& s : catalog.switches()) {
    out.table += fmt::format("{:<14} {:<10} {:<11} {:<10} {:>5} {:<28} {:<16} {:>3} {:>6} {:>6} {}\n", s.model, s.vendor,
                             ToString(s.fabric), s.cage, s.cages, Counts(s.ports), Counts(s.uplink_ports), Optional(s.rack_units),
                             Optional(s.typical_power_w), Optional(s.max_power_w), s.confidence + " " + s.origin);
    out.rows.push_back({{"model", s.model},
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
  return out;
}

CatalogListing ListNics(const Catalog& catalog) {
  CatalogListing out{"", nlohmann::json::array()};
  out.table = fmt::format("{:<20} {:<14} {:<7} {:>3} {:>5} {:>5} {:<5} {:<9} {:<8} {:<14} {}\n", "OPN", "FAMILY", "PCI_ID", "FW",
                          "PORTS", "SPEED", "LINK", "PCIE", "CAGE", "PSID", "CONF ORIGIN");
  for (const NicModel& n : catalog.nics()) {
    out.table += fmt::format("{:<20} {:<14} {:<7} {:>3} {:>5} {:>5} {:<5} {:<9} {:<8} {:<14} {}\n", n.opn, n.family,
                             n.pci_device_id, n.fw_major, n.ports, FormatSpeed(n.max_speed), n.link_types,
                             fmt::format("Gen{} x{}", n.pcie_gen, n.pcie_width), n.cage, n.psid.empty() ? "-" : n.psid,
                             n.confidence + " " + n.origin);
    out.rows.push_back({{"opn", n.opn},
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
  return out;
}

CatalogListing ListCables(const Catalog& catalog) {
  CatalogListing out{"", nlohmann::json::array()};
  out.table = fmt::format("{:<24} {:<12} {:>6} {:>5} {:<10} {:<12} {:<11} {:>7} {:>7} {}\n", "OPN", "KIND", "SPEED", "LINKS",
                          "END_A", "END_B", "MEDIUM", "LENGTH", "REACH", "CONF ORIGIN");
  for (const CableItem& x : catalog.cables()) {
    out.table += fmt::format("{:<24} {:<12} {:>6} {:>5} {:<10} {:<12} {:<11} {:>7} {:>7} {}\n", x.opn, ToString(x.kind),
                             FormatSpeed(x.speed), x.links, x.end_a, x.end_b.empty() ? "-" : x.end_b, x.medium,
                             x.length_m > 0 ? fmt::format("{}m", x.length_m) : "-", fmt::format("{}m", x.reach_m),
                             x.confidence + " " + x.origin);
    out.rows.push_back({{"opn", x.opn},
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
  return out;
}

}  // namespace railyard
