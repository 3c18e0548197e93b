// Text into HTML: the self-contained reports (acceptance, rollout) escape every value they print.
#pragma once

#include <string>
#include <string_view>

namespace railyard {

// < > & " as entities; everything else as is (the pages are UTF-8).
std::string HtmlEscape(std::string_view text);

}  // namespace railyard
