// railyard ledger import|show|history|list|check [--db railyard.db]
#include <unistd.h>

#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "ledger/authenticity.h"
#include "ledger/labels.h"
#include "ledger/ledger.h"
#include "ledger/listing.h"
#include "ledger/observe.h"
#include "model/schemas.h"
#include "util/csv.h"
#include "util/terminal.h"

namespace railyard::cli {

namespace {

struct LedgerArgs {
  std::string db = "railyard.db";
  std::vector<std::string> files;
  std::string format;
  std::string batch;
  std::string actor;
  bool allow_unknown_opn = false;
  std::string serial;
  std::string output = "table";
  std::string fail_on = "error";
  std::string plan;
  std::string state = "accepted";
  std::string list_batch, list_kind, list_state;
  bool list_csv = false;
};

// Each document is one transaction: an error stops at that document (named, with its line), the ones
// before it are in.
int RunImport(const LedgerArgs& a, LedgerStore& ledger) {
  std::string actor = a.actor;
  if (actor.empty()) actor = std::getenv("USER") ? std::getenv("USER") : "unknown";
  ImportOptions options{a.format, a.batch, a.allow_unknown_opn};
  for (const std::string& f : a.files) {
    ImportStream d = OpenImport(f, options, ledger);
    if (!d.already_imported.empty()) {
      std::cout << fmt::format("{}: already imported ({}): nothing changed\n", d.source, d.already_imported);
      continue;
    }
    if (CurrentVerbosity() != Verbosity::kQuiet && ::isatty(STDERR_FILENO)) {
      // Progress on a terminal, quiet when piped or with -q: a count every 5,000 assets.
      d.produce = [inner = std::move(d.produce), source = d.source](const ObservationSink& sink) {
        uint64_t n = 0;
        inner([&](const AssetObservation& o) {
          sink(o);
          if (++n % 5000 == 0) {
            // Written to the fd: the carriage return is ours, the source name made terminal-safe.
            std::string line = fmt::format("\r{}: {} assets…", TerminalSafe(source), n);
            std::cerr << std::flush;
            (void)!::write(STDERR_FILENO, line.data(), line.size());
          }
        });
        if (n >= 5000) {
          std::cerr << std::flush;
          (void)!::write(STDERR_FILENO, "\r\033[K", 4);  // our own erase-line, past the terminal filter
        }
      };
    }
    ImportResult r = ledger.ImportFrom(d, actor);
    if (r.already_imported) {  // another importer got there between the two looks
      std::cout << fmt::format("{}: already imported ({}): nothing changed\n", d.source, r.previous);
      continue;
    }
    if (r.assets_seen == 0) {
      // Nothing was recorded: a wrong --as or a capture without serials is an input error, not an import.
      std::cerr << fmt::format(
          "railyard: error: {}: no card, cable or module with a serial number in it as {} (a wrong "
          "--as? lspci VPD needs root: collect as root); nothing was recorded\n",
          d.source, d.format);
      return kExitInput;
    }
    std::cout << fmt::format("{}: {} assets ({} new), {} field changes", d.source, r.assets_seen, r.assets_new, r.events);
    if (r.documents_unchanged > 0) {
      std::cout << fmt::format("; {} of {} documents unchanged since the last import, not read again", r.documents_unchanged,
                               r.documents_unchanged + r.documents_read);
    }
    std::cout << "\n";
  }
  return kExitOk;
}

int RunShow(const LedgerArgs& a, const LedgerStore& ledger) {
  std::optional<Asset> asset = ledger.Get(a.serial);
  if (!asset) {
    std::cerr << fmt::format("railyard: error: {}: no such serial in {}\n", a.serial, a.db);
    return kExitInput;
  }
  std::cout << AssetText(*asset);
  return kExitOk;
}

int RunHistory(const LedgerArgs& a, const LedgerStore& ledger) {
  std::vector<LedgerEvent> events = ledger.History(a.serial);
  if (events.empty()) {
    std::cerr << fmt::format("railyard: error: {}: no such serial in {}\n", a.serial, a.db);
    return kExitInput;
  }
  std::cout << HistoryText(events);
  return kExitOk;
}

int RunLabels(const LedgerArgs& a, const LedgerStore& ledger) {
  std::unique_ptr<PlannedFabric> plan;
  if (!a.plan.empty()) plan = std::make_unique<PlannedFabric>(LoadPlanNoting(a.plan));
  std::vector<LabelledCable> found = LabelledCables(ledger, plan.get(), a.state);
  std::cout << LabelledCablesCsv(found);
  bool mismatch = false;
  for (const LabelledCable& c : found) mismatch = mismatch || c.status == "part-mismatch" || c.status == "not-in-plan";
  return mismatch ? kExitFindings : kExitOk;
}

int RunCheck(const LedgerArgs& a, const LedgerStore& ledger) {
  std::vector<AuthenticityFinding> found = CheckLedger(ledger);
  std::cout << AuthenticityRender(found, *ParseFindingsFormat(a.output));
  Severity threshold = *ParseSeverity(a.fail_on);
  bool fail =
      std::any_of(found.begin(), found.end(), [&](const AuthenticityFinding& f) { return f.finding.severity >= threshold; });
  return fail ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> AddLedgerCommand(CLI::App& app) {
  auto a = std::make_shared<LedgerArgs>();
  CLI::App* cmd = app.add_subcommand("ledger", "Inventory ledger: every NIC, cable and transceiver by serial, and its history");
  cmd->add_option("--db", a->db, "the ledger: a SQLite file (created by import when missing) or postgresql://user@host:port/db")
      ->envname("RAILYARD_DB");
  cmd->require_subcommand(1);
  cmd->footer(
      "Examples:\n"
      "  railyard ledger import receiving-po4711.csv --batch B2026-11\n"
      "  railyard ledger import facts/ captures/gpu042/        # HostFacts, NDJSON or a capture directory\n"
      "  railyard ledger history MT2419X00042\n"
      "  railyard ledger check --format json");
  CLI::App* import =
      cmd->add_subcommand("import", "import documents (each one transaction; the same document twice changes nothing)");
  import
      ->add_option("FILES", a->files,
                   "receiving CSV, label audit CSV, HostFacts JSON/NDJSON, capture directory, lspci -vvv, flint q, ethtool -m")
      ->required();
  import->add_option("--as", a->format,
                     "the documents' format when it cannot be told: receiving-csv, label-audit, facts, capture, lspci, flint, "
                     "mlxfwmanager, ethtool-m");
  import->add_option("--batch", a->batch, "batch / delivery to stamp on every asset");
  import->add_option("--actor", a->actor, "who imports (default: $USER)");
  import->add_flag("--allow-unknown-opn", a->allow_unknown_opn, "accept OPNs the catalog does not know");
  CLI::App* show = cmd->add_subcommand("show", "an asset's current state");
  show->add_option("SERIAL", a->serial)->required();
  CLI::App* history = cmd->add_subcommand("history", "every event of an asset, oldest first");
  history->add_option("SERIAL", a->serial)->required();
  CLI::App* list = cmd->add_subcommand("list", "every asset: serial, kind, OPN, batch, state, location");
  list->add_option("--batch", a->list_batch, "only this batch");
  list->add_option("--kind", a->list_kind, "only nic, cable, transceiver or switch");
  list->add_option("--state", a->list_state, "only this acceptance state");
  list->add_flag("--csv", a->list_csv, "CSV instead of a table");
  CLI::App* check = cmd->add_subcommand("check", "authenticity checks over every asset");
  check->add_option("--format", a->output, "table (default), json, csv, junit or prometheus")
      ->check(CLI::IsMember(FindingsFormatNames()));
  check->add_option("--fail-on", a->fail_on, "exit 1 when a finding reaches: info, warning or error")
      ->check(CLI::IsMember({"info", "warning", "error"}));
  CLI::App* labels = cmd->add_subcommand("labels", "cable labels of the cables in a state, checked against the plan (CSV)");
  labels->add_option("--plan", a->plan, "plan.json: each label's ends and the planned part");
  labels->add_option("--state", a->state, "only assets in this state (default accepted; \"\" for all)");
  return [a, import, show, history, list, check, labels] {
    // Only import writes; every other verb reads (read-only: a mistyped --db is an error, not a new ledger).
    LedgerAccess access = import->parsed()  ? LedgerAccess::kWrite
                          : check->parsed() ? LedgerAccess::kReadFull
                                            : LedgerAccess::kRead;
    std::unique_ptr<LedgerStore> ledger = OpenLedger(a->db, access);
    if (import->parsed()) return RunImport(*a, *ledger);
    if (show->parsed()) return RunShow(*a, *ledger);
    if (history->parsed()) return RunHistory(*a, *ledger);
    if (list->parsed()) {
      std::cout << AssetListing(*ledger, {a->list_batch, a->list_kind, a->list_state}, a->list_csv);
      return kExitOk;
    }
    if (labels->parsed()) return RunLabels(*a, *ledger);
    if (check->parsed()) return RunCheck(*a, *ledger);
    return kExitInput;
  };
}

}  // namespace railyard::cli
