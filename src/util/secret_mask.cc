#include "util/secret_mask.h"

#include <array>
#include <cctype>

namespace railyard {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool StartsWithNoCase(std::string_view text, size_t at, std::string_view word) {
  if (text.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (Lower(text[at + i]) != word[i]) return false;
  return true;
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string MaskSecrets(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // scheme://user:SECRET@ — the password runs from the colon after the user to the last '@'
    // before the host part ends (a password may itself hold '@' when percent-encoding was skipped).
    if (text.compare(i, 3, "://") == 0) {
      size_t end = i + 3;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '/' && text[end] != '?' &&
             text[end] != '#' && text[end] != '\'' && text[end] != '"')
        ++end;
      const std::string_view authority = text.substr(i + 3, end - i - 3);
      const size_t at = authority.rfind('@'), colon = authority.find(':');
      out.append("://");
      if (at != std::string_view::npos && colon != std::string_view::npos && colon < at) {
        out.append(authority.substr(0, colon)).append(":***").append(authority.substr(at));
      } else {
        out.append(authority);
      }
      i = end;
      continue;
    }
    // password=SECRET or sslpassword=SECRET as a query parameter or a conninfo keyword.
    const bool boundary = i == 0 || !IsWordChar(text[i - 1]);
    for (std::string_view keyword : {std::string_view("sslpassword"), std::string_view("password")}) {
      if (!boundary || !StartsWithNoCase(text, i, keyword)) continue;
      size_t eq = i + keyword.size();
      while (eq < text.size() && text[eq] == ' ') ++eq;
      if (eq >= text.size() || text[eq] != '=') continue;
      size_t v = eq + 1;
      while (v < text.size() && text[v] == ' ') ++v;
      size_t end = v;
      if (v < text.size() && text[v] == '\'') {  // conninfo quoting: backslash escapes, a quote ends it
        end = v + 1;
        while (end < text.size() && text[end] != '\'') end += text[end] == '\\' ? 2 : 1;
        end = std::min(end + 1, text.size());
      } else {
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '&' &&
               text[end] != '#' && text[end] != '"')
          ++end;
      }
      out.append(text.substr(i, eq + 1 - i)).append("***");
      i = end;
      goto next;
    }
    out.push_back(text[i++]);
  next:;
  }
  return out;
}

bool IsPostgresConninfo(std::string_view db) {
  if (db.starts_with("postgresql://") || db.starts_with("postgres://")) return true;
  // libpq's connection keywords (libpq documentation, "Parameter Key Words"); a SQLite file name
  // that begins with one of these followed by '=' is not a name anyone gives a ledger.
  static constexpr std::array<std::string_view, 16> kKeywords = {"host",
                                                                 "hostaddr",
                                                                 "port",
                                                                 "dbname",
                                                                 "user",
                                                                 "password",
                                                                 "passfile",
                                                                 "service",
                                                                 "sslmode",
                                                                 "sslcert",
                                                                 "sslkey",
                                                                 "sslrootcert",
                                                                 "connect_timeout",
                                                                 "application_name",
                                                                 "options",
                                                                 "target_session_attrs"};
  size_t start = 0;
  while (start < db.size() && db[start] == ' ') ++start;
  size_t end = start;
  while (end < db.size() && IsWordChar(db[end])) ++end;
  size_t eq = end;
  while (eq < db.size() && db[eq] == ' ') ++eq;
  if (eq >= db.size() || db[eq] != '=') return false;
  const std::string_view word = db.substr(start, end - start);
  for (std::string_view k : kKeywords)
    if (word == k) return true;
  return false;
}

}  // namespace railyard
