#include "verify/planned.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <simdjson.h>

namespace railyard {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

std::string_view Str(object o, std::string_view key) {
  std::string_view s;
  if (o[key].get(s) != simdjson::SUCCESS) return {};
  return s;
}

int64_t Int(object o, std::string_view key) {
  int64_t v = 0;
  if (o[key].get(v) != simdjson::SUCCESS) return 0;
  return v;
}

PlannedFabric ParsePadded(const simdjson::padded_string& padded, const std::string& source) {
  simdjson::dom::parser parser;
  element doc;
  if (auto error = parser.parse(padded).get(doc)) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", source, simdjson::error_message(error)));
  }
  object root;
  if (doc.get(root) != simdjson::SUCCESS || Str(root, "schema") != "railyard.plan/1") {
    throw std::runtime_error(fmt::format("{}: not a railyard plan (expected \"schema\": \"railyard.plan/1\")", source));
  }
  PlannedFabric plan;
  plan.name = std::string(Str(root, "name"));
  struct RackPos {
    int row, position;
  };
  std::unordered_map<std::string, RackPos> racks;
  simdjson::dom::array list;
  if (root["racks"].get(list) == simdjson::SUCCESS) {
    for (element e : list) {
      object r;
      if (e.get(r) != simdjson::SUCCESS) continue;
      racks[std::string(Str(r, "name"))] = {static_cast<int>(Int(r, "row")), static_cast<int>(Int(r, "position"))};
    }
  }
  if (root["devices"].get(list) != simdjson::SUCCESS) throw std::runtime_error(source + ": no \"devices\" list");
  for (element e : list) {
    object o;
    if (e.get(o) != simdjson::SUCCESS) continue;
    PlannedDevice d;
    d.name = std::string(Str(o, "name"));
    d.role = std::string(Str(o, "role"));
    d.tier = std::string(Str(o, "tier"));
    d.plane = std::string(Str(o, "plane"));
    d.rack = std::string(Str(o, "rack"));
    d.u = static_cast<int>(Int(o, "u"));
    d.rail = static_cast<int>(Int(o, "rail"));
    auto rack = racks.find(d.rack);
    if (rack != racks.end()) {
      d.row = rack->second.row;
      d.position = rack->second.position;
    }
    if (!plan.device_index.emplace(d.name, static_cast<uint32_t>(plan.devices.size())).second) {
      throw std::runtime_error(fmt::format("{}: device '{}' listed twice", source, d.name));
    }
    plan.devices.push_back(std::move(d));
  }
  if (root["links"].get(list) != simdjson::SUCCESS) throw std::runtime_error(source + ": no \"links\" list");
  plan.links.reserve(list.size());
  for (element e : list) {
    object o;
    if (e.get(o) != simdjson::SUCCESS) continue;
    PlannedLink l;
    l.label = std::string(Str(o, "label"));
    l.plane = std::string(Str(o, "plane"));
    l.level = std::string(Str(o, "level"));
    l.rail = static_cast<int>(Int(o, "rail"));
    l.speed_gbps = static_cast<uint32_t>(Int(o, "speed_gbps"));
    for (int end = 0; end < 2; ++end) {
      object side;
      if (o[end == 0 ? "a" : "z"].get(side) != simdjson::SUCCESS) {
        throw std::runtime_error(fmt::format("{}: link {} has no {} end", source, l.label, end == 0 ? "a" : "z"));
      }
      std::string device(Str(side, "device"));
      auto it = plan.device_index.find(device);
      if (it == plan.device_index.end()) {
        throw std::runtime_error(fmt::format("{}: link {} names unknown device '{}'", source, l.label, device));
      }
      (end == 0 ? l.a_device : l.z_device) = it->second;
      (end == 0 ? l.a_port : l.z_port) = std::string(Str(side, "port"));
    }
    plan.links.push_back(std::move(l));
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
