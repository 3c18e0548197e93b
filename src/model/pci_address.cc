#include "model/pci_address.h"

#include <algorithm>

namespace railyard {

bool SamePciAddress(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  auto strip = [](const std::string& s) { return std::count(s.begin(), s.end(), ':') == 2 ? s.substr(s.find(':') + 1) : s; };
  return strip(a) == strip(b);
}

}  // namespace railyard
