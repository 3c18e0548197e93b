// Strictness every YAML input of railyard shares (the spec, the doctor and acceptance policies):
// YAML allows a key twice in one mapping and yaml-cpp keeps the first silently, so a corrected value
// appended below the old one would be ignored; and `.nan` / `.inf` are numbers to YAML but never a
// threshold (a NaN comparison is always false: `max_module_temp_c: .nan` would pass a 95 °C module).
#pragma once

#include <optional>
#include <set>
#include <string>

#include <yaml-cpp/yaml.h>

#include "util/input_error.h"

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

// Throws InputError ("FILE:LINE:COLUMN: KEY: MESSAGE") at `at`'s place in the file.
[[noreturn]] void YamlFail(const std::string& file, const YAML::Node& at, const std::string& key, const std::string& message);
// Loads a YAML file railyard reads as a mapping: syntax errors, a key given twice and a top level
// that is not a mapping are errors naming the file, line and column.
YAML::Node LoadStrictYaml(const std::string& yaml, const std::string& file);
// Every key of `map` must be one of `known` (`where` prefixes the key in the error: "switches[2].").
void CheckYamlKeys(const std::string& file, const YAML::Node& map, const std::string& where, const std::set<std::string>& known);

}  // namespace railyard
