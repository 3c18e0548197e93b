// Small text helpers every part uses: one home, so there is one behaviour.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace railyard {

// ASCII lower case ("ConnectX" -> "connectx"); other bytes unchanged.
inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `s` without leading and trailing spaces, tabs, CR and LF.
inline std::string_view TrimSpace(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace railyard
