#include "parse/tabulate.h"

#include <algorithm>

#include "parse/key_value.h"

namespace railyard {

bool IsDashesRow(std::string_view line) {
  return line.find('-') != std::string_view::npos && line.find_first_not_of("- \t\r") == std::string_view::npos;
}

bool TabulateColumns::FromDashes(std::string_view header, std::string_view dashes) {
  if (!IsDashesRow(dashes)) return false;
  spans_.clear();
  names_.clear();
  for (size_t i = 0; i < dashes.size();) {
    if (dashes[i] != '-') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < dashes.size() && dashes[j] == '-') ++j;
    spans_.push_back({i, j});
    i = j;
  }
  for (size_t i = 0; i < spans_.size(); ++i) {
    const size_t from = i == 0 ? 0 : spans_[i - 1].second;
    const size_t to = i + 1 == spans_.size() ? header.size() : spans_[i].second;
    names_.emplace_back(from < header.size() ? TrimView(header.substr(from, std::min(header.size(), to) - from)) : "");
  }
  return true;
}

void TabulateColumns::FromHeader(std::string_view header) {
  spans_.clear();
  names_.clear();
  for (size_t i = 0; i < header.size();) {
    if (header[i] == ' ' || header[i] == '\t') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < header.size() && header[j] != ' ' && header[j] != '\t') ++j;
    spans_.push_back({i, j});
    names_.emplace_back(header.substr(i, j - i));
    i = j;
  }
}

bool TabulateColumns::Has(std::string_view name) const { return std::find(names_.begin(), names_.end(), name) != names_.end(); }

std::string_view TabulateColumns::Cell(std::string_view row, std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] != name) continue;
    const size_t from = i == 0 ? 0 : spans_[i - 1].second;
    const size_t to = i + 1 == spans_.size() ? row.size() : spans_[i].second;
    if (from >= row.size()) return {};
    return TrimView(row.substr(from, std::min(row.size(), to) - from));
  }
  return {};
}

}  // namespace railyard
