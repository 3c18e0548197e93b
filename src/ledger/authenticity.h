// Authenticity checks over the ledger ("railyard ledger check"): is each card and cable what it
// claims to be? Each finding has a stable rule id, the evidence, and a confidence (H/M/L) carried
// from ../shared/reference/catalog.md: heuristics say so.
#pragma once

#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "model/finding.h"
#include "model/findings_formats.h"

namespace railyard {

struct AuthenticityFinding {
  Finding finding;         // rule, severity, host = the serial, object = the asset kind and OPN
  std::string confidence;  // H | M | L
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

// The findings for the shared renderers, the confidence as the last evidence ("confidence: M").
std::vector<Finding> AuthenticityFindings(const std::vector<AuthenticityFinding>& found);
// Every authenticity rule, as the rules run; no hosts (the subjects are serials).
FindingsScope AuthenticityScope();
// railyard.authenticity/1: each finding with "serial" (the asset) and "confidence".
std::string AuthenticityJson(const std::vector<AuthenticityFinding>& found);
// JSON as AuthenticityJson, the table as the findings then "N findings", else the shared forms.
std::string AuthenticityRender(const std::vector<AuthenticityFinding>& found, FindingsFormat format);

}  // namespace railyard
