#include "parse/netconfig.h"

#include <cctype>

#include <fmt/format.h>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

std::vector<std::string_view> Columns(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::string Unquote(std::string_view v) {
  v = TrimView(v);
  if (v.size() >= 2 && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\''))) {
    v = v.substr(1, v.size() - 2);
  }
  return std::string(v);
}

}  // namespace

std::vector<NmDevice> ParseNmcli(std::string_view text, std::vector<ParseWarning>* warnings) {
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
      if (key == "GENERAL.TYPE") d.type = std::string(value);
      else if (key == "GENERAL.HWADDR") d.hwaddr = std::string(value);
      else if (key == "GENERAL.MTU") d.mtu = static_cast<uint32_t>(LeadingInt(value));
      else if (key == "GENERAL.CONNECTION") d.connection = value == "--" ? "" : std::string(value);
      else if (key == "GENERAL.STATE") {
        d.state_code = LeadingInt(value, -1);
        size_t open = value.find('(');
        if (open != std::string_view::npos) d.state = std::string(value.substr(open + 1, value.find(')', open) - open - 1));
      } else if (key == "WIRED-PROPERTIES.CARRIER") d.carrier = value == "on";
      continue;
    }
    // Other `nmcli device show` properties (IP4.ADDRESS[1]:, IP6.ROUTE[2]: ...): not ours.
    size_t dot = t.find('.'), colon = t.find(':');
    if (dot != std::string_view::npos && colon != std::string_view::npos && dot < colon && t.substr(0, dot).find(' ') == std::string_view::npos &&
        std::isupper(static_cast<unsigned char>(t.front()))) {
      continue;
    }
    if (t.starts_with("DEVICE") && t.find("STATE") != std::string_view::npos) {
      table = true;  // `nmcli device status` header
      continue;
    }
    if (table) {
      auto c = Columns(t);
      if (c.size() < 3) {
        if (warnings) warnings->push_back({lines.number(), "short nmcli row"});
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
      if (t[i] == '\\' && i + 1 < t.size()) f.back().push_back(t[++i]);
      else if (t[i] == ':') f.emplace_back();
      else f.back().push_back(t[i]);
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
    if (key.empty() || key.back() == ' ' || key.back() == '\t' || (eq + 1 < t.size() && (t[eq + 1] == ' ' || t[eq + 1] == '\t'))) {
      file.warnings.push_back({lines.number(), fmt::format("'{}': spaces around '=' make this line no assignment; "
                                                           "the ifcfg loaders ignore it",
                                                           t)});
      continue;
    }
    std::string_view value = t.substr(eq + 1);
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

}  // namespace railyard
