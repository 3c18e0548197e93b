#include "util/yaml_strict.h"

#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace railyard {

namespace {

// Aliases can make the node graph cyclic ("a: &x [*x]") or exponential (nested aliases): the walk stops
// at a depth and a node budget no hand-written file reaches.
std::optional<DuplicateKey> Walk(const YAML::Node& node, int depth, size_t& budget) {
  if (depth > 64 || budget == 0) return std::nullopt;
  --budget;
  if (node.IsMap()) {
    std::map<std::string, int> seen;  // key -> line
    for (const auto& kv : node) {
      if (kv.first.IsScalar()) {
        auto [it, fresh] = seen.emplace(kv.first.Scalar(), kv.first.Mark().line + 1);
        if (!fresh) return DuplicateKey{kv.first.Scalar(), kv.first.Mark().line + 1, kv.first.Mark().column + 1, it->second};
      }
      if (auto d = Walk(kv.second, depth + 1, budget)) return d;
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) {
      if (auto d = Walk(item, depth + 1, budget)) return d;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<DuplicateKey> FindDuplicateKey(const YAML::Node& node) {
  size_t budget = 1'000'000;
  return Walk(node, 0, budget);
}

std::optional<double> FiniteNumber(const YAML::Node& node) {
  double v = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, v) || !std::isfinite(v)) return std::nullopt;
  return v;
}

void YamlFail(const std::string& file, const YAML::Node& at, const std::string& key, const std::string& message) {
  YAML::Mark m = at.Mark();
  throw InputError(file, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1, key, message);
}

YAML::Node LoadStrictYaml(const std::string& yaml, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::ParserException& e) {
    throw InputError(file, e.mark.line + 1, e.mark.column + 1, "(syntax)", e.msg);
  }
  if (auto d = FindDuplicateKey(root)) {
    throw InputError(file, d->line, d->column, d->key,
                     fmt::format("appears twice in one mapping (first at line {})", d->first_line));
  }
  if (!root.IsMap()) YamlFail(file, root, "(top level)", "expected a mapping");
  return root;
}

void CheckYamlKeys(const std::string& file, const YAML::Node& map, const std::string& where, const std::set<std::string>& known) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!known.count(it->first.Scalar())) {
      YamlFail(file, it->first, where + it->first.Scalar(), UnknownKeyMessage(it->first.Scalar(), {known.begin(), known.end()}));
    }
  }
}

}  // namespace railyard
