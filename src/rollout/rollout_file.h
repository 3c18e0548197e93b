// rollout.json read back: `rollout approve`, `status`, `check` and `report` act on a state directory
// that anyone with write access to it may have edited, and what they read goes into file names
// (approvals/, checks/, rollback scripts) and into scripts run as root. Every value is checked here,
// once, against what it is (util/safe_text.h): the schema, each wave's index (its position) and name,
// hosts, drained hosts, devices with their PSIDs, versions, images and digests, switch addresses, the
// skipped devices, and who planned it. A value that fails is an InputError naming the file, the JSON
// pointer and the rule.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace railyard {

// DIR/rollout.json, checked.
nlohmann::json ReadRolloutFile(const std::string& dir);

// The same checks on a rollout.json already parsed; `source` names it in errors.
void CheckRolloutJson(const nlohmann::json& rollout, const std::string& source);

// Who plans or approves, as the two-person rule compares them: Unicode NFKC with case folding
// (utf8proc's NFKC_Casefold, as identifiers are compared by UAX #31: "Alice", "ALICE" and the
// full-width "ａｌｉｃｅ" are one person), then leading and trailing white space dropped. "" when nothing
// is left. Throws InputError (naming `what`) for a name that is not UTF-8 or has a control,
// line-breaking or invisible character (zero-width, bidirectional), which could make one person look
// like two.
std::string NormalizedApprover(std::string_view name, const std::string& what);

// "wave-03-rolling-2": the name of a wave's files (scripts, checks, approvals).
std::string WaveFileName(uint32_t index, const std::string& name);

}  // namespace railyard
