// Names in the order people count them: swp5 before swp16, node9 before node10 (runs of digits
// compare as numbers, however long, leading zeros aside).
#pragma once

#include <string_view>

namespace railyard {

bool NaturalLess(std::string_view x, std::string_view y);

}  // namespace railyard
