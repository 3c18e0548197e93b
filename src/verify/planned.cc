#include "verify/planned.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <simdjson.h>

namespace railyard {
namespace {

// On Demand: plan.json is read once, front to back, without building a DOM (at 100,000 GPUs
// the file is ~130 MB and a DOM would double the memory).
PlannedFabric ParsePadded(const simdjson::padded_string& padded, const std::string& source) {
  namespace od = simdjson::ondemand;
  od::parser parser;
  od::document doc;
  auto fail = [&](simdjson::error_code error, std::string_view where) {
    throw std::runtime_error(fmt::format("{}: {}: {}", source, where, simdjson::error_message(error)));
  };
  if (auto error = parser.iterate(padded).get(doc)) fail(error, "not valid JSON");
  od::object root;
  if (doc.get_object().get(root) != simdjson::SUCCESS) {
    throw std::runtime_error(fmt::format("{}: not a railyard plan (expected a JSON object)", source));
  }
  PlannedFabric plan;
  std::unordered_map<std::string, std::pair<int, int>> racks;
  bool schema_ok = false;
  auto text = [](od::value v) -> std::string_view {
    std::string_view s;
    return v.get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
  };
  auto number = [](od::value v) -> int64_t {
    int64_t n = 0;
    return v.get_int64().get(n) == simdjson::SUCCESS ? n : 0;
  };
  for (auto field : root) {
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) fail(error, "bad key");
    od::value value = field.value();
    if (key == "schema") {
      schema_ok = text(value) == "railyard.plan/1";
      if (!schema_ok) break;
    } else if (key == "name") {
      plan.name = std::string(text(value));
    } else if (key == "planes") {
      for (auto item : value.get_array()) {
        PlannedPlane pl;
        for (auto f : item.get_object()) {
          std::string_view k = f.unescaped_key().value_unsafe();
          if (k == "name") pl.name = std::string(text(f.value()));
          else if (k == "kind") pl.kind = std::string(text(f.value()));
        }
        plan.planes.push_back(std::move(pl));
      }
    } else if (key == "racks") {
      for (auto item : value.get_array()) {
        std::string name;
        int row = 0, position = 0;
        for (auto f : item.get_object()) {
          std::string_view k = f.unescaped_key().value_unsafe();
          if (k == "name") name = std::string(text(f.value()));
          else if (k == "row") row = static_cast<int>(number(f.value()));
          else if (k == "position") position = static_cast<int>(number(f.value()));
        }
        racks[name] = {row, position};
      }
    } else if (key == "devices") {
      for (auto item : value.get_array()) {
        PlannedDevice d;
        for (auto f : item.get_object()) {
          std::string_view k = f.unescaped_key().value_unsafe();
          if (k == "name") d.name = std::string(text(f.value()));
          else if (k == "role") d.role = std::string(text(f.value()));
          else if (k == "tier") d.tier = std::string(text(f.value()));
          else if (k == "plane") d.plane = std::string(text(f.value()));
          else if (k == "rack") d.rack = std::string(text(f.value()));
          else if (k == "u") d.u = static_cast<int>(number(f.value()));
          else if (k == "rail") d.rail = static_cast<int>(number(f.value()));
        }
        auto rack = racks.find(d.rack);
        if (rack != racks.end()) {
          d.row = rack->second.first;
          d.position = rack->second.second;
        }
        if (!plan.device_index.emplace(d.name, static_cast<uint32_t>(plan.devices.size())).second) {
          throw std::runtime_error(fmt::format("{}: device '{}' listed twice", source, d.name));
        }
        plan.devices.push_back(std::move(d));
      }
    } else if (key == "links") {
      for (auto item : value.get_array()) {
        PlannedLink l;
        std::string ends[2][2];
        bool have[2] = {false, false};
        for (auto f : item.get_object()) {
          std::string_view k = f.unescaped_key().value_unsafe();
          if (k == "label") l.label = std::string(text(f.value()));
          else if (k == "plane") l.plane = std::string(text(f.value()));
          else if (k == "level") l.level = std::string(text(f.value()));
          else if (k == "rail") l.rail = static_cast<int>(number(f.value()));
          else if (k == "speed_gbps") l.speed_gbps = static_cast<uint32_t>(number(f.value()));
          else if (k == "cable") l.cable = std::string(text(f.value()));
          else if (k == "xcvr_a") l.xcvr_a = std::string(text(f.value()));
          else if (k == "xcvr_z") l.xcvr_z = std::string(text(f.value()));
          else if (k == "length_m") {
            double m = 0;
            if (f.value().get_double().get(m) == simdjson::SUCCESS) l.length_m = m;
          }
          else if (k == "a" || k == "z") {
            int end = k == "a" ? 0 : 1;
            have[end] = true;
            for (auto e : f.value().get_object()) {
              std::string_view ek = e.unescaped_key().value_unsafe();
              if (ek == "device") ends[end][0] = std::string(text(e.value()));
              else if (ek == "port") ends[end][1] = std::string(text(e.value()));
            }
          }
        }
        for (int end = 0; end < 2; ++end) {
          if (!have[end]) {
            throw std::runtime_error(fmt::format("{}: link {} has no {} end", source, l.label, end == 0 ? "a" : "z"));
          }
          auto it = plan.device_index.find(ends[end][0]);
          if (it == plan.device_index.end()) {
            throw std::runtime_error(fmt::format("{}: link {} names unknown device '{}'", source, l.label, ends[end][0]));
          }
          (end == 0 ? l.a_device : l.z_device) = it->second;
          (end == 0 ? l.a_port : l.z_port) = std::move(ends[end][1]);
        }
        plan.links.push_back(std::move(l));
      }
    }
  }
  if (!schema_ok) {
    throw std::runtime_error(fmt::format("{}: not a railyard plan (expected \"schema\": \"railyard.plan/1\")", source));
  }
  for (PlannedLink& l : plan.links) {
    for (const PlannedPlane& pl : plan.planes) {
      if (pl.name == l.plane) l.infiniband = pl.kind == "infiniband";
    }
  }
  return plan;
}

}  // namespace

PlannedFabric ParsePlannedFabric(std::string_view json, const std::string& source) {
  return ParsePadded(simdjson::padded_string(json), source);
}

PlannedFabric LoadPlannedFabric(const std::string& path) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) {
    throw std::runtime_error(path + ": cannot read the file");
  }
  return ParsePadded(text, path);
}

}  // namespace railyard
