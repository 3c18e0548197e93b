#include "util/terminal.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

namespace {

// Line-start words and the colour of their severity part ([begin, end) of the word).
struct Lead {
  std::string_view text;
  size_t begin, end;
  const char* sgr;
};
constexpr Lead kLeads[] = {
    {"error ", 0, 5, "\x1b[1;31m"},
    {"warning ", 0, 7, "\x1b[33m"},
    {"info ", 0, 4, "\x1b[36m"},
    {"railyard: error:", 10, 15, "\x1b[1;31m"},
    {"railyard: warning:", 10, 17, "\x1b[33m"},
};

}  // namespace

void TerminalSafeBuf::Put(unsigned char c) {
  if (!color_ || (!line_start_ && held_.empty())) {
    PutTracking(c);
    return;
  }
  held_ += static_cast<char>(c);
  bool prefix = false;
  for (const Lead& lead : kLeads) {
    if (held_ == lead.text) {
      std::string out(lead.text.substr(0, lead.begin));
      out += lead.sgr;
      out += lead.text.substr(lead.begin, lead.end - lead.begin);
      out += "\x1b[0m";
      out += lead.text.substr(lead.end);
      target_->sputn(out.data(), static_cast<std::streamsize>(out.size()));  // plain ASCII: nothing to escape
      held_.clear();
      line_start_ = false;
      return;
    }
    prefix = prefix || lead.text.starts_with(held_);
  }
  if (!prefix) FlushHeld();
}

void TerminalSafeBuf::FlushHeld() {
  std::string held = std::move(held_);
  held_.clear();
  line_start_ = false;
  for (char h : held) PutTracking(static_cast<unsigned char>(h));
}

void TerminalSafeBuf::PutTracking(unsigned char c) {
  PutSafe(c);
  line_start_ = c == '\n';
}

void TerminalSafeBuf::PutSafe(unsigned char c) {
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
  if (!held_.empty()) FlushHeld();  // a flush mid-word shows the word, uncoloured
  if (pending_c2_) {
    target_->sputc(static_cast<char>(0xc2));
    pending_c2_ = false;
  }
  return target_->pubsync();
}

namespace {

// Never destroyed: std::cout and std::cerr are flushed after every static is gone, and would otherwise
// reach a destroyed filter. Reachable through these pointers, so no leak to the sanitizers either.
TerminalSafeBuf* OutFilter() {
  static TerminalSafeBuf* out = new TerminalSafeBuf(std::cout.rdbuf());
  return out;
}
TerminalSafeBuf* ErrFilter() {
  static TerminalSafeBuf* err = new TerminalSafeBuf(std::cerr.rdbuf());
  return err;
}

}  // namespace

void ProtectTerminal() {
  TerminalSafeBuf* out = OutFilter();
  TerminalSafeBuf* err = ErrFilter();
  if (::isatty(STDOUT_FILENO)) std::cout.rdbuf(out);
  if (::isatty(STDERR_FILENO)) std::cerr.rdbuf(err);
}

std::optional<ColorChoice> ParseColorChoice(std::string_view text) {
  if (text == "auto") return ColorChoice::kAuto;
  if (text == "always") return ColorChoice::kAlways;
  if (text == "never") return ColorChoice::kNever;
  return std::nullopt;
}

bool WantColor(ColorChoice choice, bool is_terminal, const char* no_color, const char* term) {
  if (choice != ColorChoice::kAuto) return choice == ColorChoice::kAlways;
  if (no_color && *no_color) return false;
  if (term && std::string_view(term) == "dumb") return false;
  return is_terminal;
}

void ApplyColor(ColorChoice choice) {
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  const bool out_tty = ::isatty(STDOUT_FILENO), err_tty = ::isatty(STDERR_FILENO);
  OutFilter()->SetColor(WantColor(choice, out_tty, no_color, term));
  ErrFilter()->SetColor(WantColor(choice, err_tty, no_color, term));
  if (choice == ColorChoice::kAlways) {
    std::cout.flush();
    std::cerr.flush();
    std::cout.rdbuf(OutFilter());
    std::cerr.rdbuf(ErrFilter());
  }
}

}  // namespace railyard
