// railyard accept run|report|set [--db railyard.db]
#include <ctime>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "ledger/acceptance.h"
#include "ledger/ledger.h"
#include "util/output_file.h"
#include "util/utc_time.h"

namespace railyard::cli {
namespace {

std::string Now() { return UtcNow("%Y-%m-%d %H:%M UTC"); }

struct AcceptArgs {
  std::string db = "railyard.db";
  std::string policy;
  std::string batch;
  std::string actor;
  std::string csv;
  std::string html;
  std::string serial;
  std::string state;
  std::string reason;
};

int RunVerdicts(LedgerStore& ledger, const AcceptancePolicy& policy, const AcceptArgs& a, const std::string& actor) {
  std::vector<AcceptanceVerdict> verdicts = RunAcceptance(ledger, policy, a.batch, actor);
  std::map<std::string, size_t> counts;
  size_t moved = 0;
  for (const AcceptanceVerdict& v : verdicts) {
    ++counts[v.to];
    moved += v.to != v.from;
  }
  std::cout << fmt::format("{} assets, {} changed state:", verdicts.size(), moved);
  for (const char* s : kAcceptanceStates) {
    if (counts[s]) std::cout << fmt::format(" {} {}", counts[s], s);
  }
  std::cout << "\n";
  return counts["rejected"] ? kExitFindings : kExitOk;
}

// Both outputs or neither: each is written to its temporary file first, then the pair is committed.
int WriteReport(const LedgerStore& ledger, const AcceptancePolicy& policy, const AcceptArgs& a) {
  const std::vector<AcceptanceVerdict> verdicts = RecordedVerdicts(ledger, policy, a.batch);
  if (a.csv.empty() && a.html.empty()) {
    std::cout << AcceptanceCsv(verdicts);
    return kExitOk;
  }
  std::vector<std::unique_ptr<OutputFile>> outputs;
  if (!a.csv.empty()) outputs.emplace_back(std::make_unique<OutputFile>(a.csv))->Append(AcceptanceCsv(verdicts));
  if (!a.html.empty())
    outputs.emplace_back(std::make_unique<OutputFile>(a.html))->Append(AcceptanceHtml(verdicts, a.batch, Now()));
  std::vector<OutputFile*> set;
  for (auto& o : outputs) set.push_back(o.get());
  CommitAll(set);
  return kExitOk;
}

int SetByHand(LedgerStore& ledger, const AcceptArgs& a, const std::string& actor) {
  std::optional<Asset> asset = ledger.Get(a.serial);
  if (!asset) throw UsageError(fmt::format("{}: no such serial in {}", a.serial, a.db));
  ledger.Record({{a.serial, asset->kind, {{"state", a.state}, {"state.reasons", a.reason}}, 0}}, actor, "railyard accept set");
  std::cout << fmt::format("{}: {}\n", a.serial, a.state);
  return kExitOk;
}

}  // namespace

std::function<int()> AddAcceptCommand(CLI::App& app) {
  auto a = std::make_shared<AcceptArgs>();
  CLI::App* cmd =
      app.add_subcommand("accept", "Acceptance: move assets through identity, firmware and link checks to accepted or rejected");
  cmd->add_option("--db", a->db, "the ledger: a SQLite file or postgresql://user@host:port/db")->envname("RAILYARD_DB");
  cmd->require_subcommand(1);
  cmd->footer(
      "Examples:\n"
      "  railyard accept run --policy acceptance.yaml --batch B2026-11\n"
      "  railyard accept report --batch B2026-11 --csv b.csv --html b.html\n"
      "  railyard accept sign --batch B2026-11                 # link-tested -> accepted\n"
      "  railyard accept set MT2347J0100T rma --reason 'no link after reseat'");
  CLI::App* run = cmd->add_subcommand("run", "evaluate the evidence and record each asset's new state");
  run->add_option("--policy", a->policy, "acceptance policy YAML (docs/ledger.md); defaults without one");
  run->add_option("--batch", a->batch, "only this batch");
  run->add_option("--actor", a->actor, "who signs (default: $USER)");
  CLI::App* report =
      cmd->add_subcommand("report", "the sign-off report of a batch: counts, every rejected item with reasons and evidence");
  report->add_option("--batch", a->batch, "the batch (default: every asset)");
  report->add_option("--policy", a->policy, "acceptance policy YAML, for the evidence shown");
  report->add_option("--csv", a->csv, "write the CSV here");
  report->add_option("--html", a->html, "write the self-contained HTML page here");
  CLI::App* sign = cmd->add_subcommand("sign", "sign a batch off: its link-tested assets become accepted");
  sign->add_option("--batch", a->batch, "the batch")->required();
  sign->add_option("--actor", a->actor, "who signs (default: $USER)");
  CLI::App* set = cmd->add_subcommand("set", "set an asset's state by hand (rma, rejected, received)");
  set->add_option("SERIAL", a->serial)->required();
  set->add_option("STATE", a->state)->required()->check(CLI::IsMember({"rma", "rejected", "received"}));
  set->add_option("--reason", a->reason, "why (kept in the ledger)")->required();
  set->add_option("--actor", a->actor, "who (default: $USER)");
  return [a, run, report, sign, set] {
    std::unique_ptr<LedgerStore> ledger = OpenLedger(a->db, report->parsed() ? LedgerAccess::kRead : LedgerAccess::kWrite);
    const std::string actor = a->actor.empty() ? (std::getenv("USER") ? std::getenv("USER") : "unknown") : a->actor;
    const AcceptancePolicy policy = a->policy.empty() ? AcceptancePolicy{} : LoadAcceptancePolicy(a->policy);
    if (run->parsed()) return RunVerdicts(*ledger, policy, *a, actor);
    if (report->parsed()) return WriteReport(*ledger, policy, *a);
    if (sign->parsed()) {
      std::vector<std::string> serials = SignOffBatch(*ledger, a->batch, actor);
      std::cout << fmt::format("batch {}: {} assets accepted by {}\n", a->batch, serials.size(), actor);
      return kExitOk;
    }
    if (set->parsed()) return SetByHand(*ledger, *a, actor);
    return kExitInput;
  };
}

}  // namespace railyard::cli
