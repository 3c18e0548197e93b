// Strictness every YAML input of railyard shares (the spec, the doctor and acceptance policies):
// YAML allows a key twice in one mapping and yaml-cpp keeps the first silently, so a corrected value
// appended below the old one would be ignored; and `.nan` / `.inf` are numbers to YAML but never a
// threshold (a NaN comparison is always false: `max_module_temp_c: .nan` would pass a 95 °C module).
#pragma once

#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

namespace railyard {

struct DuplicateKey {
  std::string key;
  int line = 0, column = 0;  // 1-based, of the second occurrence
  int first_line = 0;
};

// The first key that appears twice in one mapping, anywhere in the document.
std::optional<DuplicateKey> FindDuplicateKey(const YAML::Node& root);

// A scalar that is a finite number (not .nan, .inf, or text); nullopt otherwise.
std::optional<double> FiniteNumber(const YAML::Node& node);

}  // namespace railyard
