// JSON a person or another tool hands railyard (rollout state, a verify result, plan summaries):
// parsed whole with nlohmann, and refused with the file, line and column of the first bad byte.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace railyard {

// Line and column (1-based) of the byte at `offset` in `text` (offsets past the end: the end).
struct TextPlace {
  int line = 1;
  int column = 1;
};
TextPlace PlaceOfOffset(std::string_view text, size_t offset);

// `text` as JSON. Throws InputError(shown, line, column, "", "not JSON: <why>") where the parser
// stopped, e.g. "state/rollout.json:14:3: not JSON: unexpected '}'" (a file cut short points at
// its end).
nlohmann::json ParseJsonInput(std::string_view text, const std::string& shown);
// The file at `path` ("-": standard input) as JSON; InputError when it cannot be read or parsed.
nlohmann::json ReadJsonFile(const std::string& path);

}  // namespace railyard
