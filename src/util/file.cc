#include "util/file.h"

#include "util/input_error.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace railyard {

std::string ShownPath(const std::string& path) { return path == "-" ? "(stdin)" : path; }

namespace {

std::string ReadStream(const std::string& path) {
  const bool standard_input = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(standard_input ? nullptr : std::fopen(path.c_str(), "rb"), &std::fclose);
  std::FILE* file = standard_input ? stdin : owned.get();
  if (!file) throw InputError(path, 0, 0, "", "cannot read the file");
  std::string text;
  std::error_code ec;
  auto size = standard_input ? 0 : std::filesystem::file_size(path, ec);
  if (!ec) text.resize(static_cast<size_t>(size));
  size_t got = std::fread(text.data(), 1, text.size(), file);
  text.resize(got);
  char chunk[65536];
  while ((got = std::fread(chunk, 1, sizeof(chunk), file)) > 0) text.append(chunk, got);
  if (std::ferror(file)) throw InputError(ShownPath(path), 0, 0, "", "cannot read the file");
  return text;
}

}  // namespace

std::optional<std::string> ReadFileIfReadable(const std::string& path) {
  try {
    return ReadStream(path == "-" ? "./-" : path);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string ReadWholeFile(const std::string& path) {
  if (path != "-") return ReadStream(path);
  static std::mutex mutex;
  static std::optional<std::string> standard_input;
  std::lock_guard lock(mutex);
  if (!standard_input) standard_input = ReadStream(path);
  return *standard_input;
}

}  // namespace railyard
