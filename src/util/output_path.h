// Where a generated file goes under an output directory (-o, a rollout state dir): names from a plan
// or a state file become path components only through PathUnder, which refuses what would leave the
// directory or hide there: "..", ".", an absolute path, an empty component, a component starting with
// '-' or '.', NUL, control characters and backslashes. Directories on the way are created by
// MakeDirectoriesUnder, which refuses a symlink where a directory should be (never writes through it).
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace railyard {

// Whether `relative` ("host/etc/netplan/60-railyard.yaml") is a path of safe components.
bool SafeRelativePath(std::string_view relative);

// dir / relative, or std::runtime_error naming both when `relative` is not a SafeRelativePath.
std::filesystem::path PathUnder(const std::filesystem::path& dir, std::string_view relative);

// Creates each missing directory from `dir` down to `path` (a directory under it), appending the ones
// it made to `created` (to remove on failure). Throws std::runtime_error when a component is a symlink
// or not a directory.
void MakeDirectoriesUnder(const std::filesystem::path& dir, const std::filesystem::path& path,
                          std::vector<std::filesystem::path>& created);

}  // namespace railyard
