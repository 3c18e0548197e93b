// PCI addresses as the tools print them: lspci without -D drops the domain ("19:00.0"), sysfs,
// ethtool -i and mlxfwmanager keep it ("0000:19:00.0").
#pragma once

#include <string>

namespace railyard {

// "0000:19:00.0" and "19:00.0" are the same function; an empty address matches nothing.
bool SamePciAddress(const std::string& a, const std::string& b);

}  // namespace railyard
