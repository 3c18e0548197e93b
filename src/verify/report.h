// What `railyard verify` prints: a table for people, JSON (schema railyard.verify/1) and CSV
// for scripts.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "verify/verify.h"

namespace railyard {

nlohmann::json VerifyJson(const VerifyResult& result);
std::string VerifyTable(const VerifyResult& result);
std::string VerifyCsv(const VerifyResult& result);

}  // namespace railyard
