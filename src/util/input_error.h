// The one error a user's input earns: which file, where in it, which key, and what is wrong. Every
// reader of a file a person writes or a tool printed throws this (or a type derived from it) and the
// CLI turns it into exit code 2 with what() on stderr (anything else that escapes — a full disk, a
// refused lock, a bug — is exit 3: docs/design.md, "Two error channels"):
//   "cluster.yaml:12:5: planes[0].speed: expected a number"   (line and column 1-based; 0 = unknown,
//   left out of the text, as is an empty key). It lives in util, beneath every part, because the
// lowest readers (util/yaml_strict, util/csv) throw it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int column, std::string key, std::string message)
      : std::runtime_error(Format(file, line, column, key, message)),
        file_(std::move(file)),
        line_(line),
        column_(column),
        key_(std::move(key)),
        message_(std::move(message)) {}

  // A message that already names its file and place, from a reader that does not throw InputError
  // yet (its fields stay empty).
  explicit InputError(const std::string& placed_message) : std::runtime_error(placed_message), line_(0), column_(0) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

  static std::string Format(std::string_view file, int line, int column, std::string_view key, std::string_view message) {
    std::string out(file);
    if (line > 0) out += ":" + std::to_string(line);
    if (line > 0 && column > 0) out += ":" + std::to_string(column);
    out += ": ";
    if (!key.empty()) {
      out += key;
      out += ": ";
    }
    out += message;
    return out;
  }

 protected:
  // For a type that lists several errors in what() (SpecError): the first one's fields, its own text.
  InputError(const std::string& text, std::string file, int line, int column, std::string key, std::string message)
      : std::runtime_error(text),
        file_(std::move(file)),
        line_(line),
        column_(column),
        key_(std::move(key)),
        message_(std::move(message)) {}

 private:
  std::string file_;
  int line_;
  int column_;
  std::string key_;
  std::string message_;
};

// An option or argument on the command line that cannot be used as given ("--os: 'junos': nvue, sonic
// or eos", "the rollout has waves 0 to 3; no wave 7"): what the user typed, so exit 2 like a bad file.
// The message names the option itself; there is no file to name.
class UsageError : public InputError {
 public:
  explicit UsageError(const std::string& message) : InputError(message) {}
};

// "unknown key; did you mean 'speed'?" when one known key is a near miss, else the known keys: the one
// wording every YAML reader uses for a key it does not know.
std::string UnknownKeyMessage(const std::string& key, const std::vector<std::string>& known);

}  // namespace railyard
