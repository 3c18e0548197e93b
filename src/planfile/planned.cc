#include "planfile/planned.h"
#include "model/schemas.h"
#include "planfile/plan_sections.h"
#include "util/file.h"
#include "util/input_error.h"
#include "util/safe_text.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include <fmt/format.h>
#include <simdjson.h>

#include "util/content_hash.h"

namespace railyard {

std::string_view StringArena::Keep(std::string_view text) {
  if (text.empty()) return {};
  if (chunk_ == nullptr || chunk_->capacity() - chunk_->size() < text.size()) {
    if (text.size() > 4096) return Adopt(std::string(text));
    kept_.emplace_back();
    chunk_ = &kept_.back();
    chunk_->reserve(1 << 20);  // never grown past this: views into it stay valid
  }
  size_t at = chunk_->size();
  chunk_->append(text);
  return std::string_view(chunk_->data() + at, text.size());
}

std::string_view StringArena::Adopt(std::string text) {
  kept_.push_back(std::move(text));  // a deque never moves its elements
  return kept_.back();
}

namespace {

// plan.json into the planned fabric: the sections the planfile's readers use (planfile/plan_sections.h).
PlannedFabric ParsePadded(const simdjson::padded_string& padded, const std::string& source, bool with_addresses) {
  PlannedFabric plan;
  plan.read_from = "plan.json";
  StringArena& arena = *plan.strings;
  // Planes, levels, OPNs and port names repeat across hundreds of thousands of links: one copy each.
  std::unordered_set<std::string_view> interned;
  auto intern = [&](std::string_view s) -> std::string_view {
    auto it = interned.find(s);
    if (it != interned.end()) return *it;
    return *interned.insert(arena.Keep(s)).first;
  };
  std::unordered_map<std::string_view, uint32_t> port_ids;
  auto port_id = [&](std::string_view name) -> uint32_t {
    auto it = port_ids.find(name);
    if (it != port_ids.end()) return it->second;
    plan.port_names.push_back(intern(name));
    return port_ids.emplace(plan.port_names.back(), static_cast<uint32_t>(plan.port_names.size() - 1)).first->second;
  };
  std::unordered_map<std::string, std::pair<int, int>> racks;
  auto fail = [&](const std::string& why) { throw InputError(source, 0, 0, "", why); };
  PlanSections sections;
  sections.name = [&](std::string_view name) { plan.name = std::string(name); };
  sections.plane = [&](const PlanPlaneRecord& p) {
    PlannedPlane pl;
    pl.name = std::string(p.name);
    pl.kind = std::string(p.kind);
    pl.mtu = static_cast<uint32_t>(p.mtu);
    pl.role = std::string(p.role);
    pl.bond = p.bond == "802.3ad";
    plan.planes.push_back(std::move(pl));
  };
  sections.host_port = [&](const PlanHostPortRecord& h) {
    if (!h.port.empty() && !h.netdev.empty()) plan.host_netdevs[std::string(h.netdev)] = std::string(h.port);
  };
  sections.rack = [&](const PlanRackRecord& r) {
    racks[std::string(r.name)] = {static_cast<int>(r.row), static_cast<int>(r.position)};
  };
  sections.device = [&](const PlanDeviceRecord& r) {
    PlannedDevice d;
    d.name = std::string(r.name);
    d.role = std::string(r.role);
    d.tier = std::string(r.tier);
    d.plane = std::string(r.plane);
    d.rack = std::string(r.rack);
    d.u = static_cast<int>(r.u);
    d.rail = static_cast<int>(r.rail);
    d.group = static_cast<int>(r.group);
    if (auto rack = racks.find(d.rack); rack != racks.end()) {
      d.row = rack->second.first;
      d.position = rack->second.second;
    }
    if (!plan.device_index.emplace(d.name, static_cast<uint32_t>(plan.devices.size())).second) {
      fail(fmt::format("device '{}' listed twice", d.name));
    }
    plan.devices.push_back(std::move(d));
  };
  sections.link_details = true;
  sections.link = [&](const PlanLinkRecord& r) {
    PlannedLink l;
    l.label = arena.Keep(r.label);
    l.plane = intern(r.plane);
    l.level = intern(r.level);
    l.rail = static_cast<int>(r.rail);
    l.speed_gbps = static_cast<uint32_t>(r.speed_gbps);
    l.cable = intern(r.cable);
    l.xcvr_a = intern(r.xcvr_a);
    l.xcvr_z = intern(r.xcvr_z);
    if (r.length_m) l.length_m = *r.length_m;
    std::array<std::string_view, 2> ips;
    for (int end = 0; end < 2; ++end) {
      const PlanLinkEnd& e = end == 0 ? r.a : r.z;
      if (!e.present) fail(fmt::format("link {} has no {} end", l.label, end == 0 ? "a" : "z"));
      auto it = plan.device_index.find(std::string(e.device));
      if (it == plan.device_index.end()) fail(fmt::format("link {} names unknown device '{}'", l.label, e.device));
      (end == 0 ? l.a_device : l.z_device) = it->second;
      const uint32_t id = port_id(e.port);
      (end == 0 ? l.a_port_id : l.z_port_id) = id;
      (end == 0 ? l.a_port : l.z_port) = plan.port_names[id];
      if (with_addresses) ips[end] = arena.Keep(e.ip);
    }
    plan.links.push_back(std::move(l));
    if (with_addresses) plan.link_addresses.push_back(ips);
  };
  ReadPlanSections(padded, source, sections);
  for (PlannedLink& l : plan.links) {
    for (const PlannedPlane& pl : plan.planes) {
      if (pl.name == l.plane) l.infiniband = pl.kind == "infiniband";
    }
  }
  return plan;
}

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1) {
    fields.push_back(line.substr(start, tab - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

template <typename T>
bool Number(std::string_view text, T& out) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool ParsePlanIndex(std::string owned, const std::string& source, PlannedFabric& plan, std::string& why, bool with_addresses) {
  PlannedFabric out;
  out.read_from = "plan.index";
  std::string_view text = out.strings->Adopt(std::move(owned));
  out.links.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')));
  size_t line_no = 0, pos = 0;
  std::string_view fields[14];
  std::vector<std::string_view> plane_names;  // views into the adopted text: valid in every copy of the plan
  auto fail = [&](std::string_view what) {
    why = fmt::format("{}:{}: {}", source, line_no, what);
    return false;
  };
  // The index is read back as plan.json is, and its strings checked the same (planfile/plan_sections.cc):
  // a value that breaks its rule makes the index unusable, and plan.json itself is read (and checked).
  auto ok = [](TextRule rule, std::string_view value, bool optional = false) {
    return (optional && value.empty()) || Conforms(rule, value);
  };
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) {
      ++line_no;
      return fail("the last row has no end of line (a cut file?)");
    }
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    // Split in place: links are ~370,000 rows at 100,000 GPUs, so no vector per row.
    size_t n = 0, start = 0;
    for (;;) {
      size_t tab = line.find('\t', start);
      if (n == 14) return fail("too many fields");
      fields[n++] = line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (line_no == 1) {
      if (fields[0] != kPlanIndexSchema || n != 4) return fail("not a railyard.plan-index/3 header");
      continue;
    }
    if (!line.empty() && line[0] == '#') continue;  // a stamp ("# NOT FOR ORDERING: ...")
    if (fields[0] == "A") {
      // Addresses, one row per link in link order, after every L row: a reader that does not need
      // them stops here.
      if (!with_addresses) break;
      if (n != 3 || out.link_addresses.size() >= out.links.size()) return fail("an address row without its link");
      if (!ok(TextRule::kAddress, fields[1], true) || !ok(TextRule::kAddress, fields[2], true))
        return fail("an address row with a value that is not an address");
      out.link_addresses.push_back({fields[1], fields[2]});
    } else if (fields[0] == "L" && n == 14) {
      PlannedLink l;
      uint32_t plane = 0;
      if (!Number(fields[2], plane) || plane >= out.planes.size()) return fail("plane# out of range");
      l.label = fields[1];
      l.plane = plane_names[plane];
      l.infiniband = out.planes[plane].kind == "infiniband";
      l.level = fields[3];
      l.cable = fields[6];
      l.xcvr_a = fields[7];
      l.xcvr_z = fields[8];
      if (!ok(TextRule::kLabel, fields[1]) || !ok(TextRule::kWord, fields[3]) || !ok(TextRule::kWord, fields[6], true) ||
          !ok(TextRule::kWord, fields[7], true) || !ok(TextRule::kWord, fields[8], true))
        return fail("a link row with a label, level, cable or transceiver that is not one");
      if (!Number(fields[4], l.rail) || !Number(fields[5], l.speed_gbps) || !Number(fields[9], l.length_m) ||
          !Number(fields[10], l.a_device) || !Number(fields[12], l.z_device) || l.a_device >= out.devices.size() ||
          l.z_device >= out.devices.size() || !Number(fields[11], l.a_port_id) || !Number(fields[13], l.z_port_id) ||
          l.a_port_id >= out.port_names.size() || l.z_port_id >= out.port_names.size()) {
        return fail("a link row with a bad number, device# or port#");
      }
      l.a_port = out.port_names[l.a_port_id];
      l.z_port = out.port_names[l.z_port_id];
      out.links.push_back(l);
    } else if (fields[0] == "D" && n == 11) {
      PlannedDevice d;
      d.name = fields[1];
      d.role = fields[2];
      d.tier = fields[3];
      d.plane = fields[4];
      d.rack = fields[5];
      if (!ok(TextRule::kName, fields[1]) || !ok(TextRule::kWord, fields[2]) || !ok(TextRule::kWord, fields[3], true) ||
          !ok(TextRule::kName, fields[4], true) || !ok(TextRule::kRack, fields[5], true))
        return fail("a device row with a name, role, tier, plane or rack that is not one");
      if (!Number(fields[6], d.row) || !Number(fields[7], d.position) || !Number(fields[8], d.u) || !Number(fields[9], d.rail) ||
          !Number(fields[10], d.group)) {
        return fail("a device row with a bad number");
      }
      if (!out.device_index.emplace(d.name, static_cast<uint32_t>(out.devices.size())).second) {
        return fail("device listed twice");
      }
      out.devices.push_back(std::move(d));
    } else if (fields[0] == "P" && n == 6) {
      PlannedPlane pl{std::string(fields[1]), std::string(fields[2]), 0, std::string(fields[4]), fields[5] == "802.3ad"};
      if (!Number(fields[3], pl.mtu)) return fail("a plane row with a bad MTU");
      if (!ok(TextRule::kName, fields[1]) || !ok(TextRule::kWord, fields[2]) || !ok(TextRule::kWord, fields[4], true))
        return fail("a plane row with a name, kind or role that is not one");
      out.planes.push_back(std::move(pl));
      plane_names.push_back(fields[1]);
    } else if (fields[0] == "Y" && n == 3) {
      if (!ok(TextRule::kPort, fields[1]) || !ok(TextRule::kIfname, fields[2]))
        return fail("a netdev row that is not a port and netdev");
      out.host_netdevs[std::string(fields[2])] = std::string(fields[1]);
    } else if (fields[0] == "T" && n == 2) {
      if (!ok(TextRule::kPort, fields[1])) return fail("a port row that is not a port name");
      out.port_names.push_back(fields[1]);
    } else if (fields[0] == "N" && n == 2) {
      if (!ok(TextRule::kText, fields[1])) return fail("a plan name that is not text");
      out.name = fields[1];
    } else {
      return fail("not a P, D or L row of its width");
    }
  }
  if (line_no == 0) return fail("empty");
  if (!out.link_addresses.empty() && out.link_addresses.size() != out.links.size())
    return fail("address rows for only some links");
  if (with_addresses) out.link_addresses.resize(out.links.size());  // a plan without addresses: every end ""

  plan = std::move(out);
  return true;
}

PlannedFabric ParsePlannedFabric(std::string_view json, const std::string& source, bool with_addresses) {
  return ParsePadded(simdjson::padded_string(json), source, with_addresses);
}

namespace {

// The plan.index beside `path`, when it was written with this plan.json; else nullopt and why.
std::optional<PlannedFabric> FromIndex(const std::string& path, std::string& note, bool with_addresses) {
  std::filesystem::path index = std::filesystem::path(path).parent_path() / "plan.index";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(index, ec)) return std::nullopt;
  std::ifstream in(index, std::ios::binary);
  std::string header;
  if (!std::getline(in, header)) return std::nullopt;
  std::vector<std::string_view> f = SplitTabs(header);
  uint64_t size = 0, digest = 0, want_size = 0;
  if (f.size() != 4 || f[0] != kPlanIndexSchema || !Number(f[2], want_size)) {
    note = fmt::format("{}: not a railyard.plan-index/3 file (written by another version?): reading {}", index.string(), path);
    return std::nullopt;
  }
  // plan.json is fingerprinted on another thread while the index is read: the index is used only
  // if the fingerprint matches.
  std::string expected_digest(f[3]);
  auto same_plan = std::async(std::launch::async, [&] {
    return HashFile(path, digest, size) && size == want_size && HexDigest(digest) == expected_digest;
  });
  in.seekg(0, std::ios::end);
  std::string text(static_cast<size_t>(in.tellg()), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  PlannedFabric plan;
  std::string why;
  bool parsed = in && ParsePlanIndex(std::move(text), index.string(), plan, why, with_addresses);
  if (!same_plan.get()) {
    note = fmt::format(
        "{} was not written with this {} (it changed after `railyard plan`): reading {} itself; "
        "re-run `railyard plan` to refresh the index",
        index.string(), path, path);
    return std::nullopt;
  }
  if (!parsed) {
    note = fmt::format("{}: unusable ({}): reading {}", index.string(), why.empty() ? "cannot read it" : why, path);
    return std::nullopt;
  }
  return plan;
}

}  // namespace

PlannedFabric LoadPlannedFabric(const std::string& path, bool with_addresses) {
  if (path == "-") return ParsePadded(simdjson::padded_string(ReadWholeFile(path)), ShownPath(path), with_addresses);
  std::string note;
  if (auto indexed = FromIndex(path, note, with_addresses)) return std::move(*indexed);
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) {
    throw InputError(path, 0, 0, "", "cannot read the file");
  }
  PlannedFabric plan = ParsePadded(text, path, with_addresses);
  plan.index_note = note;
  return plan;
}

}  // namespace railyard
