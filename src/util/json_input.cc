#include "util/json_input.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/file.h"
#include "util/input_error.h"

namespace railyard {

TextPlace PlaceOfOffset(std::string_view text, size_t offset) {
  const size_t at = std::min(offset, text.size());
  TextPlace place;
  place.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  const size_t line_start = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 == 0
  place.column = static_cast<int>(at - line_start) + 1;
  return place;
}

nlohmann::json ParseJsonInput(std::string_view text, const std::string& shown) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and counts the byte the parser could not take; what() repeats the place in
    // its own words ("[json.exception.parse_error.101] parse error at line 3, column 5: syntax
    // error while parsing value - ..."): keep only the reason.
    std::string why = e.what();
    if (size_t reason = why.find("error while parsing"); reason != std::string::npos) {
      size_t dash = why.find(" - ", reason);
      why = dash == std::string::npos ? why.substr(reason) : why.substr(dash + 3);
    }
    TextPlace place = PlaceOfOffset(text, e.byte > 0 ? e.byte - 1 : 0);
    throw InputError(shown, place.line, place.column, "", "not JSON: " + why);
  }
}

nlohmann::json ReadJsonFile(const std::string& path) { return ParseJsonInput(ReadWholeFile(path), ShownPath(path)); }

}  // namespace railyard
