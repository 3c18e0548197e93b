// The current time in UTC as text: the ledger's event times, the dashboard's load stamp, the
// acceptance report's date. One clock, one format per use.
#pragma once

#include <chrono>
#include <ctime>
#include <string>

namespace railyard {

// ISO 8601 ("2026-12-01T03:51:17Z") unless another strftime format is given.
inline std::string UtcNow(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace railyard
