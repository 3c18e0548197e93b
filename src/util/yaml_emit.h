// Writing YAML railyard generates (netplan, NVUE): every name from a plan goes in double quotes, with
// quotes and backslashes escaped and control characters dropped, so that no name can change the
// file's structure.
#pragma once

#include <string>
#include <string_view>

namespace railyard {

std::string YamlQuoted(std::string_view text);

}  // namespace railyard
