#include "util/versions.h"

#include <charconv>
#include <system_error>

#include "util/lines.h"
#include "util/text.h"

namespace railyard {

int CompareVersions(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    size_t ei = a.find_first_of(".-_", i), ej = b.find_first_of(".-_", j);
    std::string pa = a.substr(i, ei == std::string::npos ? std::string::npos : ei - i);
    std::string pb = b.substr(j, ej == std::string::npos ? std::string::npos : ej - j);
    long na = 0, nb = 0;
    auto ra = std::from_chars(pa.data(), pa.data() + pa.size(), na);
    auto rb = std::from_chars(pb.data(), pb.data() + pb.size(), nb);
    bool numeric = ra.ec == std::errc() && rb.ec == std::errc() && !pa.empty() && !pb.empty();
    if (numeric && na != nb) return na < nb ? -1 : 1;
    if (!numeric && pa != pb) return pa < pb ? -1 : 1;
    i = ei == std::string::npos ? a.size() : ei + 1;
    j = ej == std::string::npos ? b.size() : ej + 1;
  }
  return 0;
}

bool OsEntryMatches(std::string_view id, std::string_view version_id, std::string_view entry) {
  std::vector<std::string_view> words = SplitWords(entry);
  if (words.empty() || Lower(words[0]) != Lower(id)) return false;
  if (words.size() == 1) return true;
  std::string_view want = words[1];
  return version_id == want ||
         (version_id.starts_with(want) && version_id.size() > want.size() && version_id[want.size()] == '.');
}

}  // namespace railyard
