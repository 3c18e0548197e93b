// A small RFC 4180 CSV reader for railyard's own data files: quoted fields, doubled quotes,
// '#' comment lines before or between records. Rows keep their 1-based line numbers so that
// errors can point at them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace railyard {

struct CsvRow {
  int line = 0;
  std::vector<std::string> fields;
};

struct CsvTable {
  std::vector<std::string> header;
  std::vector<CsvRow> rows;
  // Index of a header column, or -1.
  int Column(std::string_view name) const;
};

// Parses `text`. Throws std::runtime_error("<source>:<line>: ...") on an unterminated quote
// or a row whose field count differs from the header's.
CsvTable ParseCsv(std::string_view text, std::string_view source);

// Quotes a field for CSV output when it needs it (comma, quote, CR/LF, leading/trailing space).
std::string CsvEscape(std::string_view field);

}  // namespace railyard
