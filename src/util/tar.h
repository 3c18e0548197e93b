// A POSIX ustar archive written straight into an output: one file for a whole fleet's configuration
// (`config hosts -o hosts.tar`), where 12,500 hosts as separate files would cost the file system more
// than railyard spends making them. Regular files only; `tar -xf` (GNU or BSD) reads it.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace railyard {

class TarWriter {
 public:
  // `sink` receives the archive's bytes in order. `mtime`: seconds since the epoch for every member.
  TarWriter(std::function<void(std::string_view)> sink, int64_t mtime) : sink_(std::move(sink)), mtime_(mtime) {}
  // Adds a regular file. Throws std::invalid_argument for a path ustar cannot hold (over 255 bytes,
  // or no '/' to split it at 100), an absolute path, or one with a ".." component.
  void Add(std::string_view path, uint32_t mode, std::string_view content);
  // The two zero blocks that end the archive.
  void Finish();

 private:
  std::function<void(std::string_view)> sink_;
  int64_t mtime_;
};

}  // namespace railyard
