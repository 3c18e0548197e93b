// `railyard verify` end to end: the plan and every capture read, judged and reported, as one call. At
// 100,000 GPUs the LLDP captures are hundreds of thousands of small files: two threads share them,
// one first loading the plan, and each file's records are judged as soon as the plan is ready and
// every file before it has been (a fixed order: the result never depends on thread timing), then
// freed, so the ~600,000 neighbour records are never all held at once.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "verify/verify.h"

namespace railyard {

struct VerifyInputs {
  std::string plan = {};                        // plan.json (its plan.index used while it matches)
  std::vector<std::string> lldp = {};           // lldpctl output in any form: FILE, DEVICE=FILE or a directory
  std::vector<std::string> switch_lldp = {};    // switch LLDP tables (Arista, Cumulus, SONiC), the same way
  std::vector<std::string> ibnetdiscover = {};  // files, "-" for standard input
  std::vector<std::string> iblinkinfo = {};
  std::string names = {};         // CSV name map
  std::string ibdev2netdev = {};  // directory of HOST.txt ibdev2netdev outputs
  std::string labels = {};        // label audit CSV
  VerifyOptions options = {};
};

struct VerifyRun {
  VerifyResult result;
  size_t plan_devices = 0, plan_links = 0;
  size_t lldp_captures = 0;      // files read from --lldp and --switch-lldp
  size_t reporting_devices = 0;  // devices whose LLDP capture was read whole
  size_t label_scans = 0;
};

// What is said on the way, as it happens: a capture's line that could not be read (`warn`), and a
// stale or damaged plan.index passed over for plan.json (`note`).
struct VerifyMessages {
  std::function<void(const std::string&)> warn = nullptr;
  std::function<void(const std::string&)> note = nullptr;
};

// Throws UsageError when nothing observed was given or a --plane names no plane, InputError (naming
// file and line) for a capture, plan or map that cannot be read, std::runtime_error for I/O.
VerifyRun RunVerify(const VerifyInputs& inputs, const VerifyMessages& messages);

// "DEVICE=PATH" names the device a capture was taken on; otherwise the file name up to its first '.'
// does ("leaf01.json" was taken on leaf01). A directory is every file in it, in name order.
std::vector<std::pair<std::string, std::string>> CapturesByDevice(const std::vector<std::string>& args);

}  // namespace railyard
