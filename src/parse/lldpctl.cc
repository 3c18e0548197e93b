#include "parse/lldpctl.h"

#include <fmt/format.h>
#include <simdjson.h>

namespace railyard {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// The first element of a json0 list, or the element itself.
element First(element e) {
  array a;
  if (e.get(a) == simdjson::SUCCESS) {
    for (element x : a) return x;
  }
  return e;
}

// A string, or json0's [{"value": "..."}], or {"value": "..."}.
std::string_view Text(element e) {
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) return s;
  element first = First(e);
  object o;
  if (first.get(o) == simdjson::SUCCESS) {
    element v;
    if (o["value"].get(v) == simdjson::SUCCESS && v.get(s) == simdjson::SUCCESS) return s;
  }
  return {};
}

struct PortId {
  std::string_view type;
  std::string_view value;
};

PortId IdOf(element e) {
  PortId id;
  object o;
  if (First(e).get(o) != simdjson::SUCCESS) return id;
  element t, v;
  if (o["type"].get(t) == simdjson::SUCCESS && t.get(id.type) != simdjson::SUCCESS) id.type = {};
  if (o["value"].get(v) == simdjson::SUCCESS && v.get(id.value) != simdjson::SUCCESS) id.value = {};
  return id;
}

// One neighbour entry: the interface object (name already known).
void Neighbour(object iface, std::string_view name, std::string_view local_device, std::string_view source,
               const std::shared_ptr<const std::string>& file, AdjacencyReport& report) {
  Adjacency a;
  a.local_device = std::string(local_device);
  a.local_port = std::string(name);
  a.source = file;
  a.medium = Medium::kEthernet;
  // Chassis: json0 has a list with "name"; the json form keys the chassis object by system name.
  element chassis;
  if (iface["chassis"].get(chassis) == simdjson::SUCCESS) {
    object c;
    if (First(chassis).get(c) == simdjson::SUCCESS) {
      element field;
      if (c["name"].get(field) == simdjson::SUCCESS) {
        a.remote_device = std::string(Text(field));  // the chassis id is kept only without a name
      } else if (c["id"].get(field) == simdjson::SUCCESS) {
        a.remote_guid = std::string(IdOf(field).value);  // no system name sent
      } else {
        for (auto [key, value] : c) {  // {"<sysname>": {"id": ..., "descr": ...}}
          a.remote_device = std::string(key);
          break;
        }
      }
    }
  }
  if (a.remote_device.empty()) a.remote_device = a.remote_guid;
  element port;
  if (iface["port"].get(port) == simdjson::SUCCESS) {
    object p;
    if (First(port).get(p) == simdjson::SUCCESS) {
      element field;
      PortId id;
      if (p["id"].get(field) == simdjson::SUCCESS) id = IdOf(field);
      std::string_view descr;
      if (p["descr"].get(field) == simdjson::SUCCESS) descr = Text(field);
      bool id_is_name = id.type == "ifname" || id.type == "local" || id.type == "ifalias";
      a.remote_port = std::string(id_is_name || descr.empty() ? id.value : descr);
    }
  }
  if (a.remote_device.empty() || a.remote_port.empty()) {
    report.warnings.push_back({0, fmt::format("{}: neighbour on {} without a chassis name or port", source, name)});
    return;
  }
  report.adjacencies.push_back(std::move(a));
}

void Interfaces(element interfaces, std::string_view local_device, std::string_view source,
                const std::shared_ptr<const std::string>& file, AdjacencyReport& report) {
  array list;
  object single;
  if (interfaces.get(list) == simdjson::SUCCESS) {
    for (element item : list) {
      object o;
      if (item.get(o) != simdjson::SUCCESS) continue;
      element name;
      std::string_view n;
      if (o["name"].get(name) == simdjson::SUCCESS && name.get(n) == simdjson::SUCCESS) {
        Neighbour(o, n, local_device, source, file, report);  // json0: {"name": "swp1", ...}
      } else {
        for (auto [key, value] : o) {  // json with several interfaces: [{"swp1": {...}}, ...]
          object inner;
          if (value.get(inner) == simdjson::SUCCESS) Neighbour(inner, key, local_device, source, file, report);
        }
      }
    }
  } else if (interfaces.get(single) == simdjson::SUCCESS) {
    for (auto [key, value] : single) {  // json with one interface: {"swp1": {...}}
      object inner;
      if (value.get(inner) == simdjson::SUCCESS) Neighbour(inner, key, local_device, source, file, report);
    }
  }
}

}  // namespace

AdjacencyReport ParseLldpctlJson(std::string_view json, std::string_view local_device, std::string_view source) {
  AdjacencyReport report;
  // One parser and one padded buffer per thread, reused: a fresh parser per file costs more in
  // page faults than the parse itself when thousands of switch files are read.
  thread_local simdjson::dom::parser parser;
  thread_local std::string buffer;
  buffer.reserve(json.size() + simdjson::SIMDJSON_PADDING);
  buffer.assign(json.data(), json.size());
  element doc;
  if (auto error = parser.parse(buffer.data(), buffer.size(), false).get(doc)) {
    report.warnings.push_back({0, fmt::format("{}: not valid JSON: {}", source, simdjson::error_message(error))});
    return report;
  }
  element lldp;
  const auto file = std::make_shared<const std::string>(source);
  if (doc["lldp"].get(lldp) != simdjson::SUCCESS) {
    report.warnings.push_back({0, fmt::format("{}: no \"lldp\" key: not lldpctl JSON output", source)});
    return report;
  }
  array blocks;
  if (lldp.get(blocks) == simdjson::SUCCESS) {  // json0: "lldp": [{"interface": [...]}]
    for (element block : blocks) {
      element interfaces;
      if (block["interface"].get(interfaces) == simdjson::SUCCESS) Interfaces(interfaces, local_device, source, file, report);
    }
    return report;
  }
  element interfaces;
  if (lldp["interface"].get(interfaces) == simdjson::SUCCESS) Interfaces(interfaces, local_device, source, file, report);
  return report;
}

}  // namespace railyard
