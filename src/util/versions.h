// Version strings as vendors print them: firmware (28.39.1002), OFED trains (24.10), BIOS (2.0b, 1.5.4).
#pragma once

#include <string>
#include <string_view>

namespace railyard {

// "28.39.1002" < "28.40.1000": parts split at . - _ compare numerically when both are numbers, as text
// otherwise. Returns <0, 0 or >0.
int CompareVersions(const std::string& a, const std::string& b);

// An OS entry of a compatibility list ("ubuntu 22.04", "rhel 9", "rocky") against an os-release ID and
// VERSION_ID: the ID case-insensitively, the version as a dotted prefix ("9" matches 9.4, not 94).
bool OsEntryMatches(std::string_view id, std::string_view version_id, std::string_view entry);

}  // namespace railyard
