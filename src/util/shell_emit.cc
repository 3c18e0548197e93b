#include "util/shell_emit.h"

namespace railyard {
namespace {

bool Bare(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '@' || c == '%' || c == '+' ||
         c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '_' || c == '-';
}

}  // namespace

std::string ShellWord(std::string_view text) {
  bool bare = !text.empty();
  for (char c : text) bare = bare && Bare(c);
  // '=' before any other character would make the word an assignment where it stands first; '%' is
  // job control to `fg`: harmless as an argument, quoted anyway when it leads.
  if (bare && (text.front() == '=' || text.front() == '%')) bare = false;
  if (bare) return std::string(text);
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string ShellCommand(std::initializer_list<std::string_view> words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ' ';
    out += ShellWord(w);
  }
  return out;
}

std::string ShellInDoubleQuotes(std::string_view text) {
  std::string out;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += '?';
    } else {
      if (c == '$' || c == '`' || c == '"' || c == '\\') out += '\\';
      if (c == '!') {
        out += "\"'!'\"";  // history expansion in an interactive bash: out of the double quotes for it
        continue;
      }
      out += c;
    }
  }
  return out;
}

}  // namespace railyard
