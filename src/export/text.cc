#include "export/text.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace railyard {

void JsonEscape(std::string_view text, fmt::memory_buffer& out) {
  for (char c : text) {
    switch (c) {
      case '"': out.append(std::string_view("\\\"")); break;
      case '\\': out.append(std::string_view("\\\\")); break;
      case '\n': out.append(std::string_view("\\n")); break;
      case '\r': out.append(std::string_view("\\r")); break;
      case '\t': out.append(std::string_view("\\t")); break;
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

OutputFile::OutputFile(std::string path) : path_(std::move(path)), temp_path_(path_ + ".tmp") {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (!file_) throw std::runtime_error(fmt::format("{}: cannot write: {}", temp_path_, std::strerror(errno)));
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

}  // namespace railyard
