// Test helpers: an import document and an observation in one line each.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ledger/ledger.h"

namespace railyard::testing {

inline ImportDocument Doc(std::string source, std::string format, std::string fingerprint, std::vector<AssetObservation> obs) {
  ImportDocument d;
  d.source = std::move(source);
  d.format = std::move(format);
  d.fingerprint = std::move(fingerprint);
  d.observations = std::move(obs);
  return d;
}

inline AssetObservation Obs(std::string serial, std::string kind, std::map<std::string, std::string> fields, int line = 1) {
  return {std::move(serial), std::move(kind), std::move(fields), line};
}

}  // namespace railyard::testing
