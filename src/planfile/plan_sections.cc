#include "planfile/plan_sections.h"

#include <algorithm>

#include <fmt/format.h>
#include <simdjson.h>

#include "model/schemas.h"
#include "util/input_error.h"
#include "util/safe_text.h"

namespace railyard {
namespace {

namespace od = simdjson::ondemand;

// A value of the wrong type reads as empty or 0, as a missing one does: the records say what a
// plan written by railyard holds, and the readers check what they rely on.
std::string_view Text(od::value v) {
  std::string_view s;
  return v.get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
}

int64_t Number(od::value v) {
  int64_t n = 0;
  return v.get_int64().get(n) == simdjson::SUCCESS ? n : 0;
}

template <class Field>
std::string_view Key(Field& f) {
  return f.unescaped_key().value();
}

PlanPlaneRecord ReadPlane(od::value item) {
  PlanPlaneRecord p;
  for (auto f : item.get_object()) {
    const std::string_view k = Key(f);
    if (k == "name") {
      p.name = Text(f.value());
    } else if (k == "kind") {
      p.kind = Text(f.value());
    } else if (k == "role") {
      p.role = Text(f.value());
    } else if (k == "mtu") {
      p.mtu = Number(f.value());
    } else if (k == "bond") {
      p.bond = Text(f.value());
    } else if (k == "addressing") {
      for (auto a : f.value().get_object()) {
        const std::string_view ak = Key(a);
        if (ak == "mode")
          p.mode = Text(a.value());
        else if (ak == "vlan")
          p.vlan = Number(a.value());
        else if (ak == "prefix")
          p.prefix = Text(a.value());
      }
    } else if (k == "qos") {
      for (auto q : f.value().get_object()) {
        const std::string_view qk = Key(q);
        if (qk == "priority")
          p.qos_priority = Number(q.value());
        else if (qk == "dscp")
          p.qos_dscp = Number(q.value());
        else if (qk == "cnp_dscp")
          p.qos_cnp_dscp = Number(q.value());
        else if (qk == "cnp_priority")
          p.qos_cnp_priority = Number(q.value());
      }
    }
  }
  return p;
}

PlanHostPortRecord ReadHostPort(od::value item) {
  PlanHostPortRecord h;
  for (auto f : item.get_object()) {
    const std::string_view k = Key(f);
    if (k == "plane")
      h.plane = Text(f.value());
    else if (k == "port")
      h.port = Text(f.value());
    else if (k == "netdev")
      h.netdev = Text(f.value());
  }
  return h;
}

PlanRackRecord ReadRack(od::value item) {
  PlanRackRecord r;
  for (auto f : item.get_object()) {
    const std::string_view k = Key(f);
    if (k == "name")
      r.name = Text(f.value());
    else if (k == "row")
      r.row = Number(f.value());
    else if (k == "position")
      r.position = Number(f.value());
  }
  return r;
}

PlanDeviceRecord ReadDevice(od::value item) {
  PlanDeviceRecord d;
  for (auto f : item.get_object()) {
    const std::string_view k = Key(f);
    if (k == "name") {
      d.name = Text(f.value());
    } else if (k == "role") {
      d.role = Text(f.value());
    } else if (k == "tier") {
      d.tier = Text(f.value());
    } else if (k == "plane") {
      d.plane = Text(f.value());
    } else if (k == "rack") {
      d.rack = Text(f.value());
    } else if (k == "model") {
      d.model = Text(f.value());
    } else if (k == "loopback") {
      d.loopback = Text(f.value());
    } else if (k == "u") {
      d.u = Number(f.value());
    } else if (k == "rail") {
      d.rail = Number(f.value());
    } else if (k == "group") {
      d.group = Number(f.value());
    } else if (k == "asn") {
      uint64_t asn = 0;  // 4-byte ASNs reach 4,294,967,295
      if (f.value().get_uint64().get(asn) == simdjson::SUCCESS) d.asn = asn;
    }
  }
  return d;
}

PlanLinkEnd ReadLinkEnd(od::value end) {
  PlanLinkEnd e;
  e.present = true;
  for (auto f : end.get_object()) {
    const std::string_view k = Key(f);
    if (k == "device")
      e.device = Text(f.value());
    else if (k == "port")
      e.port = Text(f.value());
    else if (k == "ip")
      e.ip = Text(f.value());
  }
  return e;
}

template <bool kDetails>
PlanLinkRecord ReadLink(od::value item) {
  PlanLinkRecord l;
  for (auto f : item.get_object()) {
    const std::string_view k = Key(f);
    if (k == "a") {
      l.a = ReadLinkEnd(f.value());
    } else if (k == "z") {
      l.z = ReadLinkEnd(f.value());
    } else if (k == "label") {
      l.label = Text(f.value());
    } else if (k == "plane") {
      l.plane = Text(f.value());
    } else if (k == "level") {
      l.level = Text(f.value());
    } else if (k == "rail") {
      l.rail = Number(f.value());
    } else if (k == "speed_gbps") {
      l.speed_gbps = Number(f.value());
    } else if (!kDetails) {
      continue;
    } else if (k == "cable") {
      l.cable = Text(f.value());
    } else if (k == "xcvr_a") {
      l.xcvr_a = Text(f.value());
    } else if (k == "xcvr_z") {
      l.xcvr_z = Text(f.value());
    } else if (k == "length_m") {
      double m = 0;
      if (f.value().get_double().get(m) == simdjson::SUCCESS) l.length_m = m;
    }
  }
  return l;
}

// Every string a record carries is checked against what it is before a reader sees it: these become
// file names, YAML keys, shell words and configuration lines on hosts and switches, run as root, and a
// plan.json may have been edited since railyard wrote it (util/safe_text.h). The JSON pointer of a
// value that fails is built only then.
class RecordCheck {
 public:
  RecordCheck(const std::string& source, std::string_view section, size_t index)
      : source_(source), section_(section), index_(index) {}
  void Need(TextRule rule, std::string_view value, std::string_view field) const {
    if (!Conforms(rule, value)) RequireText(rule, value, source_, Pointer(field));
  }
  void May(TextRule rule, std::string_view value, std::string_view field) const {
    if (!value.empty()) Need(rule, value, field);
  }

 private:
  std::string Pointer(std::string_view field) const { return fmt::format("/{}/{}/{}", section_, index_, field); }
  const std::string& source_;
  std::string_view section_;
  size_t index_;
};

void Check(const PlanPlaneRecord& p, const RecordCheck& c) {
  c.Need(TextRule::kName, p.name, "name");
  c.Need(TextRule::kWord, p.kind, "kind");
  c.May(TextRule::kWord, p.role, "role");
  c.May(TextRule::kWord, p.bond, "bond");
  c.May(TextRule::kWord, p.mode, "addressing/mode");
  c.May(TextRule::kPrefix, p.prefix, "addressing/prefix");
}

void Check(const PlanHostPortRecord& h, const RecordCheck& c) {
  c.Need(TextRule::kName, h.plane, "plane");
  c.Need(TextRule::kPort, h.port, "port");
  c.May(TextRule::kIfname, h.netdev, "netdev");
}

void Check(const PlanRackRecord& r, const RecordCheck& c) { c.Need(TextRule::kRack, r.name, "name"); }

void Check(const PlanDeviceRecord& d, const RecordCheck& c) {
  c.Need(TextRule::kName, d.name, "name");
  c.May(TextRule::kWord, d.role, "role");
  c.May(TextRule::kWord, d.tier, "tier");
  c.May(TextRule::kName, d.plane, "plane");
  c.May(TextRule::kRack, d.rack, "rack");
  c.May(TextRule::kWord, d.model, "model");
  c.May(TextRule::kAddress, d.loopback, "loopback");
}

void Check(const PlanLinkRecord& l, const RecordCheck& c) {
  c.Need(TextRule::kLabel, l.label, "label");
  c.May(TextRule::kName, l.plane, "plane");
  c.May(TextRule::kWord, l.level, "level");
  c.May(TextRule::kWord, l.cable, "cable");
  c.May(TextRule::kWord, l.xcvr_a, "xcvr_a");
  c.May(TextRule::kWord, l.xcvr_z, "xcvr_z");
  for (const auto& [end, name] : {std::pair{&l.a, "a"}, std::pair{&l.z, "z"}}) {
    if (!end->present) continue;
    c.Need(TextRule::kName, end->device, fmt::format("{}/device", name));
    c.Need(TextRule::kPort, end->port, fmt::format("{}/port", name));
    c.May(TextRule::kAddress, end->ip, fmt::format("{}/ip", name));
  }
}

// Each element of a section's array, checked, to its callback.
template <class Record>
void EachRecord(od::value section, std::string_view name, const std::string& source, Record (*read)(od::value),
                const std::function<void(const Record&)>& use) {
  size_t index = 0;
  for (auto item : section.get_array()) {
    Record record = read(item.value());
    Check(record, RecordCheck(source, name, index++));
    use(record);
  }
}

}  // namespace

RoceQos QosOf(const PlanPlaneRecord& plane) {
  RoceQos q;
  auto value = [](const std::optional<int64_t>& v, uint8_t fallback, int64_t max) {
    return v ? static_cast<uint8_t>(std::clamp<int64_t>(*v, 0, max)) : fallback;
  };
  q.priority = value(plane.qos_priority, q.priority, 7);
  q.dscp = value(plane.qos_dscp, q.dscp, 63);
  q.cnp_dscp = value(plane.qos_cnp_dscp, q.cnp_dscp, 63);
  q.cnp_priority = value(plane.qos_cnp_priority, q.cnp_priority, 7);
  return q;
}

void ReadPlanSections(const simdjson::padded_string& padded, const std::string& source, const PlanSections& sections) {
  auto fail = [&](const std::string& why) { throw InputError(source, 0, 0, "", why); };
  od::parser parser;
  od::document doc;
  if (auto error = parser.iterate(padded).get(doc)) fail(fmt::format("not valid JSON: {}", simdjson::error_message(error)));
  bool schema_ok = false;
  try {
    od::object root;
    if (doc.get_object().get(root) != simdjson::SUCCESS) fail("not a railyard plan (expected a JSON object)");
    for (auto field : root) {
      const std::string_view key = Key(field);
      od::value value = field.value();
      if (key == "schema") {
        schema_ok = Text(value) == kPlanSchema;
        if (!schema_ok) break;
      } else if (key == "name" && sections.name) {
        const std::string_view name = Text(value);
        RequireText(TextRule::kText, name, source, "/name");
        sections.name(name);
      } else if (key == "planes" && sections.plane) {
        EachRecord(value, "planes", source, &ReadPlane, sections.plane);
      } else if (key == "host_ports" && sections.host_port) {
        EachRecord(value, "host_ports", source, &ReadHostPort, sections.host_port);
      } else if (key == "racks" && sections.rack) {
        EachRecord(value, "racks", source, &ReadRack, sections.rack);
      } else if (key == "devices" && sections.device) {
        EachRecord(value, "devices", source, &ReadDevice, sections.device);
      } else if (key == "links" && sections.link) {
        EachRecord(value, "links", source, sections.link_details ? &ReadLink<true> : &ReadLink<false>, sections.link);
      }
    }
  } catch (const simdjson::simdjson_error& e) {
    fail(fmt::format("not a railyard plan: {}", e.what()));
  }
  if (!schema_ok) {
    fail(fmt::format("not {} (expected \"schema\": \"{}\": give the plan.json that `railyard plan -o` wrote)", kPlanSchema,
                     kPlanSchema));
  }
}

}  // namespace railyard
