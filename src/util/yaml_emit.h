// Writing YAML railyard generates (netplan, NVUE): every name from a plan goes in double quotes, with
// quotes and backslashes escaped and control and line-breaking characters written as YAML escapes
// (\x0a, \N, \L, \P), so that no name can change the file's structure and none is silently altered.
#pragma once

#include <string>
#include <string_view>

namespace railyard {

std::string YamlQuoted(std::string_view text);

// `text` as a mapping key (NVUE's interface names, addresses): bare when it is a plain string to YAML
// (letters, digits, '.', '_', '/', '-', starting with a letter or digit, neither a number nor a word
// YAML 1.1 reads as a boolean or null), else YamlQuoted. Readable where it can be, never a structure.
std::string YamlKey(std::string_view text);

}  // namespace railyard
