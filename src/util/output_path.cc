#include "util/output_path.h"

#include <stdexcept>

#include <fmt/format.h>

#include "util/terminal.h"

namespace railyard {

bool SafeRelativePath(std::string_view relative) {
  if (relative.empty() || relative.size() > 1024) return false;
  size_t start = 0;
  while (start <= relative.size()) {
    size_t slash = relative.find('/', start);
    std::string_view part = relative.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty() || part.size() > 255 || part.front() == '.' || part.front() == '-') return false;
    for (char c : part) {
      unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f || c == '\\') return false;
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return true;
}

std::filesystem::path PathUnder(const std::filesystem::path& dir, std::string_view relative) {
  if (!SafeRelativePath(relative)) {
    throw std::runtime_error(
        fmt::format("{}: refusing to write '{}': not a plain path under it (no '..', '/', leading '-' or '.')", dir.string(),
                    TerminalSafe(std::string(relative))));
  }
  return dir / std::filesystem::path(std::string(relative));
}

void MakeDirectoriesUnder(const std::filesystem::path& dir, const std::filesystem::path& path,
                          std::vector<std::filesystem::path>& created) {
  namespace fs = std::filesystem;
  const fs::path rel = path.lexically_relative(dir);
  fs::path at = dir;
  auto step = [&](const fs::path& p) {
    std::error_code ec;
    fs::file_status st = fs::symlink_status(p, ec);
    if (fs::is_symlink(st)) {
      // The output directory itself may be a link a person made; below it, railyard never follows one.
      if (p == dir) return;
      throw std::runtime_error(fmt::format("{}: is a symlink: refusing to write through it", p.string()));
    }
    if (fs::exists(st)) {
      if (!fs::is_directory(st)) throw std::runtime_error(fmt::format("{}: exists and is not a directory", p.string()));
      return;
    }
    if (fs::create_directory(p, ec)) created.push_back(p);
    if (ec) throw std::runtime_error(fmt::format("{}: cannot create the directory: {}", p.string(), ec.message()));
  };
  if (!dir.empty()) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(dir, ec))) {
      fs::create_directories(dir, ec);
      if (ec) throw std::runtime_error(fmt::format("{}: cannot create the directory: {}", dir.string(), ec.message()));
    }
    step(dir);
  }
  if (rel.empty() || rel == ".") return;
  for (const fs::path& part : rel) {
    if (part == "..") throw std::runtime_error(fmt::format("{}: not under {}", path.string(), dir.string()));
    at /= part;
    step(at);
  }
}

}  // namespace railyard
