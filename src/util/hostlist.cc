#include "util/hostlist.h"
#include "util/input_error.h"

#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace railyard {
namespace {

// One comma-separated part ("node[001-004,7]x"): each name it stands for, appended to `out`.
void ExpandPart(std::string_view part, std::string_view expression, size_t limit, std::vector<std::string>& out) {
  auto fail = [&](const std::string& why) { throw InputError(fmt::format("host list '{}': {}", expression, why)); };
  const size_t open = part.find('[');
  if (open == std::string_view::npos) {
    if (part.find(']') != std::string_view::npos) fail("a ']' without its '['");
    if (part.empty()) fail("an empty name");
    out.emplace_back(part);
    return;
  }
  const size_t close = part.find(']', open);
  if (close == std::string_view::npos) fail("a '[' without its ']'");
  const std::string_view prefix = part.substr(0, open), ranges = part.substr(open + 1, close - open - 1);
  const std::string_view rest = part.substr(close + 1);
  // The names the rest stands for (it may have brackets of its own: rack[1-2]n[1-4]).
  std::vector<std::string> tails;
  if (rest.empty()) {
    tails.emplace_back();
  } else {
    ExpandPart(rest, expression, limit, tails);
  }
  for (size_t start = 0; start <= ranges.size();) {
    size_t comma = ranges.find(',', start);
    std::string_view range = ranges.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const size_t dash = range.find('-');
    std::string_view lo = range.substr(0, dash), hi = dash == std::string_view::npos ? lo : range.substr(dash + 1);
    auto digits = [](std::string_view s) {
      if (s.empty() || s.size() > 9) return false;
      for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      }
      return true;
    };
    if (!digits(lo) || !digits(hi)) fail(fmt::format("'{}' is not a number or a range of numbers", range));
    const unsigned long first = std::stoul(std::string(lo)), last = std::stoul(std::string(hi));
    if (last < first) fail(fmt::format("the range '{}' runs backwards", range));
    const size_t width = lo.size() > 1 && lo[0] == '0' ? lo.size() : 0;  // zero padding as written
    if ((last - first + 1) * tails.size() > limit - std::min(limit, out.size())) fail(fmt::format("more than {} names", limit));
    for (unsigned long n = first; n <= last; ++n) {
      for (const std::string& tail : tails) out.push_back(fmt::format("{}{:0{}}{}", prefix, n, width, tail));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

}  // namespace

std::vector<std::string> ExpandHostlist(std::string_view expression, size_t limit) {
  std::vector<std::string> out;
  // Split on the commas outside brackets.
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= expression.size(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') {
      if (++depth > 1) throw InputError(fmt::format("host list '{}': a '[' inside brackets", expression));
    } else if (c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      std::string_view part = expression.substr(start, i - start);
      while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front()))) part.remove_prefix(1);
      while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back()))) part.remove_suffix(1);
      ExpandPart(part, expression, limit, out);
      start = i + 1;
    }
  }
  if (depth != 0) throw InputError(fmt::format("host list '{}': a '[' without its ']'", expression));
  return out;
}

namespace {

// Splits "node012" into ("node", "012").
std::pair<std::string_view, std::string_view> SplitNumber(std::string_view name) {
  size_t end = name.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
  return {name.substr(0, end), name.substr(end)};
}

}  // namespace

std::string CompressHostlist(const std::vector<std::string>& names) {
  std::string out;
  size_t i = 0;
  while (i < names.size()) {
    auto [prefix, digits] = SplitNumber(names[i]);
    if (digits.empty()) {
      out += (out.empty() ? "" : ",") + names[i];
      ++i;
      continue;
    }
    // Collect a run of the same prefix and width; fold consecutive numbers into ranges.
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    size_t j = i;
    while (j < names.size()) {
      auto [p, d] = SplitNumber(names[j]);
      if (p != prefix || d.size() != digits.size()) break;
      uint64_t n = std::stoull(std::string(d));
      if (!ranges.empty() && ranges.back().second + 1 == n)
        ranges.back().second = n;
      else
        ranges.emplace_back(n, n);
      ++j;
    }
    std::string body;
    for (auto [lo, hi] : ranges) {
      if (!body.empty()) body += ",";
      body += lo == hi ? fmt::format("{:0{}}", lo, digits.size())
                       : fmt::format("{:0{}}-{:0{}}", lo, digits.size(), hi, digits.size());
    }
    bool single = ranges.size() == 1 && ranges[0].first == ranges[0].second;
    out += (out.empty() ? "" : ",") + (single ? std::string(prefix) + body : fmt::format("{}[{}]", prefix, body));
    i = j;
  }
  return out;
}

}  // namespace railyard
