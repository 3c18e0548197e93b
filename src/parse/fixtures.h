// Locating the real tool outputs the tests read: tests/fixtures/ in this repository, each with its
// provenance in tests/fixtures/SOURCES.md (or the SOURCES.md of its folder). A fresh clone with
// nothing beside it runs every test; a missing fixture fails the test, it never skips.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace railyard::testing {

inline std::filesystem::path FixturePath(const std::string& relative) {
  return std::filesystem::path(RAILYARD_SOURCE_DIR) / "tests" / "fixtures" / relative;
}

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace railyard::testing

// Fails (and ends) the test when a fixture is missing: a test that cannot read its input must not pass.
#define RAILYARD_REQUIRE_FIXTURE(path) ASSERT_TRUE(std::filesystem::exists(path)) << "fixture not found: " << (path)
