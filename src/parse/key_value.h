// "Key: value" blocks, the shape most Linux and Mellanox tools print (flint, ethtool,
// /proc/net/bonding, mlxlink). Keys keep their case; values are trimmed. A line that starts
// with whitespace and has no key continues the previous value (flint's second "Rom Info" line,
// ethtool's further link modes), joined with '\n'.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

struct KeyValue {
  std::string key;
  std::string value;
  int line = 0;
};

// Splits at the first `separator` (':' for most tools). Lines without one that are not
// continuations are skipped (section titles such as "802.3ad info").
std::vector<KeyValue> ParseKeyValues(std::string_view text, char separator = ':');

std::string_view TrimView(std::string_view s);

// The leading decimal integer of `s` (after spaces), or `fallback` when there is none.
int LeadingInt(std::string_view s, int fallback = 0);

// /proc/cmdline: space-separated words, "key=value" or a bare flag (value ""). Double quotes
// group spaces ("dyndbg=\"file x +p\""); a repeated key keeps the last value, as the kernel does
// for most parameters.
std::map<std::string, std::string> ParseKernelCmdline(std::string_view text);

}  // namespace railyard
