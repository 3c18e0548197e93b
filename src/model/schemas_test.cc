#include "model/schemas.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// No schema id is spelled out in code beside the list (so none can drift from it or be written in two
// shapes unnoticed), and every id in the list is documented.
TEST(SchemaList, EveryIdLivesInTheListAndIsDocumented) {
  const fs::path root(RAILYARD_SOURCE_DIR);
  const std::regex literal("\"(railyard\\.[a-z-]+/[0-9]+)\"");
  for (const auto& e : fs::recursive_directory_iterator(root / "src")) {
    const std::string name = e.path().filename().string();
    if (!(name.ends_with(".cc") || name.ends_with(".h")) || name.ends_with("_test.cc") || name == "schemas.h") continue;
    std::ifstream in(e.path());
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const size_t code = line.find_first_not_of(" \t");
      if (code != std::string::npos && line.compare(code, 2, "//") == 0) continue;  // prose may name a schema
      std::smatch m;
      EXPECT_FALSE(std::regex_search(line, m, literal))
          << e.path().lexically_relative(root).string() << ":" << number << ": spells out " << m[1] << ": use model/schemas.h";
    }
  }
  std::string docs = Read(root / "README.md");
  for (const auto& e : fs::recursive_directory_iterator(root / "docs")) {
    if (e.path().extension() == ".md") docs += Read(e.path());
  }
  std::set<std::string> ids;
  for (const char* id : kSchemas) {
    EXPECT_TRUE(ids.insert(id).second) << id << " twice in the list";
    EXPECT_NE(docs.find(id), std::string::npos) << id << " is documented nowhere under docs/ or in README.md";
  }
}

}  // namespace
}  // namespace railyard
