#include "parse/netconfig.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

std::string Unquote(std::string_view v) {
  v = TrimView(v);
  if (v.size() >= 2 && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\''))) {
    v = v.substr(1, v.size() - 2);
  }
  return std::string(v);
}

}  // namespace

static std::vector<NmDevice> ReadNmcliRows(std::string_view text, std::vector<ParseWarning>* warnings) {
  std::vector<NmDevice> out;
  LineReader lines(text);
  std::string_view line;
  bool table = false;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("GENERAL.DEVICE:")) {  // `nmcli device show`
      out.push_back(NmDevice{});
      out.back().device = std::string(TrimView(t.substr(15)));
      continue;
    }
    if (t.starts_with("GENERAL.") || t.starts_with("WIRED-PROPERTIES.")) {
      if (out.empty()) continue;
      size_t colon = t.find(':');
      std::string_view key = t.substr(0, colon), value = TrimView(t.substr(colon + 1));
      NmDevice& d = out.back();
      if (key == "GENERAL.TYPE")
        d.type = std::string(value);
      else if (key == "GENERAL.HWADDR")
        d.hwaddr = std::string(value);
      else if (key == "GENERAL.MTU")
        d.mtu = static_cast<uint32_t>(LeadingInt(value));
      else if (key == "GENERAL.CONNECTION")
        d.connection = value == "--" ? "" : std::string(value);
      else if (key == "GENERAL.STATE") {
        d.state_code = LeadingInt(value, -1);
        size_t open = value.find('(');
        if (open != std::string_view::npos) d.state = std::string(value.substr(open + 1, value.find(')', open) - open - 1));
      } else if (key == "WIRED-PROPERTIES.CARRIER")
        d.carrier = value == "on";
      continue;
    }
    // Other `nmcli device show` properties (IP4.ADDRESS[1]:, IP6.ROUTE[2]: ...): not ours.
    size_t dot = t.find('.'), colon = t.find(':');
    if (dot != std::string_view::npos && colon != std::string_view::npos && dot < colon &&
        t.substr(0, dot).find(' ') == std::string_view::npos && std::isupper(static_cast<unsigned char>(t.front()))) {
      continue;
    }
    if (t.starts_with("DEVICE") && t.find("STATE") != std::string_view::npos) {
      table = true;  // `nmcli device status` header
      continue;
    }
    if (table) {
      auto c = SplitWords(t);
      if (c.size() < 3) {
        if (warnings) warnings->push_back({lines.number(), "short nmcli row"});
        continue;
      }
      // NetworkManager's device states (nm-device.c): a row whose third column is none of them is not a device row.
      static const std::set<std::string_view> kStates = {
          "connected",     "disconnected", "unavailable", "unmanaged", "connecting", "deactivating", "failed",   "unknown",
          "disconnecting", "activated",    "prepare",     "config",    "need-auth",  "ip-config",    "ip-check", "secondaries"};
      if (!kStates.count(c[2])) {
        if (warnings)
          warnings->push_back(
              {lines.number(), fmt::format("'{}' is not an nmcli device row (state '{}')", t.substr(0, 60), c[2])});
        continue;
      }
      NmDevice d;
      d.device = std::string(c[0]);
      d.type = std::string(c[1]);
      d.state = std::string(c[2]);
      if (c.size() > 3 && c[3] != "--") d.connection = std::string(c[3]);
      out.push_back(std::move(d));
      continue;
    }
    // `nmcli -t device status`: DEVICE:TYPE:STATE:CONNECTION ('\:' escapes a colon).
    std::vector<std::string> f(1);
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '\\' && i + 1 < t.size())
        f.back().push_back(t[++i]);
      else if (t[i] == ':')
        f.emplace_back();
      else
        f.back().push_back(t[i]);
    }
    if (f.size() < 3) {
      if (warnings) warnings->push_back({lines.number(), "not nmcli device output"});
      continue;
    }
    NmDevice d;
    d.device = f[0];
    d.type = f[1];
    d.state = f[2];
    if (f.size() > 3 && f[3] != "--") d.connection = f[3];
    out.push_back(std::move(d));
  }
  return out;
}

IfcfgFile ParseIfcfg(std::string_view text) {
  IfcfgFile file;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.front() == '#') {
      std::string_view inner = TrimView(t.substr(1));
      size_t eq = inner.find('=');
      if (eq != std::string_view::npos && eq > 0 && inner.substr(0, eq).find(' ') == std::string_view::npos) {
        file.warnings.push_back({lines.number(), fmt::format("'{}' is commented out and has no effect", inner)});
      }
      continue;
    }
    size_t eq = t.find('=');
    if (eq == std::string_view::npos) {
      file.warnings.push_back({lines.number(), fmt::format("'{}' is not an assignment", t)});
      continue;
    }
    std::string_view key = t.substr(0, eq);
    if (key.empty() || key.back() == ' ' || key.back() == '\t' ||
        (eq + 1 < t.size() && (t[eq + 1] == ' ' || t[eq + 1] == '\t'))) {
      file.warnings.push_back({lines.number(), fmt::format("'{}': spaces around '=' make this line no assignment; "
                                                           "the ifcfg loaders ignore it",
                                                           t)});
      continue;
    }
    bool identifier =
        (std::isalpha(static_cast<unsigned char>(key.front())) || key.front() == '_') &&
        std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!identifier) {
      file.warnings.push_back(
          {lines.number(), fmt::format("'{}': '{}' is not a variable name; the ifcfg loaders ignore the line", t, key)});
      continue;
    }
    std::string_view value = t.substr(eq + 1);
    if (value.starts_with("=")) {
      // "DEVICE==eno2" is valid shell, and sets DEVICE to "=eno2": no interface has that name.
      file.warnings.push_back(
          {lines.number(), fmt::format("'{}': '==' sets {} to '{}', not '{}'", t, key, value, value.substr(1))});
    }
    // A comment after an unquoted value: VALUE #comment.
    if (!value.empty() && value.front() != '"' && value.front() != '\'') {
      size_t hash = value.find(" #");
      if (hash != std::string_view::npos) value = value.substr(0, hash);
    }
    file.values[std::string(key)] = Unquote(value);
  }
  auto opts = file.values.find("BONDING_OPTS");
  if (opts != file.values.end()) {
    const std::string& o = opts->second;
    std::vector<std::string> words;
    size_t i = 0;
    while (i < o.size()) {
      while (i < o.size() && o[i] == ' ') ++i;
      size_t start = i;
      while (i < o.size() && o[i] != ' ') ++i;
      if (i > start) words.push_back(o.substr(start, i - start));
    }
    std::string bad;
    for (const std::string& word : words) {
      size_t eq = word.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == word.size()) {
        bad += (bad.empty() ? "" : " ") + word;
        continue;
      }
      file.bonding_opts[word.substr(0, eq)] = word.substr(eq + 1);
    }
    if (!bad.empty()) {
      file.warnings.push_back({0, fmt::format("BONDING_OPTS has words that are not option=value ({}): spaces around "
                                              "'='; the bonding driver rejects such options",
                                              bad)});
    }
  }
  return file;
}

namespace {

// netplan uses YAML 1.1 booleans (yes/no/on/off/true/false).
std::optional<bool> NetplanBool(const YAML::Node& n, NetplanConfig& c, const std::string& where) {
  bool v = false;
  if (n.IsScalar() && YAML::convert<bool>::decode(n, v)) return v;
  c.warnings.push_back({n.Mark().line + 1, fmt::format("{}: not a boolean", where)});
  return std::nullopt;
}

// A missing key gives an invalid node, which throws when asked anything but IsDefined().
std::string Scalar(const YAML::Node& n) { return n.IsDefined() && n.IsScalar() ? n.Scalar() : std::string(); }

void ReadNetplanSections(const YAML::Node& network, NetplanConfig& c);

}  // namespace

NetplanConfig ParseNetplan(std::string_view text) {
  NetplanConfig c;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    c.warnings.push_back({e.mark.line + 1, fmt::format("not YAML: {}", e.msg)});
    return c;
  }
  if (!root.IsMap() || !root["network"] || !root["network"].IsMap()) {
    c.warnings.push_back({1, "no `network:` mapping: not a netplan file"});
    return c;
  }
  const YAML::Node network = root["network"];
  c.renderer = Scalar(network["renderer"]);
  try {
    ReadNetplanSections(network, c);
  } catch (const YAML::Exception& e) {  // a shape this reader did not foresee: said, not thrown
    c.warnings.push_back({e.mark.line + 1, fmt::format("unexpected YAML shape: {}", e.msg)});
  }
  return c;
}

namespace {
void ReadNetplanSections(const YAML::Node& network, NetplanConfig& c) {
  for (const auto& section : network) {
    const std::string kind = Scalar(section.first);
    if (!section.second.IsMap()) continue;  // version, renderer
    for (const auto& entry : section.second) {
      NetplanInterface i;
      i.name = Scalar(entry.first);
      i.section = kind;
      i.line = entry.first.Mark().line + 1;
      const YAML::Node& n = entry.second;
      if (!n.IsMap()) {
        if (!n.IsNull()) c.warnings.push_back({i.line, fmt::format("{}.{}: expected a mapping", kind, i.name)});
        c.interfaces.push_back(std::move(i));
        continue;
      }
      for (const auto& kv : n) {
        const std::string key = Scalar(kv.first);
        const YAML::Node& v = kv.second;
        const std::string where = fmt::format("{}.{}.{}", kind, i.name, key);
        uint32_t number = 0;
        if (key == "mtu") {
          if (v.IsScalar() && YAML::convert<uint32_t>::decode(v, number))
            i.mtu = number;
          else
            c.warnings.push_back({v.Mark().line + 1, where + ": not a number"});
        } else if (key == "dhcp4") {
          i.dhcp4 = NetplanBool(v, c, where);
        } else if (key == "dhcp6") {
          i.dhcp6 = NetplanBool(v, c, where);
        } else if (key == "optional") {
          i.optional = NetplanBool(v, c, where);
        } else if (key == "addresses" && v.IsSequence()) {
          for (const auto& a : v) {
            if (a.IsScalar())
              i.addresses.push_back(a.Scalar());
            else if (a.IsMap() && a.begin() != a.end())
              i.addresses.push_back(Scalar(a.begin()->first));  // "- 10.0.0.1/24: {label: x}"
          }
        } else if (key == "match" && v.IsMap()) {
          i.match_mac = Scalar(v["macaddress"]);
        } else if (key == "set-name") {
          i.set_name = Scalar(v);
        } else if (key == "link") {
          i.link = Scalar(v);
        } else if (key == "renderer") {
          i.renderer = Scalar(v);
        } else if (key == "id") {
          if (v.IsScalar() && YAML::convert<uint32_t>::decode(v, number) && number < 4096)
            i.vlan_id = static_cast<int>(number);
          else
            c.warnings.push_back({v.Mark().line + 1, where + ": not a VLAN id 0-4095"});
        } else if (key == "interfaces" && v.IsSequence()) {
          for (const auto& m : v) i.members.push_back(Scalar(m));
        } else if (key == "parameters" && v.IsMap()) {
          for (const auto& p : v) {
            if (p.second.IsScalar()) i.parameters[Scalar(p.first)] = p.second.Scalar();
          }
        }
      }
      c.interfaces.push_back(std::move(i));
    }
  }
}
}  // namespace

Parsed<NmDevice> ParseNmcli(std::string_view text) {
  Parsed<NmDevice> out;
  out.rows = ReadNmcliRows(text, &out.warnings);
  return out;
}

}  // namespace railyard
