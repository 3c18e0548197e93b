// `railyard serve`: what the read-only dashboard knows and the answers of its JSON API (/api/v1),
// kept apart from the HTTP server so that each answer is tested without a socket.
//
// The state is loaded from files: the plan (plan.json, with plan.html beside it when `plan -o` wrote
// it), host and switch facts (files, directories or NDJSON, as doctor takes them), and a verify
// result (verify --format json). Doctor runs over the facts with the plan once per load; the
// unfiltered findings answer is serialized once, so that at 10,000 hosts it is a copy, not a rerun.
// Refresh() reloads when a source file changed (by size and modification time).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "doctor/doctor.h"
#include "doctor/plan_rules.h"
#include "planfile/planned.h"

namespace railyard {

struct DashboardSources {
  std::string plan;                // plan.json (required)
  std::vector<std::string> facts;  // host and switch facts
  std::string verify;              // a `verify --format json` result, or ""
  std::string policy;              // a doctor policy YAML, or ""
  std::string db;                  // the ledger (SQLite file or postgresql:// URL), or ""
  std::string rollout;             // a rollout state directory (rollout plan -o), or ""
};

struct ApiAnswer {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

// Every rack a finding's fix is done in: the racks of the devices at the other end of its cable
// (doctor's `planned`, `lldp_neighbor` and `peer` evidence) first, then its host's. Names the plan
// does not know are left out.
std::vector<std::string> RacksOfFinding(const Finding& finding, const HostPlan& plan);

class Dashboard {
 public:
  // Throws InputError naming the file that cannot be read.
  explicit Dashboard(DashboardSources sources);

  // Reloads what changed; returns true when anything was reloaded. A source that became unreadable
  // keeps the last good state and is reported in /api/v1/summary's "errors".
  bool Refresh();

  // GET PATH?QUERY for the API: /api/v1, /api/v1/summary, /api/v1/findings (filters: severity, rule,
  // host, rack; pages: offset, limit), /api/v1/racks, /api/v1/verify, /api/v1/acceptance (the
  // ledger's assets per batch and state), /api/v1/rollout (each wave's state). Anything else under
  // /api is 404 with a JSON error. Get changes nothing: any number of threads may call it at once,
  // while Refresh needs the dashboard to itself.
  ApiAnswer Get(const std::string& path, const std::multimap<std::string, std::string>& query) const;

  // A findings answer holds at most this many (`limit`, 1000 unless asked): at 10,000 hosts the
  // whole list is megabytes, and 64 clients asking for it at once would each wait for all of it.
  static constexpr size_t kDefaultPage = 1000;
  static constexpr size_t kMaxPage = 10000;

  // plan.html written beside plan.json, when there is one ("" when not).
  const std::string& PlanHtml() const { return plan_html_; }

 private:
  void LoadPlan();
  void LoadFacts();
  void LoadVerify();
  void Summarize();                                        // the summary and racks answers, from what is loaded
  std::string Stamp(const std::string& path) const;        // size and mtime: what Refresh compares
  std::vector<std::string> RacksOf(size_t finding) const;  // every rack the fix is in, switch side first
  bool IsFleet(size_t finding) const;
  ApiAnswer Findings(const std::multimap<std::string, std::string>& query) const;

  DashboardSources sources_;
  std::shared_ptr<HostPlan> plan_;
  std::string plan_html_;
  DoctorReport report_;
  std::vector<std::string> finding_json_;           // per finding, its JSON in every findings answer
  std::vector<std::vector<std::string>> racks_of_;  // per finding, RacksOf
  // The /api/v1/summary and /api/v1/racks answers, computed when something loads: each walks every
  // planned device (15,000 at 100,000 GPUs), which no request should wait for.
  std::string summary_;
  std::string racks_;
  std::string first_findings_page_;  // /api/v1/findings with no query: what the dashboard and most clients ask
  std::string verify_json_;
  std::map<std::string, size_t> verify_by_rack_;  // cabling findings whose planned or observed end is in the rack
  std::map<std::string, std::string> stamps_;
  std::vector<std::string> errors_;  // of the last reload that was tried; kept until a source changes again
  std::string loaded_at_;
};

}  // namespace railyard
