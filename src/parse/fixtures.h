// Locating the shared, real tool outputs (../shared/fixtures beside the checkout). Tests read
// them in place and skip, saying why, when the folder is absent.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace railyard::testing {

inline std::filesystem::path SharedFixture(const std::string& relative) {
  return std::filesystem::path(RAILYARD_SOURCE_DIR) / ".." / "shared" / "fixtures" / relative;
}

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace railyard::testing

// Skips the test when a shared fixture is missing.
#define RAILYARD_REQUIRE_FIXTURE(path)                                                        \
  if (!std::filesystem::exists(path)) {                                                       \
    GTEST_SKIP() << "shared fixture not found: " << (path) << " (tests need ../shared beside the checkout)"; \
  }
