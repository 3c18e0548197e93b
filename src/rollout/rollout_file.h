// rollout.json read back: `rollout approve`, `status`, `check` and `report` act on a state directory
// that anyone with write access to it may have edited, and what they read goes into file names
// (approvals/, checks/, rollback scripts) and into scripts run as root. Every value is checked here,
// once, against what it is (util/safe_text.h): the schema, each wave's index (its position) and name,
// hosts, drained hosts, devices with their PSIDs, versions, images and digests, switch addresses, the
// skipped devices, and who planned it. A value that fails is an InputError naming the file, the JSON
// pointer and the rule.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace railyard {

// DIR/rollout.json, checked.
nlohmann::json ReadRolloutFile(const std::string& dir);

// The same checks on a rollout.json already parsed; `source` names it in errors.
void CheckRolloutJson(const nlohmann::json& rollout, const std::string& source);

// Who plans or approves, as the two-person rule compares them: leading and trailing white space
// dropped, ASCII letters folded to lower case ("Alice " is alice). "" when nothing is left. Throws
// InputError (naming `what`) for a name with a control, line-breaking or invisible character, which
// could make one person look like two. (Unicode case folding and NFKC are not applied: a name in
// another script is compared as written.)
std::string NormalizedApprover(std::string_view name, const std::string& what);

// "wave-03-rolling-2": the name of a wave's files (scripts, checks, approvals).
std::string WaveFileName(uint32_t index, const std::string& name);

}  // namespace railyard
