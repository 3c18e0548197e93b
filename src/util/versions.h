// Version strings as vendors print them: firmware (28.39.1002), OFED trains (24.10), BIOS (2.0b, 1.5.4).
#pragma once

#include <string>

namespace railyard {

// "28.39.1002" < "28.40.1000": parts split at . - _ compare numerically when both are numbers, as text
// otherwise. Returns <0, 0 or >0.
int CompareVersions(const std::string& a, const std::string& b);

}  // namespace railyard
