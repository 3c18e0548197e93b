// Text for a terminal: names that come from the outside (LLDP system names, capture bytes, serials, a
// spec's cluster name) can carry ESC, other control bytes or C1 controls, which a terminal would obey
// (move the cursor, retitle the window, hide lines). When stdout or stderr is a terminal, railyard
// writes through this filter: such bytes are shown as \xNN, text and newlines pass unchanged. Pipes and
// files get the bytes as they are (JSON is escaped by its writer, CSV by CsvEscape).
#pragma once

#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

namespace railyard {

// The terminal-safe form of `text`: every byte below 0x20 except '\n' and '\t', DEL (0x7f), and the
// UTF-8 encodings of C1 controls (U+0080..U+009F) as \xNN.
std::string TerminalSafe(std::string_view text);

// The filter also colours, when asked, the severity word that begins a line: "error", "warning" and
// "info" at the start of a findings table's line, and "railyard: error:" / "railyard: warning:" on
// stderr. Colour is added here, after the escaping, and never taken from the text: an ESC in a name
// from the field is still shown as \x1b, and the worst a hostile name can do is start a line with
// "error " and be coloured.
class TerminalSafeBuf : public std::streambuf {
 public:
  explicit TerminalSafeBuf(std::streambuf* target) : target_(target) {}
  void SetColor(bool on) { color_ = on; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void Put(unsigned char c);
  void PutSafe(unsigned char c);  // the escaping alone
  void PutTracking(unsigned char c);
  void FlushHeld();
  std::streambuf* target_;
  bool pending_c2_ = false;  // a 0xC2 lead byte whose follower decides
  bool color_ = false;
  bool line_start_ = true;
  std::string held_;  // a line's first bytes while they may still be a severity word
};

// Well-formed UTF-8 (no stray continuation bytes, no overlong or surrogate forms, nothing past U+10FFFF).
bool ValidUtf8(std::string_view text);
// True when `text` holds a control character (below 0x20, DEL, or a C1 control).
bool HasControl(std::string_view text);

// Installs the filter on std::cout / std::cerr where they are terminals (once, for the process).
void ProtectTerminal();

// --color: auto (a terminal, and NO_COLOR unset or empty, and TERM not "dumb"), always, never.
enum class ColorChoice { kAuto, kAlways, kNever };
std::optional<ColorChoice> ParseColorChoice(std::string_view text);
// Whether a stream gets colour. `no_color` and `term` are the environment's NO_COLOR and TERM (null
// when unset); a command-line choice overrides NO_COLOR, as no-color.org asks.
bool WantColor(ColorChoice choice, bool is_terminal, const char* no_color, const char* term);
// Colour on std::cout and std::cerr as `choice` says. With always, a stream that is not a terminal
// gets the filter too (for `less -R`): its control bytes are then escaped as on a terminal.
void ApplyColor(ColorChoice choice);

}  // namespace railyard
