#include "ledger/labels.h"

#include <unordered_map>

#include <fmt/format.h>

#include "util/csv.h"

namespace railyard {

std::vector<LabelledCable> LabelledCables(const LedgerStore& ledger, const PlannedFabric* plan, const std::string& state) {
  std::unordered_map<std::string_view, const PlannedLink*> by_label;
  if (plan) {
    for (const PlannedLink& l : plan->links) by_label.emplace(l.label, &l);
  }
  std::vector<LabelledCable> out;
  ledger.ForEachAsset([&](const Asset& a) {
    if (a.kind != "cable" && a.kind != "transceiver") return;
    auto get = [&](const char* f) {
      auto it = a.fields.find(f);
      return it == a.fields.end() ? std::string() : it->second;
    };
    LabelledCable c{a.serial, get("opn"), get("state").empty() ? "received" : get("state"), get("label"), "", "", "", 0, ""};
    if (!state.empty() && c.state != state) return;
    if (c.label.empty()) {
      c.status = "unassigned";
    } else if (!plan) {
      c.status = "no-plan";
    } else if (auto it = by_label.find(c.label); it == by_label.end()) {
      c.status = "not-in-plan";
    } else {
      const PlannedLink& l = *it->second;
      c.a_end = fmt::format("{} {}", plan->devices[l.a_device].name, l.a_port);
      c.z_end = fmt::format("{} {}", plan->devices[l.z_device].name, l.z_port);
      c.length_m = l.length_m;
      // A transceiver carries the label of the link it terminates: either end's part will do.
      bool matches = a.kind == "cable" ? c.opn == l.cable : (c.opn == l.xcvr_a || c.opn == l.xcvr_z);
      c.planned_part = a.kind == "cable"                          ? std::string(l.cable)
                       : l.xcvr_a == l.xcvr_z || l.xcvr_z.empty() ? std::string(l.xcvr_a)
                                                                  : fmt::format("{}|{}", l.xcvr_a, l.xcvr_z);
      c.status = matches ? "ok" : "part-mismatch";
    }
    out.push_back(std::move(c));
  });
  return out;
}

std::string LabelledCablesCsv(const std::vector<LabelledCable>& labels) {
  std::string out = "label,serial,opn,state,a_end,z_end,length_m,planned_part,status\n";
  for (const LabelledCable& c : labels) {
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", CsvEscape(c.label), CsvEscape(c.serial), CsvEscape(c.opn), c.state,
                       CsvEscape(c.a_end), CsvEscape(c.z_end), c.length_m > 0 ? fmt::format("{:g}", c.length_m) : "",
                       CsvEscape(c.planned_part), c.status);
  }
  return out;
}

}  // namespace railyard
