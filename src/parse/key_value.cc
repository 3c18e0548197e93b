#include "parse/key_value.h"

#include <cctype>
#include <charconv>

#include "util/lines.h"
#include "util/text.h"

namespace railyard {

std::string_view TrimView(std::string_view s) { return TrimSpace(s); }

int LeadingInt(std::string_view s, int fallback) {
  s = TrimView(s);
  int n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return ec == std::errc() && p != s.data() ? n : fallback;
}

std::vector<KeyValue> ParseKeyValues(std::string_view text, char separator) {
  std::vector<KeyValue> out;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    if (TrimView(line).empty()) continue;
    size_t sep = line.find(separator);
    bool indented = line.front() == ' ' || line.front() == '\t';
    if (sep == std::string_view::npos) {
      if (indented && !out.empty()) {
        std::string_view more = TrimView(line);
        if (!out.back().value.empty()) out.back().value += '\n';
        out.back().value += std::string(more);
      }
      continue;
    }
    std::string_view key = TrimView(line.substr(0, sep));
    std::string_view value = TrimView(line.substr(sep + 1));
    if (key.empty()) continue;
    out.push_back({std::string(key), std::string(value), lines.number()});
  }
  return out;
}

std::map<std::string, std::string> ParseKernelCmdline(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    std::string word;
    bool quoted = false;
    for (; i < text.size(); ++i) {
      char c = text[i];
      if (c == '"') {
        quoted = !quoted;
        continue;
      }
      if (!quoted && std::isspace(static_cast<unsigned char>(c))) break;
      word += c;
    }
    size_t eq = word.find('=');
    if (eq == 0) continue;  // "=x" names nothing
    if (eq == std::string::npos)
      out[word] = "";
    else
      out[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return out;
}

}  // namespace railyard
