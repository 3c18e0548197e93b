// Golden files: the bundled lab example's outputs, byte for byte. A change to any writer or to
// the planner that alters them shows up here as a diff to review; regenerate deliberately with
//   RAILYARD_UPDATE_GOLDEN=1 ./build/railyard_tests --gtest_filter='Golden.*'
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "export/write_all.h"
#include "spec/spec.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string FirstDifference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool ha = static_cast<bool>(std::getline(a, la));
    bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "identical";
    if (la != lb || ha != hb) return "line " + std::to_string(line) + ":\n  want: " + la + "\n  got:  " + lb;
  }
}

TEST(Golden, LabExampleOutputs) {
  const fs::path source(RAILYARD_SOURCE_DIR);
  const fs::path golden = source / "tests/golden/lab-8-node";
  const fs::path out = fs::temp_directory_path() / ("railyard-golden-" + std::to_string(::getpid()));
  fs::remove_all(out);
  Spec spec = LoadSpec((source / "examples/lab-8-node.yaml").string());
  spec.file = "examples/lab-8-node.yaml";  // findings cite the spec path; keep it independent of the checkout
  PlanResult result = Plan(spec);
  auto files = WritePlanOutputs(result, Catalog::Builtin(), out.string());
  const bool update = std::getenv("RAILYARD_UPDATE_GOLDEN") != nullptr;
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    std::string got = Read(out / name);
    if (update) {
      fs::create_directories(golden);
      std::ofstream(golden / name, std::ios::binary) << got;
      continue;
    }
    ASSERT_TRUE(fs::exists(golden / name)) << "no golden file; run with RAILYARD_UPDATE_GOLDEN=1";
    std::string want = Read(golden / name);
    EXPECT_TRUE(want == got) << FirstDifference(want, got);
  }
  // And nothing is left there that the writer no longer writes: a renamed or removed export takes its
  // golden file with it.
  if (!update) {
    const std::set<std::string> written(files.begin(), files.end());
    for (const auto& entry : fs::directory_iterator(golden))
      EXPECT_TRUE(written.count(entry.path().filename().string())) << entry.path().filename() << " is no longer written";
  }
  fs::remove_all(out);
}

}  // namespace
}  // namespace railyard
