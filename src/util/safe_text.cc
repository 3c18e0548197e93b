#include "util/safe_text.h"

#include <arpa/inet.h>

#include <array>
#include <charconv>

#include <fmt/format.h>

#include "util/input_error.h"
#include "util/terminal.h"

namespace railyard {
namespace {

bool Alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Letters and digits first, then any of `extra` too; `max` bytes at most.
bool Token(std::string_view v, std::string_view extra, size_t max, bool alnum_first = true) {
  if (v.empty() || v.size() > max) return false;
  if (alnum_first && !Alnum(v.front())) return false;
  for (char c : v) {
    if (!Alnum(c) && extra.find(c) == std::string_view::npos) return false;
  }
  return true;
}

// Where '/' is allowed, no ".." and no empty step: a value never reads as a path upwards.
bool NoDotDot(std::string_view v) {
  return v.find("..") == std::string_view::npos && v.find("//") == std::string_view::npos && v.back() != '/';
}

bool Address(std::string_view v, bool prefix_required) {
  if (v.empty() || v.size() > 64) return false;
  size_t slash = v.find('/');
  if (prefix_required && slash == std::string_view::npos) return false;
  std::string ip(v.substr(0, slash));
  std::array<unsigned char, 16> buffer{};
  bool v6 = ip.find(':') != std::string::npos;
  if (inet_pton(v6 ? AF_INET6 : AF_INET, ip.c_str(), buffer.data()) != 1) return false;
  if (slash == std::string_view::npos) return true;
  std::string_view len = v.substr(slash + 1);
  unsigned n = 0;
  auto [end, ec] = std::from_chars(len.data(), len.data() + len.size(), n);
  return ec == std::errc() && end == len.data() + len.size() && !len.empty() && len.size() <= 3 && n <= (v6 ? 128u : 32u);
}

// Code points that break or hide a line although they are not C0/C1 controls: NEL is C1; LINE and
// PARAGRAPH SEPARATOR end a line in YAML and in editors; the zero-width and bidirectional format
// characters make text read other than it is (a "Trojan Source" name).
bool Invisible(uint32_t cp) {
  return cp == 0x2028 || cp == 0x2029 || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff || cp == 0x00ad || cp == 0x061c || cp == 0x180e;
}

bool FreeText(std::string_view v) {
  if (v.empty() || v.size() > 256 || !ValidUtf8(v) || HasControl(v)) return false;
  for (size_t i = 0; i < v.size();) {
    unsigned char c = static_cast<unsigned char>(v[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int n = (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : 3;
    uint32_t cp = n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;
    for (int k = 1; k <= n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(v[i + static_cast<size_t>(k)]) & 0x3f);
    if (Invisible(cp)) return false;
    i += static_cast<size_t>(n) + 1;
  }
  return true;
}

}  // namespace

bool Conforms(TextRule rule, std::string_view v) {
  switch (rule) {
    case TextRule::kName:
      return Token(v, "._-", 64);
    case TextRule::kRack:
      return Token(v, "._-/", 64) && NoDotDot(v);
    case TextRule::kPort:
      return Token(v, "._-/:", 32) && NoDotDot(v);
    case TextRule::kIfname:
      return Token(v, "._-", 15);
    case TextRule::kLabel:
      return Token(v, "._-/:", 64) && NoDotDot(v);
    case TextRule::kWord:
      return Token(v, "._+/-", 64);
    case TextRule::kAddress:
      return Address(v, false);
    case TextRule::kPrefix:
      return Address(v, true);
    case TextRule::kHost:
      return Conforms(TextRule::kName, v) || Conforms(TextRule::kAddress, v);
    case TextRule::kVersion:
      return Token(v, "._+-", 64);
    case TextRule::kPsid:
      return Token(v, "_", 32, false);
    case TextRule::kDevice:
      return !v.empty() && v.front() != '-' && Token(v, "._:/-", 64, false);
    case TextRule::kFileName:
      return Token(v, "._+-", 128);
    case TextRule::kImage:
      return Token(v, "._+/-", 200) && v.find("..") == std::string_view::npos && v.find("/.") == std::string_view::npos;
    case TextRule::kSha256:
      if (v.size() != 64) return false;
      for (char c : v) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
      }
      return true;
    case TextRule::kText:
      return FreeText(v);
  }
  return false;
}

std::string_view RuleText(TextRule rule) {
  switch (rule) {
    case TextRule::kName:
      return "a name (1-64 of letters, digits, '.', '_', '-', starting with a letter or digit)";
    case TextRule::kRack:
      return "a rack name (1-64 of letters, digits, '.', '_', '-', '/', starting with a letter or digit)";
    case TextRule::kPort:
      return "a port name (1-32 of letters, digits, '.', '_', '-', '/', ':', starting with a letter or digit)";
    case TextRule::kIfname:
      return "a Linux interface name (1-15 of letters, digits, '.', '_', '-', starting with a letter or digit)";
    case TextRule::kLabel:
      return "a cable label (1-64 of letters, digits, '.', '_', '-', '/', ':', starting with a letter or digit)";
    case TextRule::kWord:
      return "a kind, role, model or OPN (1-64 of letters, digits, '.', '_', '+', '/', '-', starting with a letter or digit)";
    case TextRule::kAddress:
      return "an IPv4 or IPv6 address (with or without /length)";
    case TextRule::kPrefix:
      return "an IPv4 or IPv6 prefix (address/length)";
    case TextRule::kHost:
      return "a host name or an IP address";
    case TextRule::kVersion:
      return "a version (1-64 of letters, digits, '.', '_', '+', '-', starting with a letter or digit)";
    case TextRule::kPsid:
      return "a PSID (1-32 of letters, digits and '_')";
    case TextRule::kDevice:
      return "a device (a PCI address or /dev/mst path: 1-64 of letters, digits, '.', '_', ':', '/', '-', not starting with '-')";
    case TextRule::kFileName:
      return "a file name (1-128 of letters, digits, '.', '_', '+', '-', starting with a letter or digit; no directory)";
    case TextRule::kImage:
      return "an image file under $IMAGES (1-200 of letters, digits, '.', '_', '+', '/', '-', starting with a letter or digit; "
             "no '..')";
    case TextRule::kSha256:
      return "a SHA-256 digest (64 hexadecimal digits)";
    case TextRule::kText:
      return "text (1-256 bytes of UTF-8 without control, line-breaking or invisible format characters)";
  }
  return "";
}

void RequireText(TextRule rule, std::string_view value, const std::string& file, const std::string& where, int line, int column) {
  if (Conforms(rule, value)) return;
  // Shown with every control byte as \xNN (a newline included: the error stays one line).
  std::string shown;
  for (char c : value.substr(0, 80)) {
    unsigned char u = static_cast<unsigned char>(c);
    shown += u < 0x20 || u == 0x7f ? fmt::format("\\x{:02x}", u) : std::string(1, c);
  }
  if (value.size() > 80) shown += "...";
  throw InputError(file, line, column, where,
                   value.empty() ? fmt::format("empty: expected {}", RuleText(rule))
                                 : fmt::format("'{}' is not {}", TerminalSafe(shown), RuleText(rule)));
}

void RequireTextOrEmpty(TextRule rule, std::string_view value, const std::string& file, const std::string& where, int line,
                        int column) {
  if (!value.empty()) RequireText(rule, value, file, where, line, column);
}

}  // namespace railyard
