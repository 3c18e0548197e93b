#include "util/input_error.h"

#include "util/suggest.h"

namespace railyard {

std::string UnknownKeyMessage(const std::string& key, const std::vector<std::string>& known) {
  const std::string guess = ClosestMatch(key, known);
  if (!guess.empty()) return "unknown key; did you mean '" + guess + "'?";
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  return "unknown key (known keys: " + list + ")";
}

}  // namespace railyard
