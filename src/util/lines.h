// Walks text line by line with 1-based line numbers, without copying. A trailing '\r' is
// dropped (CRLF files); the last line need not end in '\n'.
#pragma once

#include <string_view>

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

}  // namespace railyard
