// What railyard says of itself (plan.json's generator, file headers, --version). The version is set
// in one place, CMake's project(VERSION), and reaches the code as RAILYARD_VERSION; the commit and
// catalog date are stamped at build time (cmake/version_stamp.cmake).
#pragma once

#include <string>
#include <string_view>

namespace railyard {

inline constexpr const char* kVersion = RAILYARD_VERSION;

// `git describe --always --dirty` of the tree built ("unknown" outside a git checkout).
std::string_view GitCommit();
// The date (YYYY-MM-DD) of the last commit that changed the embedded catalog and facts under data/.
std::string_view CatalogDate();
// "railyard 0.1.0 (commit 1a2b3c4d5e6f, catalog 2026-11-28)": the first line of --version.
std::string VersionLine();

}  // namespace railyard
