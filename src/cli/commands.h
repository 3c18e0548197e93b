// One function per verb: each registers its subcommand and options, and runs it.
#pragma once

#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "catalog/catalog.h"
#include "planfile/planned.h"
#include "util/input_error.h"
#include "util/secret_mask.h"

namespace railyard::cli {

// Exit codes scripts rely on.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // findings at or above --fail-on
inline constexpr int kExitInput = 2;     // usage or input error: an InputError (util/input_error.h)
inline constexpr int kExitFailure = 3;   // anything else: I/O (a full disk, an unwritable output), a held lock, a bug

// An existing file, or "-" for standard input (for options whose reader takes "-": util/file.h).
inline const CLI::Validator kFileOrStdin([](std::string& path) { return path == "-" ? std::string() : CLI::ExistingFile(path); },
                                         "FILE|-");

// Options shared by `plan` and `check`: checking is planning without writing outputs, since
// the checks need the planned fabric.
struct PlanOptions {
  std::string spec;
  std::string out_dir;
  std::string format = "table";
  std::string fail_on = "error";
  bool force = false;       // write a plan with error findings, every file stamped not for ordering
  std::string catalog_dir;  // --catalog DIR / RAILYARD_CATALOG: a site's rows over the embedded catalog
};

// The embedded catalog, or it with a site catalog laid over (`--catalog DIR`). Throws on bad rows.
const Catalog& CatalogFor(const std::string& site_dir);
// SPEC, --catalog, --format and --fail-on; `check` offers every findings format, `plan` table or json.
void AddSpecOptions(CLI::App* cmd, PlanOptions& options, bool check_only);
int RunPlan(const PlanOptions& options, bool check_only);

// Reads a plan for verify, doctor and ledger; says on stderr when a stale or damaged plan.index was
// passed over for plan.json (the run is slower, and plan.json changed after `railyard plan`).
inline PlannedFabric LoadPlanNoting(const std::string& path, bool with_addresses = false) {
  PlannedFabric plan = LoadPlannedFabric(path, with_addresses);
  if (!plan.index_note.empty()) std::cerr << "railyard: note: " << plan.index_note << "\n";
  return plan;
}

// A sub-verb (`rollout check`, `burnin bisect`) registers its options and returns its runner, which
// gives an exit code when that sub-verb was the one given, nothing otherwise.
using SubVerb = std::function<std::optional<int>()>;
// The exit code of the sub-verb that ran (kExitInput when none did).
inline std::function<int()> RunWhicheverRan(std::vector<SubVerb> verbs) {
  return [verbs = std::move(verbs)]() -> int {
    for (const SubVerb& v : verbs) {
      if (std::optional<int> exit = v()) return *exit;
    }
    return kExitInput;
  };
}
// `railyard: error: WHAT` on stderr, every password in it masked (util/secret_mask): the one way an
// error reaches the terminal.
inline void PrintError(std::string_view what) { std::cerr << "railyard: error: " << MaskSecrets(what) << "\n"; }
// Runs `body`; what it throws is printed as `railyard: error: …` and the exit code says which of the
// two channels it came by: kExitInput for an InputError (what a user wrote or a tool printed: fix the
// input), kExitFailure for everything else (I/O, a lock, an internal error: the input may be fine).
// main() runs every command through it: the one catch in the CLI.
int ReportingErrors(const std::function<int()>& body);

// Registers the verb on `app`; the returned function runs it when the verb was chosen.
std::function<int()> AddPlanCommand(CLI::App& app);
std::function<int()> AddCheckCommand(CLI::App& app);
std::function<int()> AddAdviseCommand(CLI::App& app);
std::function<int()> AddCatalogCommand(CLI::App& app);
std::function<int()> AddVerifyCommand(CLI::App& app);
std::function<int()> AddCollectCommand(CLI::App& app);
std::function<int()> AddDoctorCommand(CLI::App& app);
std::function<int()> AddLedgerCommand(CLI::App& app);
std::function<int()> AddAcceptCommand(CLI::App& app);
std::function<int()> AddRolloutCommand(CLI::App& app);
std::function<int()> AddConfigCommand(CLI::App& app);
std::function<int()> AddBurninCommand(CLI::App& app);
std::function<int()> AddServeCommand(CLI::App& app);
// Registered last: it walks the tree the others built.
std::function<int()> AddCompletionCommand(CLI::App& app);
// The bash completion script for `app`'s verbs, sub-verbs and options.
std::string BashCompletion(CLI::App& app);

}  // namespace railyard::cli
