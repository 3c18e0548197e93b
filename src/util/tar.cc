#include "util/tar.h"

#include <cstring>

#include <fmt/format.h>

namespace railyard {
namespace {

// An octal number in a ustar field: zero-padded, NUL-terminated, in `width` bytes.
void Octal(char* field, size_t width, uint64_t value) {
  std::string text = fmt::format("{:0{}o}", value, width - 1);
  if (text.size() > width - 1) throw std::invalid_argument("tar: a number too large for its field");
  std::memcpy(field, text.data(), text.size());
  field[width - 1] = '\0';
}

}  // namespace

void TarWriter::Add(std::string_view path, uint32_t mode, std::string_view content) {
  if (path.empty() || path.front() == '/' || path.size() > 255) {
    throw std::invalid_argument(fmt::format("tar: cannot hold the path '{}'", path));
  }
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (path.substr(start, end - start) == "..") throw std::invalid_argument(fmt::format("tar: '{}' has a .. component", path));
    start = end + 1;
  }
  // ustar splits a long path into prefix (155) '/' name (100).
  std::string_view prefix, name = path;
  if (path.size() > 100) {
    size_t cut = path.rfind('/', 155);
    if (cut == std::string_view::npos || path.size() - cut - 1 > 100 || cut == 0) {
      throw std::invalid_argument(fmt::format("tar: cannot split the path '{}' into ustar's prefix and name", path));
    }
    prefix = path.substr(0, cut);
    name = path.substr(cut + 1);
  }
  char h[512] = {};
  std::memcpy(h, name.data(), name.size());
  Octal(h + 100, 8, mode & 07777);
  Octal(h + 108, 8, 0);  // uid
  Octal(h + 116, 8, 0);  // gid
  Octal(h + 124, 12, content.size());
  Octal(h + 136, 12, static_cast<uint64_t>(mtime_ < 0 ? 0 : mtime_));
  std::memset(h + 148, ' ', 8);  // the checksum counts its own field as spaces
  h[156] = '0';                  // a regular file
  std::memcpy(h + 257, "ustar", 6);
  std::memcpy(h + 263, "00", 2);
  std::memcpy(h + 265, "root", 4);
  std::memcpy(h + 297, "root", 4);
  if (!prefix.empty()) std::memcpy(h + 345, prefix.data(), prefix.size());  // memcpy from an empty view's null is undefined
  uint32_t sum = 0;
  for (unsigned char c : h) sum += c;
  std::string check = fmt::format("{:06o}", sum);
  std::memcpy(h + 148, check.data(), 6);
  h[154] = '\0';
  h[155] = ' ';
  sink_(std::string_view(h, sizeof h));
  sink_(content);
  static const char kZeros[512] = {};
  if (size_t pad = (512 - content.size() % 512) % 512) sink_(std::string_view(kZeros, pad));
}

void TarWriter::Finish() {
  static const char kZeros[1024] = {};
  sink_(std::string_view(kZeros, sizeof kZeros));
}

}  // namespace railyard
