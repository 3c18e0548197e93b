#include "parse/running_config.h"

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

namespace railyard {
namespace {

constexpr const char* kSep = " > ";

std::string Collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

void FlattenYaml(const YAML::Node& node, const std::string& path, ConfigEntries& out) {
  if (node.IsMap()) {
    if (node.size() == 0 && !path.empty()) out[path] = "";
    for (const auto& kv : node) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      FlattenYaml(kv.second, path.empty() ? key : path + kSep + key, out);
    }
  } else if (node.IsSequence()) {
    std::string joined;
    for (const auto& item : node) joined += (joined.empty() ? "" : ",") + (item.IsScalar() ? item.Scalar() : std::string("?"));
    out[path] = joined;
  } else if (node.IsScalar()) {
    out[path] = node.Scalar();
  } else if (!path.empty()) {
    out[path] = "";  // null: present
  }
}

}  // namespace

ConfigEntries EosConfigEntries(std::string_view text) {
  ConfigEntries out;
  std::vector<std::pair<size_t, std::string>> blocks;  // indentation, line: the enclosing blocks
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    const size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos) continue;
    const std::string body = Collapse(line.substr(indent));
    if (body.empty() || body[0] == '!' || body == "end") continue;
    while (!blocks.empty() && blocks.back().first >= indent) blocks.pop_back();
    std::string key;
    for (const auto& [depth, b] : blocks) key += b + kSep;
    key += body;
    out[key] = "";
    blocks.emplace_back(indent, body);
  }
  return out;
}

ConfigEntries SonicConfigEntries(std::string_view text, std::string& error) {
  ConfigEntries out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not CONFIG_DB JSON (an object of tables)";
    return out;
  }
  for (auto table = j.begin(); table != j.end(); ++table) {
    if (!table.value().is_object()) continue;
    for (auto key = table.value().begin(); key != table.value().end(); ++key) {
      const std::string base = table.key() + kSep + key.key();
      if (!key.value().is_object() || key.value().empty()) {
        out[base] = "";
        continue;
      }
      for (auto field = key.value().begin(); field != key.value().end(); ++field) {
        const auto& v = field.value();
        std::string value;
        if (v.is_string()) {
          value = v.get<std::string>();
        } else if (v.is_array()) {
          for (const auto& item : v)
            value += (value.empty() ? "" : ",") + (item.is_string() ? item.get<std::string>() : item.dump());
        } else {
          value = v.dump();
        }
        out[base + kSep + field.key()] = value;
      }
    }
  }
  return out;
}

ConfigEntries NvueConfigEntries(std::string_view text, std::string& error) {
  ConfigEntries out;
  try {
    YAML::Node doc = YAML::Load(std::string(text));
    if (!doc.IsSequence()) {
      error = "not NVUE configuration YAML (a list of `set:` / `header:` items)";
      return out;
    }
    for (const auto& item : doc) {
      if (item.IsMap() && item["set"]) FlattenYaml(item["set"], "", out);
    }
  } catch (const YAML::Exception& e) {
    error = std::string("not YAML: ") + e.what();
    out.clear();
  }
  return out;
}

ConfigEntries ConfigEntriesOf(const std::string& os, std::string_view text, std::string& error) {
  if (os == "eos") return EosConfigEntries(text);
  if (os == "sonic") return SonicConfigEntries(text, error);
  if (os == "nvue") return NvueConfigEntries(text, error);
  error = "no configuration reader for '" + os + "'";
  return {};
}

std::vector<DriftItem> ConfigDrift(const ConfigEntries& expected, const ConfigEntries& running) {
  std::vector<DriftItem> out;
  for (const auto& [key, value] : expected) {
    auto it = running.find(key);
    if (it == running.end()) {
      // EOS omits defaults: "no shutdown" is the absence of "shutdown" in the same block.
      const size_t last = key.rfind(kSep);
      const std::string block = last == std::string::npos ? "" : key.substr(0, last + 3);
      const std::string line = last == std::string::npos ? key : key.substr(last + 3);
      if (line == "no shutdown" && !running.count(block + "shutdown")) continue;
      out.push_back({key, value, "", true});
    } else if (it->second != value) {
      out.push_back({key, value, it->second, false});
    }
  }
  return out;
}

}  // namespace railyard
