// Walks text line by line with 1-based line numbers, without copying. A trailing '\r' is
// dropped (CRLF files); the last line need not end in '\n'.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>
#include <vector>

namespace railyard {

class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  // Sets `line` to the next line and returns true, or returns false at the end.
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t eol = text_.find('\n', pos_);
    if (eol == std::string_view::npos) eol = text_.size();
    line = text_.substr(pos_, eol - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = eol + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

// The whitespace-separated words of a line (spaces, tabs, a trailing '\r'), plus `extra` as a
// further separator when given (',' for "07,06,05,"). Views into `line`.
inline std::vector<std::string_view> SplitWords(std::string_view line, char extra = ' ') {
  std::vector<std::string_view> out;
  auto sep = [&](char c) { return c == ' ' || c == '\t' || c == '\r' || c == extra; };
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && sep(line[i])) ++i;
    size_t start = i;
    while (i < line.size() && !sep(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// The whole of `s` as a number ("42"; "1.04858e+06", "0.748336" for doubles), or false: no sign
// handling beyond what from_chars takes, nothing left over, bounded length.
inline bool WholeUnsigned(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}
inline bool WholeDouble(std::string_view s, double& out) {
  if (s.empty() || s.size() > 32) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace railyard
