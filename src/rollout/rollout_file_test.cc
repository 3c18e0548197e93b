#include "rollout/rollout_file.h"

#include <gtest/gtest.h>

#include "util/input_error.h"

namespace railyard {
namespace {

// The two-person rule compares people: every way of writing one name is the one name.
TEST(NormalizedApprover, OnePersonHowEverTheNameIsWritten) {
  for (const char* alice : {"alice", "Alice", "ALICE", " alice", "alice\t", "\xef\xbc\xa1lice" /* full-width A */,
                            "\xef\xbd\x81\xef\xbd\x8c\xef\xbd\x89\xef\xbd\x83\xef\xbd\x85" /* full-width alice */,
                            "alice\xc2\xa0" /* no-break space */,
                            "\xe3\x80\x80"
                            "alice" /* ideographic space */}) {
    EXPECT_EQ(NormalizedApprover(alice, "--by"), "alice") << alice;
  }
  // Case folding, not lower-casing: the German sharp s folds to "ss", the Kelvin sign to k.
  EXPECT_EQ(NormalizedApprover("Stra\xc3\x9f"
                               "e",
                               "--by"),
            NormalizedApprover("STRASSE", "--by"));
  EXPECT_EQ(NormalizedApprover("\xe2\x84\xaa", "--by"), "k");
  // Composed and decomposed é are one letter.
  EXPECT_EQ(NormalizedApprover("Jos\xc3\xa9", "--by"), NormalizedApprover("Jose\xcc\x81", "--by"));
  // A name in another script is kept, and is not anybody else.
  EXPECT_EQ(NormalizedApprover("\xe5\xbc\xa0\xe4\xb8\x89", "--by"), "\xe5\xbc\xa0\xe4\xb8\x89");  // 张三
  EXPECT_NE(NormalizedApprover("bob", "--by"), NormalizedApprover("alice", "--by"));
}

TEST(NormalizedApprover, BlankIsNobody) {
  for (const char* blank : {"", " ", "\t \t", "\xc2\xa0", "\xe3\x80\x80"})
    EXPECT_EQ(NormalizedApprover(blank, "--by"), "") << blank;
}

// What could make one person look like two is refused, never folded away in silence.
TEST(NormalizedApprover, RefusesWhatHidesInAName) {
  for (const char* hidden : {"ali\xe2\x80\x8b"
                             "ce" /* zero-width space */,
                             "ali\xe2\x80\x8d"
                             "ce" /* zero-width joiner */,
                             "\xe2\x80\xae"
                             "ecila" /* right-to-left override */,
                             "alice\n",
                             "ali\x01"
                             "ce",
                             "ali\xff"
                             "ce" /* not UTF-8 */,
                             "\xef\xbb\xbf"
                             "alice" /* byte-order mark */}) {
    EXPECT_THROW(NormalizedApprover(hidden, "--by"), InputError) << hidden;
  }
  try {
    NormalizedApprover(
        "ali\xe2\x80\x8b"
        "ce",
        "approvals/wave-00-test.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("approvals/wave-00-test.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace railyard
