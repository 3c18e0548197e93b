#include "util/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace railyard {

void JsonEscape(std::string_view text, fmt::memory_buffer& out) {
  for (char c : text) {
    switch (c) {
      case '"':
        out.append(std::string_view("\\\""));
        break;
      case '\\':
        out.append(std::string_view("\\\\"));
        break;
      case '\n':
        out.append(std::string_view("\\n"));
        break;
      case '\r':
        out.append(std::string_view("\\r"));
        break;
      case '\t':
        out.append(std::string_view("\\t"));
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out.push_back(c);
        }
    }
  }
}

std::string JsonQuote(std::string_view text) {
  fmt::memory_buffer out;
  out.push_back('"');
  JsonEscape(text, out);
  out.push_back('"');
  return fmt::to_string(out);
}

bool IsOutputFileTemporary(std::string_view name) {
  // The pattern the constructor gives mkstemp: "." + the target's name + "." + six characters.
  if (name.size() < 9 || name[0] != '.' || name[name.size() - 7] != '.') return false;
  return std::all_of(name.end() - 6, name.end(), [](unsigned char c) { return std::isalnum(c) != 0; });
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  std::filesystem::path target(path_);
  std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot write in {}: {}", path_, dir.string(), std::strerror(errno)));
  temp_path_ = pattern;
  // mkstemp makes the file 0600; an output is as readable as any file the user creates.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    std::remove(temp_path_.c_str());
    throw std::runtime_error(fmt::format("{}: cannot write: {}", temp_path_, std::strerror(errno)));
  }
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (!committed_) std::remove(temp_path_.c_str());
}

void OutputFile::Flush() {
  if (!file_) return;
  if (buffer_.size() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    throw std::runtime_error(fmt::format("{}: write failed: {}", temp_path_, std::strerror(errno)));
  }
  hash_.Update(std::string_view(buffer_.data(), buffer_.size()));
  buffer_.clear();
}

void OutputFile::Close() {
  Flush();
  if (file_ && std::fclose(file_) != 0) {
    file_ = nullptr;
    throw std::runtime_error(fmt::format("{}: close failed: {}", temp_path_, std::strerror(errno)));
  }
  file_ = nullptr;
}

void OutputFile::Commit() {
  if (file_) Close();
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error(fmt::format("{}: cannot rename into place: {}", path_, std::strerror(errno)));
  }
  committed_ = true;
}

void CommitAll(const std::vector<OutputFile*>& files, const std::function<int(const char*, const char*)>& rename_fn) {
  auto rename = [&](const std::string& from, const std::string& to) {
    return rename_fn ? rename_fn(from.c_str(), to.c_str()) : std::rename(from.c_str(), to.c_str());
  };
  for (OutputFile* f : files) f->Close();
  // A directory where a file goes is refused before anything moves: renamed aside it could not be
  // removed again, and would be left as a ".old" directory beside the new file.
  for (OutputFile* f : files) {
    std::error_code ec;
    if (std::filesystem::is_directory(std::filesystem::symlink_status(f->path(), ec)))
      throw std::runtime_error(fmt::format("{}: is a directory: refusing to replace it with a file", f->path()));
  }
  struct Step {
    OutputFile* file;
    std::string backup;  // where the old target was moved ("" when there was none)
    bool placed = false;
  };
  std::vector<Step> steps;
  auto roll_back = [&] {
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      if (it->placed) std::rename(it->file->path().c_str(), it->file->temp_path().c_str());
      if (!it->backup.empty()) std::rename(it->backup.c_str(), it->file->path().c_str());
    }
  };
  for (OutputFile* f : files) {
    Step step{f, "", false};
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(f->path(), ec))) {
      std::string pattern = f->temp_path() + ".old";
      step.backup = pattern;
      if (rename(f->path(), step.backup) != 0) {
        int err = errno;
        roll_back();
        throw std::runtime_error(fmt::format("{}: cannot move the previous file aside: {}", f->path(), std::strerror(err)));
      }
    }
    steps.push_back(step);
    if (rename(f->temp_path(), f->path()) != 0) {
      int err = errno;
      roll_back();
      throw std::runtime_error(
          fmt::format("{}: cannot rename into place: {} (the previous outputs were restored)", f->path(), std::strerror(err)));
    }
    steps.back().placed = true;
  }
  for (Step& s : steps) {
    if (!s.backup.empty()) std::remove(s.backup.c_str());
    s.file->MarkCommitted();
  }
}

}  // namespace railyard
