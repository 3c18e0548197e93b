#include "util/yaml_strict.h"

#include <cmath>
#include <map>

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

}  // namespace railyard
