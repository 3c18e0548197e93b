// "Did you mean ...?" for misspelt keys, OPNs and names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace railyard {

// Case-insensitive Levenshtein distance.
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, or "" when none is close enough to be a plausible typo
// (distance at most a third of the longer word, and at least 1 character allowed).
std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace railyard
