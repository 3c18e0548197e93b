// Cable labels from the ledger: which physical cable (by serial) carries which planned label,
// from scanned label audits; printed for the accepted cables and checked against the plan
// (the part installed is the part planned).
#pragma once

#include <string>
#include <vector>

#include "ledger/ledger.h"
#include "planfile/planned.h"

namespace railyard {

struct LabelledCable {
  std::string serial;
  std::string opn;
  std::string state;
  std::string label;         // "" when no audit assigned one
  std::string a_end, z_end;  // "device port" from the plan
  std::string planned_part;  // the plan's OPN for this cable or transceiver
  double length_m = 0;
  std::string status;  // ok | unassigned | not-in-plan | part-mismatch | no-plan
};

// Cables and transceivers in `state` ("" = any), with their labels, checked against `plan`
// (nullptr: no plan, status no-plan).
std::vector<LabelledCable> LabelledCables(const LedgerStore& ledger, const PlannedFabric* plan, const std::string& state);

std::string LabelledCablesCsv(const std::vector<LabelledCable>& labels);

}  // namespace railyard
