#include "util/csv.h"
#include "util/input_error.h"

#include <cctype>

#include <stdexcept>

#include <fmt/format.h>

namespace railyard {

int CsvTable::Column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

CsvTable ParseCsv(std::string_view text, std::string_view source) {
  CsvTable table;
  size_t pos = 0;
  // A file saved by Excel starts with the UTF-8 byte order mark: it is not part of the first column's name.
  if (text.starts_with("\xEF\xBB\xBF")) pos = 3;
  int line = 1;
  bool have_header = false;
  while (pos < text.size()) {
    // Comment and blank lines are skipped whole.
    if (text[pos] == '#' || text[pos] == '\n' || text[pos] == '\r') {
      size_t eol = text.find('\n', pos);
      pos = eol == std::string_view::npos ? text.size() : eol + 1;
      ++line;
      continue;
    }
    CsvRow row;
    row.line = line;
    std::string field;
    bool in_quotes = false;
    bool done = false;
    while (!done) {
      if (pos >= text.size()) {
        if (in_quotes) throw InputError(std::string(source), row.line, 0, "", "unterminated quoted field");
        row.fields.push_back(std::move(field));
        break;
      }
      char c = text[pos++];
      if (in_quotes) {
        if (c == '"') {
          if (pos < text.size() && text[pos] == '"') {
            field.push_back('"');
            ++pos;
          } else {
            in_quotes = false;
          }
        } else {
          if (c == '\n') ++line;
          field.push_back(c);
        }
        continue;
      }
      switch (c) {
        case '"':
          in_quotes = true;
          break;
        case ',':
          row.fields.push_back(std::move(field));
          field.clear();
          break;
        case '\r':
          break;
        case '\n':
          ++line;
          row.fields.push_back(std::move(field));
          done = true;
          break;
        default:
          field.push_back(c);
      }
    }
    if (!have_header) {
      table.header = std::move(row.fields);
      have_header = true;
      continue;
    }
    if (row.fields.size() != table.header.size()) {
      throw InputError(std::string(source), row.line, 0, "",
                       fmt::format("{} fields, the header has {}", row.fields.size(), table.header.size()));
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string CsvEscape(std::string_view field) {
  // A cell that starts with = + - @ (or a tab or CR) is run as a formula by Excel, LibreOffice and Google
  // Sheets ("CSV injection"): a serial or an LLDP name like `=cmd|' /C calc'!A0` would execute on the
  // desk of whoever opens the file. Such a cell is written with a leading apostrophe, which the
  // spreadsheets show as text (OWASP's advice); a plain number ("-40.5") cannot be a formula and stays.
  std::string neutral;
  if (!field.empty() && (field.front() == '=' || field.front() == '+' || field.front() == '-' || field.front() == '@' ||
                         field.front() == '\t' || field.front() == '\r')) {
    bool number = field.size() > 1 && (field.front() == '-' || field.front() == '+') &&
                  field.find_first_not_of("0123456789.eE-+", 1) == std::string_view::npos &&
                  std::isdigit(static_cast<unsigned char>(field[1]));
    if (!number) {
      neutral = "'" + std::string(field);
      field = neutral;
    }
  }
  bool needs = field.find_first_of(",\"\r\n") != std::string_view::npos ||
               (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!needs) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace railyard
