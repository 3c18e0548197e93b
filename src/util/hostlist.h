// Slurm/ClusterShell host lists: "node[001-004,007],gpu1" names node001 … node004, node007 and
// gpu1.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace railyard {

// Expands a host list in order, ranges keeping their zero padding (node[08-10] = node08 node09
// node10). Throws InputError naming the expression and what is wrong (an unclosed bracket,
// a range running backwards, more than `limit` names) rather than guessing.
std::vector<std::string> ExpandHostlist(std::string_view expression, size_t limit = 1'000'000);

// The inverse: node001,node002,node003,gpu1 -> node[001-003],gpu1. Runs of one prefix and digit
// width fold into ranges, in the order given.
std::string CompressHostlist(const std::vector<std::string>& names);

}  // namespace railyard
