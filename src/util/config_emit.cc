#include "util/config_emit.h"

#include <fmt/format.h>

#include "util/safe_text.h"
#include "util/shell_emit.h"
#include "util/terminal.h"

namespace railyard {

std::string CommentText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    // One UTF-8 sequence at a time, kept when it is well formed, visible text.
    size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 1;
    std::string_view seq = text.substr(i, n);
    bool ok = n > 1 && seq.size() == n && Conforms(TextRule::kText, seq);
    out += ok ? std::string(seq) : std::string("?");
    i += ok || seq.size() == n ? n : 1;  // a whole malformed sequence is one ?
  }
  while (!out.empty() && out.back() == '\\') out.back() = '?';
  return out;
}

std::string IniValue(std::string_view key, std::string_view text) {
  bool bad = !text.empty() && (text.front() == ' ' || text.back() == ' ');
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    bad = bad || u < 0x20 || u == 0x7f || c == '\\' || c == ';' || c == '#';
  }
  if (bad) throw EmitError(fmt::format("{}: '{}' cannot be written as a key file value", key, TerminalSafe(std::string(text))));
  return std::string(text);
}

std::string IfcfgValue(std::string_view key, std::string_view text) {
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      throw EmitError(fmt::format("{}: '{}' cannot be written as an ifcfg value", key, TerminalSafe(std::string(text))));
  }
  return ShellWord(text);
}

std::string PlainWord(std::string_view key, std::string_view text) {
  bool ok = !text.empty();
  for (char c : text) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("._:/@%+=,-").find(c) != std::string_view::npos);
  }
  if (!ok) throw EmitError(fmt::format("{}: '{}' cannot be written as one plain word", key, TerminalSafe(std::string(text))));
  return std::string(text);
}

std::string UnitValue(std::string_view key, std::string_view text) {
  std::string out;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      throw EmitError(fmt::format("{}: '{}' cannot be written as a unit file value", key, TerminalSafe(std::string(text))));
    if (c == '%') out += '%';
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace railyard
