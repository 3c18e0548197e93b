#include "util/terminal.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <iostream>

namespace railyard {
namespace {

bool Plain(unsigned char c) { return c >= 0x20 ? c != 0x7f : c == '\n' || c == '\t'; }

void Escape(std::string& out, unsigned char c) {
  static const char* kHex = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

}  // namespace

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      Escape(out, c);
      Escape(out, static_cast<unsigned char>(text[++i]));
    } else if (Plain(c)) {
      out += static_cast<char>(c);
    } else {
      Escape(out, c);
    }
  }
  return out;
}

bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : -1;
    if (n < 0) return false;  // a stray continuation byte, or 0xf8..0xff
    uint32_t cp = n == 0 ? c : n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;
    for (int k = 1; k <= n; ++k) {
      if (i + static_cast<size_t>(k) >= s.size()) return false;
      unsigned char d = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((d >> 6) != 0x2) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    i += static_cast<size_t>(n) + 1;
  }
  return true;
}

bool HasControl(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      return true;
    }
  }
  return false;
}

void TerminalSafeBuf::Put(unsigned char c) {
  std::string out;
  if (pending_c2_) {
    pending_c2_ = false;
    if (c >= 0x80 && c <= 0x9f) {
      Escape(out, 0xc2);
      Escape(out, c);
      target_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
      return;
    }
    target_->sputc(static_cast<char>(0xc2));
  }
  if (c == 0xc2) {
    pending_c2_ = true;
    return;
  }
  if (Plain(c)) {
    target_->sputc(static_cast<char>(c));
    return;
  }
  Escape(out, c);
  target_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
}

TerminalSafeBuf::int_type TerminalSafeBuf::overflow(int_type c) {
  if (c != traits_type::eof()) Put(static_cast<unsigned char>(c));
  return traits_type::not_eof(c);
}

std::streamsize TerminalSafeBuf::xsputn(const char* s, std::streamsize n) {
  for (std::streamsize i = 0; i < n; ++i) Put(static_cast<unsigned char>(s[i]));
  return n;
}

int TerminalSafeBuf::sync() {
  if (pending_c2_) {
    target_->sputc(static_cast<char>(0xc2));
    pending_c2_ = false;
  }
  return target_->pubsync();
}

void ProtectTerminal() {
  // Never destroyed: std::cout and std::cerr are flushed after every static is gone, and would otherwise
  // reach a destroyed filter. Reachable through these pointers, so no leak to the sanitizers either.
  static TerminalSafeBuf* out = new TerminalSafeBuf(std::cout.rdbuf());
  static TerminalSafeBuf* err = new TerminalSafeBuf(std::cerr.rdbuf());
  if (::isatty(STDOUT_FILENO)) std::cout.rdbuf(out);
  if (::isatty(STDERR_FILENO)) std::cerr.rdbuf(err);
}

}  // namespace railyard
