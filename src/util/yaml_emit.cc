#include "util/yaml_emit.h"

#include <cctype>

#include <fmt/format.h>

namespace railyard {

std::string YamlQuoted(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);  // YAML's own escape: the value keeps the byte, the line its end
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x85) {
      out += "\\N";  // NEL, a line break to YAML
      ++i;
    } else if (c == 0xe2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[i + 2]) == 0xa8 || static_cast<unsigned char>(text[i + 2]) == 0xa9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xa8 ? "\\L" : "\\P";  // LINE / PARAGRAPH SEPARATOR
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string YamlKey(std::string_view text) {
  bool bare = !text.empty() && std::isalnum(static_cast<unsigned char>(text.front()));
  size_t dots = 0;
  bool digits_only = true;
  for (char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '/' || c == '-';
    bare = bare && ok;
    dots += c == '.';
    digits_only = digits_only && (std::isdigit(static_cast<unsigned char>(c)) || c == '.');
  }
  if (bare && digits_only && dots <= 1) bare = false;  // 42, 1.5: numbers
  static const char* kWords[] = {"y",   "n",  "yes", "no",  "on",   "off",   "true", "false", "null",
                                 "Y",   "N",  "Yes", "No",  "On",   "Off",   "True", "False", "Null",
                                 "YES", "NO", "ON",  "OFF", "TRUE", "FALSE", "NULL"};
  for (const char* w : kWords) bare = bare && text != w;
  return bare ? std::string(text) : YamlQuoted(text);
}

}  // namespace railyard
