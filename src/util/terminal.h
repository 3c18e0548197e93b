// Text for a terminal: names that come from the outside (LLDP system names, capture bytes, serials, a
// spec's cluster name) can carry ESC, other control bytes or C1 controls, which a terminal would obey
// (move the cursor, retitle the window, hide lines). When stdout or stderr is a terminal, railyard
// writes through this filter: such bytes are shown as \xNN, text and newlines pass unchanged. Pipes and
// files get the bytes as they are (JSON is escaped by its writer, CSV by CsvEscape).
#pragma once

#include <streambuf>
#include <string>
#include <string_view>

namespace railyard {

// The terminal-safe form of `text`: every byte below 0x20 except '\n' and '\t', DEL (0x7f), and the
// UTF-8 encodings of C1 controls (U+0080..U+009F) as \xNN.
std::string TerminalSafe(std::string_view text);

class TerminalSafeBuf : public std::streambuf {
 public:
  explicit TerminalSafeBuf(std::streambuf* target) : target_(target) {}

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void Put(unsigned char c);
  std::streambuf* target_;
  bool pending_c2_ = false;  // a 0xC2 lead byte whose follower decides
};

// Well-formed UTF-8 (no stray continuation bytes, no overlong or surrogate forms, nothing past U+10FFFF).
bool ValidUtf8(std::string_view text);
// True when `text` holds a control character (below 0x20, DEL, or a C1 control).
bool HasControl(std::string_view text);

// Installs the filter on std::cout / std::cerr where they are terminals (once, for the process).
void ProtectTerminal();

}  // namespace railyard
