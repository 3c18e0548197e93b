// Runs a tool the way the live collector needs: argv only (never a shell), stdout captured,
// stderr discarded, killed after a timeout.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace railyard {

struct RunResult {
  bool started = false;  // false: not installed (not on PATH) or could not be spawned
  bool timed_out = false;
  int exit_code = -1;
  std::string output;
};

RunResult RunTool(const std::vector<std::string>& argv, int timeout_ms);

// True when `name` is an executable on PATH.
bool OnPath(const std::string& name);

}  // namespace railyard
