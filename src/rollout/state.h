// The rollout written out (`rollout plan -o STATE_DIR`): rollout.json, and per wave the scripts that
// do it with the real tools, its ClusterShell nodeset, and an Ansible inventory group.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rollout/waves.h"

namespace railyard {

// rollout.json (schema railyard.rollout/1), formatted straight into text: at 100,000 devices a JSON
// tree would cost more memory than the whole plan.
std::string RolloutJsonText(const RolloutPlan& plan, const RolloutTarget& target, const RolloutPolicy& policy,
                            const std::string& planned_by = "");

// Where a rollout stands, from its state directory: per wave done (its last check passed), halted
// (it failed), waiting-for-approval (next, and the policy wants a second person), ready (next), or
// pending. Read from rollout.json, checks/ and approvals/: resumable after any interruption.
struct WaveStatus {
  uint32_t index = 0;
  std::string name, state, detail;
};
std::vector<WaveStatus> RolloutStatus(const std::string& dir);
// The same for a rollout.json already read and checked (ReadRolloutFile): a verb that needs both reads it once.
std::vector<WaveStatus> RolloutStatus(const std::string& dir, const nlohmann::json& rollout);

// Records an approval of wave N by `by` in approvals/. Throws when the policy wants two people and
// `by` planned the rollout, or the wave does not exist.
void ApproveWave(const std::string& dir, uint32_t wave, const std::string& by);

// The whole rollout for the record: one row per device (wave, host, device, PSID, from, to, the wave's
// state and approval), as CSV, or as one self-contained HTML page (no script, no external file).
std::string RolloutReportCsv(const std::string& dir);
std::string RolloutReportHtml(const std::string& dir);

// The rollout as `rollout plan` prints it: hosts and devices, one row per wave, what was held back and
// the findings.
std::string RolloutPlanTable(const RolloutPlan& plan, size_t hosts);
// `rollout status`: one row per wave.
std::string RolloutStatusTable(const std::vector<WaveStatus>& waves);

// Records a check result (the `rollout check` JSON) in checks/.
void RecordCheck(const std::string& dir, const std::string& wave_name, const std::string& json);

// Writes the whole set atomically (all files or none under their final names), with the facts the
// rollout was planned from (each input file, or each *.json and *.ndjson of an input directory; "-" the
// standard input, read once) in facts-before/. rollout.json is renamed into place last: a state
// directory that has one has every script and the facts it was planned from, even after a kill -9.
// Returns the names.
std::vector<std::string> WriteRolloutState(const RolloutPlan& plan, const RolloutTarget& target, const RolloutPolicy& policy,
                                           const std::string& dir, const std::string& planned_by = "",
                                           const std::vector<std::string>& facts_before = {});

// Held by every command that writes a state directory (`rollout plan -o`, `check`, `approve`): an
// exclusive flock(2) on the directory itself (no lock file), so writers take turns. Once it is held,
// the temporaries a writer killed mid-write left behind (OutputFile's ".NAME.XXXXXX" in the directory,
// checks/, approvals/ and facts-before/) are removed: no live writer can own one. Creates `dir` when
// missing. Throws std::runtime_error when the directory cannot be opened or locked.
class StateDirLock {
 public:
  explicit StateDirLock(const std::string& dir);
  ~StateDirLock();
  StateDirLock(const StateDirLock&) = delete;
  StateDirLock& operator=(const StateDirLock&) = delete;

 private:
  int fd_ = -1;
};

// Before a plan is written into `dir`: a directory that holds a rollout already (rollout.json, checks,
// approvals, wave scripts) is refused, naming what is there, unless `replace`, when all of it is
// moved into DIR/superseded-<UTC time>/ first (checks and approvals of the old waves never count for
// the new ones), rollout.json first. What a plan killed before its rollout.json left (wave scripts,
// no rollout.json, no check or approval) is removed. Returns what was done, for the user ("" when
// nothing was there).
std::string PrepareStateDir(const std::string& dir, bool replace);

// The script run on each host of a wave: for each of its devices, refuse a PSID the image is not
// for, check the image's sha256, burn with mlxfwmanager, reset at the level mlxfwreset allows (or
// flag a reboot), and check the running version. A device already at target is left alone.
std::string HostScript(const RolloutWave& wave);

// The script of a switch wave, run from an admin host over ssh (NVOS): one switch after another,
// refusing an image of another family, checking the sha256, and waiting until the switch runs it.
std::string SwitchScript(const RolloutWave& wave);

}  // namespace railyard
