// Authenticity checks over the ledger ("railyard ledger check"): is each card and cable what it
// claims to be? Each finding has a stable rule id, the evidence, and a confidence (H/M/L) carried
// from ../shared/reference/catalog.md: heuristics say so.
#pragma once

#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "model/finding.h"

namespace railyard {

struct AuthenticityFinding {
  Finding finding;          // rule, severity, host = the serial, object = the asset kind and OPN
  std::string confidence;   // H | M | L
};

struct AuthenticityRule {
  const char* id;
  Severity severity;
  const char* confidence;
  const char* summary;
};
const std::vector<AuthenticityRule>& AuthenticityRules();

// Checks one asset on its own.
std::vector<AuthenticityFinding> CheckAsset(const Asset& asset);

// Checks every asset of a ledger, plus identities shared between assets (duplicate-identity).
std::vector<AuthenticityFinding> CheckLedger(const LedgerStore& ledger);

}  // namespace railyard
