// Tests' way to build HostFacts from real samples: the named files are laid out as a capture
// directory (docs/facts.md names) and read with ReadCaptureDir, as `collect --from` would.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "facts/collect.h"
#include "parse/fixtures.h"

namespace railyard::testing {

// files: {capture file name, source}; a source is a path under tests/fixtures, or
// "project:" + a path in this repository.
inline HostFacts CaptureFacts(const std::string& host, const std::vector<std::pair<std::string, std::string>>& files) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("railyard-capture-{}-{}", ::getpid(), host);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, from] : files) {
    fs::copy_file(from.starts_with("project:") ? fs::path(RAILYARD_SOURCE_DIR) / from.substr(8) : FixturePath(from), dir / name);
  }
  if (!host.empty()) std::ofstream(dir / "hostname.txt") << host << "\n";
  HostFacts f = BuildHostFacts(ReadCaptureDir(dir.string()));
  fs::remove_all(dir);
  return f;
}

}  // namespace railyard::testing
