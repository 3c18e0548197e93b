// Text into HTML and XML: the self-contained reports (acceptance, rollout) and the JUnit reports
// escape every value they print.
#pragma once

#include <string>
#include <string_view>

namespace railyard {

// < > & " as entities; everything else as is (the pages are UTF-8).
std::string HtmlEscape(std::string_view text);

// HtmlEscape, and the control characters XML 1.0 forbids (all below 0x20 but tab, newline and
// carriage return) as a space: a name read from a capture must not make a JUnit report unreadable.
std::string XmlEscape(std::string_view text);

}  // namespace railyard
