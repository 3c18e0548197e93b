#include "util/csv.h"

#include <gtest/gtest.h>

namespace railyard {
namespace {

TEST(Csv, ParsesQuotesCommentsAndLines) {
  CsvTable t = ParseCsv("# comment\na,b,c\n1,\"x, y\",\"say \"\"hi\"\"\"\n# between\n2,,\n", "t.csv");
  ASSERT_EQ(t.header.size(), 3u);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].fields[1], "x, y");
  EXPECT_EQ(t.rows[0].fields[2], "say \"hi\"");
  EXPECT_EQ(t.rows[0].line, 3);
  EXPECT_EQ(t.rows[1].line, 5);
  EXPECT_EQ(t.rows[1].fields[2], "");
  EXPECT_EQ(t.Column("b"), 1);
  EXPECT_EQ(t.Column("z"), -1);
}

TEST(Csv, HandlesCrLfAndMissingFinalNewline) {
  CsvTable t = ParseCsv("a,b\r\n1,2\r\n3,4", "t.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1].fields[1], "4");
}

TEST(Csv, ErrorsNameFileAndLine) {
  try {
    ParseCsv("a,b\n1,2\n3\n", "data.csv");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "data.csv:3: 1 fields, the header has 2");
  }
  EXPECT_THROW(ParseCsv("a\n\"open\n", "q.csv"), std::runtime_error);
}

TEST(Csv, EscapeQuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvEscape("plain"), "plain");
  EXPECT_EQ(CsvEscape("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvEscape("say \"x\""), "\"say \"\"x\"\"\"");
  EXPECT_EQ(CsvEscape("line\nbreak"), "\"line\nbreak\"");
  // Round trip through the parser.
  CsvTable t = ParseCsv("h\n" + CsvEscape("a,\"b\"\nc") + "\n", "r.csv");
  EXPECT_EQ(t.rows[0].fields[0], "a,\"b\"\nc");
}

}  // namespace
}  // namespace railyard
