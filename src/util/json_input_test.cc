#include "util/json_input.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "util/input_error.h"

namespace railyard {
namespace {

TEST(JsonInput, PlacesAreOneBased) {
  EXPECT_EQ(PlaceOfOffset("ab\ncd", 0).line, 1);
  EXPECT_EQ(PlaceOfOffset("ab\ncd", 4).line, 2);
  EXPECT_EQ(PlaceOfOffset("ab\ncd", 4).column, 2);
  EXPECT_EQ(PlaceOfOffset("ab\ncd", 99).column, 3) << "past the end is the end";
}

TEST(JsonInput, ABadByteIsNamedByLineAndColumn) {
  try {
    ParseJsonInput("{\n  \"a\": 1,\n  \"b\": tru\n}\n", "state/rollout.json");
    FAIL() << "bad JSON was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "state/rollout.json");
    EXPECT_EQ(e.line(), 3);
    EXPECT_GT(e.column(), 7);
    EXPECT_EQ(std::string(e.what()).find("json.exception"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("state/rollout.json:3:"), std::string::npos) << e.what();
  }
}

TEST(JsonInput, ATruncatedFilePointsAtItsEnd) {
  try {
    ParseJsonInput("{\"waves\": [1, 2", "r.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_EQ(e.column(), 16);
  }
  EXPECT_EQ(ParseJsonInput("[1]", "x")[0], 1);
}

TEST(JsonInput, AMissingFileIsAnInputError) { EXPECT_THROW(ReadJsonFile("/nonexistent/railyard.json"), InputError); }

}  // namespace
}  // namespace railyard
