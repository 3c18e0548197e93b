// One function for every secret railyard might print or serve: errors, logs and API answers pass
// text through MaskSecrets, so that a PostgreSQL password given in any of the forms libpq takes
// never reaches a terminal, a log or a browser.
#pragma once

#include <string>
#include <string_view>

namespace railyard {

// `text` with every password replaced by ***:
//   postgresql://user:SECRET@host/db         (the URL's user information)
//   postgresql://host/db?password=SECRET&...  (a URL query parameter, also sslpassword)
//   host=h dbname=d password=SECRET           (a keyword conninfo, quoted 'with \' escapes' or not)
// Matching is case-insensitive on the keyword; nothing else in the text changes.
std::string MaskSecrets(std::string_view text);

// True when `db` is a PostgreSQL connection string in either libpq form: a postgresql:// or
// postgres:// URL, or a keyword conninfo ("host=... dbname=..."; its first word is a libpq keyword).
bool IsPostgresConninfo(std::string_view db);

}  // namespace railyard
