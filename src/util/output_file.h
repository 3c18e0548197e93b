// Output plumbing shared by the writers: a buffered file that only appears under its real name
// once complete, and JSON string escaping.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "util/content_hash.h"

namespace railyard {

// Appends `text` to `out` as the body of a JSON string (without the quotes).
void JsonEscape(std::string_view text, fmt::memory_buffer& out);
std::string JsonQuote(std::string_view text);

// Writes through a 1 MiB buffer to a temporary file that mkstemp creates in the target's directory
// (".<name>.XXXXXX": an unpredictable name opened O_CREAT|O_EXCL, so a symlink planted there cannot
// redirect the write, even when railyard runs as root). Commit() renames it to `path` (rename replaces a
// symlink at `path`, it never follows it); a file never committed is removed, so a failed run leaves no
// half-written output behind.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  fmt::memory_buffer& buffer() { return buffer_; }
  template <typename... Args>
  void Print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(fmt::appender(buffer_), format, std::forward<Args>(args)...);
    MaybeFlush();
  }
  // Hot loops pass FMT_COMPILE("...") so the format string is parsed at compile time.
  template <typename S, typename... Args, std::enable_if_t<fmt::detail::is_compiled_string<S>::value, int> = 0>
  void Print(const S& format, Args&&... args) {
    fmt::format_to(fmt::appender(buffer_), format, std::forward<Args>(args)...);
    MaybeFlush();
  }
  void Append(std::string_view text) {
    buffer_.append(text.data(), text.data() + text.size());
    MaybeFlush();
  }
  void MaybeFlush() {
    if (buffer_.size() >= (1u << 20)) Flush();
  }
  // Flushes and closes the temporary file. Throws std::runtime_error on an I/O error.
  void Close();
  // Renames the closed temporary file into place.
  void Commit();
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }
  void MarkCommitted() { committed_ = true; }
  // The fingerprint of every byte written (complete once closed): plan.index names plan.json's.
  const ContentHash& content_hash() const { return hash_; }

 private:
  void Flush();
  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  fmt::memory_buffer buffer_;
  ContentHash hash_;
  bool committed_ = false;
};

// Commits a set of closed output files all or nothing: each existing target is first moved aside, then
// every new file renamed into place; if any step fails, the targets renamed so far are put back and the
// error is thrown, so the set is never half old and half new. `rename` defaults to the system call (tests
// inject failures).
// Whether NAME is the name of an OutputFile's temporary (".<target name>.XXXXXX"): what a writer killed
// before its commit leaves behind.
bool IsOutputFileTemporary(std::string_view name);

void CommitAll(const std::vector<OutputFile*>& files, const std::function<int(const char*, const char*)>& rename = nullptr);

}  // namespace railyard
