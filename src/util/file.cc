#include "util/file.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace railyard {

std::string ReadWholeFile(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw std::runtime_error(path + ": cannot read the file");
  std::string text;
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (!ec) text.resize(static_cast<size_t>(size));
  size_t got = std::fread(text.data(), 1, text.size(), file.get());
  text.resize(got);
  char chunk[65536];
  while ((got = std::fread(chunk, 1, sizeof(chunk), file.get())) > 0) text.append(chunk, got);
  if (std::ferror(file.get())) throw std::runtime_error(path + ": cannot read the file");
  return text;
}

}  // namespace railyard
