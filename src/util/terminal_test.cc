#include "util/terminal.h"

#include <ostream>
#include <sstream>

#include <gtest/gtest.h>

namespace railyard {
namespace {

// What a terminal would receive for `text` written through the filter.
std::string Through(const std::string& text, bool color, bool flush_midway = false) {
  std::stringbuf target;
  TerminalSafeBuf filter(&target);
  filter.SetColor(color);
  std::ostream out(&filter);
  if (flush_midway) {
    out << text.substr(0, 3) << std::flush << text.substr(3);
  } else {
    out << text;
  }
  out.flush();
  return target.str();
}

TEST(Terminal, ControlBytesFromTheFieldAreShownNotObeyed) {
  EXPECT_EQ(TerminalSafe("leaf\x1b]0;pwned\x07-01\n"), "leaf\\x1b]0;pwned\\x07-01\n");
  EXPECT_EQ(TerminalSafe("a\xc2\x9b"
                         "31m"),
            "a\\xc2\\x9b31m")
      << "a C1 CSI in UTF-8";
  EXPECT_EQ(TerminalSafe("caf\xc3\xa9\tx"), "caf\xc3\xa9\tx") << "text and tabs pass";
  EXPECT_EQ(Through("leaf\x1b[2J\n", false), "leaf\\x1b[2J\n");
  EXPECT_EQ(Through("leaf\x1b[2J\n", true), "leaf\\x1b[2J\n") << "colour on changes nothing of the escaping";
}

TEST(Terminal, ColourMarksTheSeverityThatStartsALine) {
  EXPECT_EQ(Through("error   link-down gpu001\n", true), "\x1b[1;31merror\x1b[0m   link-down gpu001\n");
  EXPECT_EQ(Through("x\nwarning mtu\ninfo    bond\n", true), "x\n\x1b[33mwarning\x1b[0m mtu\n\x1b[36minfo\x1b[0m    bond\n");
  EXPECT_EQ(Through("railyard: error: cluster.yaml:3: bad\n", true), "railyard: \x1b[1;31merror\x1b[0m: cluster.yaml:3: bad\n");
  EXPECT_EQ(Through("railyard: warning: x\n", true), "railyard: \x1b[33mwarning\x1b[0m: x\n");
}

TEST(Terminal, ColourTouchesNothingElse) {
  for (const char* text : {"errors were\n", "an error here\n", "err\nerror", "informational\n", "railyard: wrote 9 files\n",
                           "{\"severity\": \"error\"}\n", "rule,severity\nlink-down,error,gpu001\n"}) {
    EXPECT_EQ(Through(text, true), text);
    EXPECT_EQ(Through(text, false), text);
  }
  EXPECT_EQ(Through("error   x\n", false), "error   x\n");
  EXPECT_EQ(Through("error   x\n", true, true), "error   x\n") << "a flush mid-word shows it, uncoloured";
  EXPECT_EQ(Through("err\x1b[31m\n", true), "err\\x1b[31m\n") << "held bytes are escaped when let go";
}

TEST(Terminal, WhenColourIsWanted) {
  EXPECT_TRUE(WantColor(ColorChoice::kAuto, true, nullptr, "xterm-256color"));
  EXPECT_FALSE(WantColor(ColorChoice::kAuto, false, nullptr, "xterm"));
  EXPECT_FALSE(WantColor(ColorChoice::kAuto, true, "1", "xterm")) << "NO_COLOR set";
  EXPECT_TRUE(WantColor(ColorChoice::kAuto, true, "", "xterm")) << "NO_COLOR empty counts as unset";
  EXPECT_FALSE(WantColor(ColorChoice::kAuto, true, nullptr, "dumb"));
  EXPECT_TRUE(WantColor(ColorChoice::kAlways, false, "1", "dumb")) << "the command line overrides NO_COLOR";
  EXPECT_FALSE(WantColor(ColorChoice::kNever, true, nullptr, "xterm"));
  EXPECT_EQ(ParseColorChoice("always"), ColorChoice::kAlways);
  EXPECT_FALSE(ParseColorChoice("yes").has_value());
}

}  // namespace
}  // namespace railyard
