#include "serve/dashboard.h"
#include "util/input_error.h"
#include "util/json_input.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <limits>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include "model/schemas.h"

#include "doctor/policy.h"
#include "facts/switch_facts.h"
#include "ledger/ledger.h"
#include "rollout/state.h"
#include "util/file.h"
#include "util/secret_mask.h"
#include "util/utc_time.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

ApiAnswer Error(int status, const std::string& message) { return {status, Dump({{"error", message}}), "application/json"}; }

// Writes {"KEY": [ITEM, ...], REST...} in one string: each ITEM a value dumped by Dump, and REST an
// object with at least one member, so the result is JSON by construction. Items are appended in
// place, since a page of findings is a megabyte.
class ObjectWithArray {
 public:
  explicit ObjectWithArray(const char* key) : out_("{" + Dump(key) + ":[") {}
  void Add(const std::string& dumped) {
    if (out_.back() != '[') out_ += ',';
    out_ += dumped;
  }
  std::string Finish(const json& rest) && {
    out_ += "],";
    out_.append(Dump(rest), 1);  // "{...}" without its "{"
    return std::move(out_);
  }

 private:
  std::string out_;
};

// VALUE as it can stand in a URL's query (RFC 3986: every byte but the unreserved ones escaped).
std::string PercentEncoded(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

// One finding as every /api/v1/findings answer has it, filtered or not: doctor's fields, plus the
// rack, row and rail of its host or switch in the plan, every rack the fix is done in (`racks`), and
// `fleet` for a fleet-wide finding.
json FindingJson(const Finding& f, const PlannedDevice* d, const std::vector<std::string>& racks, bool fleet) {
  json x = {{"rule", f.rule}, {"severity", ToString(f.severity)}, {"host", f.host}, {"object", f.object}, {"message", f.message},
            {"fix", f.fix}};
  if (d && !fleet) {
    x["rack"] = d->rack;
    x["row"] = d->row;
    if (d->rail) x["rail"] = d->rail;
  }
  x["racks"] = racks;
  if (fleet) x["fleet"] = true;
  json evidence = json::object();
  for (const auto& [k, v] : f.evidence) evidence[k] = v;
  x["evidence"] = evidence;
  return x;
}

// The evidence keys whose value starts with the device at the other end of a cable ("leaf-07 swp3"):
// doctor's rail-mismatch (planned, lldp_neighbor) and the link-end rules (peer).
constexpr std::array<const char*, 3> kOtherEndKeys = {"planned", "lldp_neighbor", "peer"};

}  // namespace

std::vector<std::string> RacksOfFinding(const Finding& f, const HostPlan& plan) {
  // The switch side first: a cable is fixed at the leaf's patch panel, so its rack leads.
  std::vector<std::string> racks;
  auto add = [&](const std::string& device) {
    const PlannedDevice* d = plan.DeviceOf(device);
    if (d && std::find(racks.begin(), racks.end(), d->rack) == racks.end()) racks.push_back(d->rack);
  };
  for (const auto& kv : f.evidence) {
    const std::string& key = kv.first;
    if (std::find_if(kOtherEndKeys.begin(), kOtherEndKeys.end(), [&key](const char* k) { return key == k; }) !=
        kOtherEndKeys.end())
      add(kv.second.substr(0, kv.second.find(' ')));
  }
  add(f.host);
  return racks;
}

std::vector<std::string> Dashboard::RacksOf(size_t index) const {
  if (IsFleet(index)) return {};
  return RacksOfFinding(report_.findings[index], *plan_);
}

bool Dashboard::IsFleet(size_t index) const { return index >= report_.fleet_begin && index < report_.fleet_end; }

Dashboard::Dashboard(DashboardSources sources) : sources_(std::move(sources)) {
  if (sources_.plan.empty()) throw UsageError("serve needs --plan plan.json");
  LoadPlan();
  LoadFacts();
  LoadVerify();
  Summarize();
  for (const std::string& p : sources_.facts) stamps_[p] = Stamp(p);
  stamps_[sources_.plan] = Stamp(sources_.plan);
  if (!sources_.verify.empty()) stamps_[sources_.verify] = Stamp(sources_.verify);
}

std::string Dashboard::Stamp(const std::string& path) const {
  // A directory's stamp covers its files: a new or rewritten facts file changes it.
  std::error_code ec;
  std::string stamp;
  auto one = [&stamp](const fs::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0)
      stamp += fmt::format("{}:{}.{}:{};", p.filename().string(), st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_size);
  };
  if (fs::is_directory(path, ec)) {
    std::set<fs::path> files;
    for (const auto& e : fs::directory_iterator(path, ec)) files.insert(e.path());
    for (const fs::path& f : files) one(f);
  } else {
    one(path);
  }
  return stamp;
}

void Dashboard::LoadPlan() {
  plan_ = std::make_shared<HostPlan>(LoadPlannedFabric(sources_.plan, true));
  const fs::path html = fs::path(sources_.plan).parent_path() / "plan.html";
  std::error_code ec;
  plan_html_ = fs::is_regular_file(html, ec) ? ReadWholeFile(html.string()) : std::string();
}

void Dashboard::LoadFacts() {
  DoctorPolicy policy = sources_.policy.empty() ? DoctorPolicy{} : LoadPolicy(sources_.policy);
  Doctor doctor(policy, plan_);
  doctor.SetSwitchConfigPlan(sources_.plan);
  if (!sources_.facts.empty()) {
    ForEachFacts(
        sources_.facts, [&](HostFacts&& f) { doctor.AddHost(f); }, [&](SwitchFacts&& s) { doctor.AddSwitch(s); });
  }
  report_ = doctor.Finish();
  // Each finding serialized once, with the rack, row and rail of its host or switch: an answer is
  // then a copy of the ones it holds.
  racks_of_.clear();
  finding_json_.clear();
  for (size_t i = 0; i < report_.findings.size(); ++i) racks_of_.push_back(RacksOf(i));
  for (size_t i = 0; i < report_.findings.size(); ++i) {
    const Finding& f = report_.findings[i];
    finding_json_.push_back(Dump(FindingJson(f, plan_->DeviceOf(f.host), racks_of_[i], IsFleet(i))));
  }
  loaded_at_ = UtcNow();
}

void Dashboard::LoadVerify() {
  verify_json_.clear();
  if (sources_.verify.empty()) return;
  json j = ReadJsonFile(sources_.verify);
  if (!j.is_object() || j.value("schema", "") != kVerifySchema) {
    throw InputError(ShownPath(sources_.verify), 0, 0, "schema",
                     fmt::format("not a verify --format json result ({})", kVerifySchema));
  }
  verify_json_ = Dump(j);
  // Each cabling finding counts once in every rack one of its ends is planned or seen in.
  verify_by_rack_.clear();
  for (const json& f : j.value("findings", json::array())) {
    std::set<std::string> racks;
    for (const char* side : {"planned", "observed"}) {
      if (!f.contains(side) || !f[side].is_object()) continue;
      for (const char* end : {"a", "b"}) {
        const std::string where = f[side].value(end, "");
        if (const PlannedDevice* d = plan_->DeviceOf(where.substr(0, where.find(':')))) racks.insert(d->rack);
      }
    }
    for (const std::string& r : racks) ++verify_by_rack_[r];
  }
}

bool Dashboard::Refresh() {
  bool plan_changed = false, facts_changed = false, verify_changed = false;
  for (auto& [path, stamp] : stamps_) {
    std::string now = Stamp(path);
    if (now == stamp) continue;
    stamp = now;
    if (path == sources_.plan)
      plan_changed = true;
    else if (path == sources_.verify)
      verify_changed = true;
    else
      facts_changed = true;
  }
  if (!plan_changed && !facts_changed && !verify_changed) return false;  // and the last reload's errors stand
  errors_.clear();
  try {
    if (plan_changed) LoadPlan();
    if (plan_changed || facts_changed) LoadFacts();
    if (plan_changed || verify_changed) LoadVerify();
  } catch (const std::exception& e) {
    errors_.push_back(MaskSecrets(e.what()));  // the last good state stays
  }
  Summarize();
  return true;
}

void Dashboard::Summarize() {
  const PlannedFabric& fabric = plan_->fabric();
  std::map<std::string, size_t> by_severity = {{"error", 0}, {"warning", 0}, {"info", 0}};
  for (const Finding& f : report_.findings) ++by_severity[std::string(ToString(f.severity))];
  size_t nodes = 0, switches = 0;
  std::set<std::string> rack_names;
  for (const PlannedDevice& d : fabric.devices) {
    nodes += d.role == "node";
    switches += d.role == "switch";
    rack_names.insert(d.rack);
  }
  json planes = json::array();
  for (const PlannedPlane& p : fabric.planes) planes.push_back({{"name", p.name}, {"role", p.role}});
  summary_ = Dump({{"plan", fabric.name},
                   {"planes", planes},
                   {"nodes", nodes},
                   {"switches", switches},
                   {"racks", rack_names.size()},
                   {"facts", {{"hosts", report_.hosts.size()}, {"switches", report_.switches.size()}, {"loaded_at", loaded_at_}}},
                   {"findings", by_severity},
                   {"fleet_findings", report_.fleet_end - report_.fleet_begin},
                   {"verify", !verify_json_.empty()},
                   {"acceptance", !sources_.db.empty()},
                   {"rollout", !sources_.rollout.empty()},
                   {"plan_html", !plan_html_.empty()},
                   {"errors", errors_}});

  // Per rack: its hosts and switches, and the findings about them by severity (the heat map).
  struct Tally {
    int row = 0, position = 0;
    size_t devices = 0, error = 0, warning = 0, info = 0;
  };
  std::map<std::string, Tally> racks;
  for (const PlannedDevice& d : fabric.devices) {
    Tally& t = racks[d.rack];
    t.row = d.row;
    t.position = d.position;
    ++t.devices;
  }
  // A finding counts in every rack it is fixed in; a fleet-wide one in none (the summary counts it).
  for (size_t i = 0; i < report_.findings.size(); ++i) {
    const Finding& f = report_.findings[i];
    for (const std::string& rack : racks_of_[i]) {
      auto it = racks.find(rack);
      if (it == racks.end()) continue;
      Tally& t = it->second;
      (f.severity == Severity::kError ? t.error : f.severity == Severity::kWarning ? t.warning : t.info) += 1;
    }
  }
  json out = json::array();
  for (const auto& [name, t] : racks) {
    auto cabling = verify_by_rack_.find(name);
    out.push_back({{"rack", name},
                   {"row", t.row},
                   {"position", t.position},
                   {"devices", t.devices},
                   {"error", t.error},
                   {"warning", t.warning},
                   {"info", t.info},
                   {"cabling", cabling == verify_by_rack_.end() ? 0 : cabling->second}});
  }
  racks_ = Dump({{"racks", out}});
  first_findings_page_ = Findings({}).body;
}

// The findings answer for QUERY (filters and page), validated: 400 for an unknown key or a bad page.
ApiAnswer Dashboard::Findings(const std::multimap<std::string, std::string>& query) const {
  std::optional<ApiAnswer> refused;
  auto whole = [&query, &refused](const char* key, size_t fallback, size_t low, size_t high) {
    auto [from, to] = query.equal_range(key);
    if (from == to) return fallback;
    const std::string& v = from->second;
    size_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (std::next(from) != to || ec != std::errc() || end != v.data() + v.size() || n < low || n > high) {
      refused = Error(400, fmt::format("{} must be given once, a whole number from {} to {}", key, low, high));
    }
    return n;
  };
  const size_t limit = whole("limit", kDefaultPage, 1, kMaxPage);
  const size_t offset = whole("offset", 0, 0, std::numeric_limits<uint32_t>::max());
  if (refused) return *refused;
  for (const auto& [key, value] : query) {
    if (key != "severity" && key != "rule" && key != "host" && key != "rack" && key != "limit" && key != "offset")
      return Error(400, "unknown filter '" + key + "': severity, rule, host, rack (and the page: offset, limit)");
  }
  // Each filter's values, looked up once: a key given twice matches either value, one not given matches all.
  auto values = [&query](const char* key) {
    std::vector<std::string> out;
    for (auto [from, to] = query.equal_range(key); from != to; ++from) out.push_back(from->second);
    return out;
  };
  const std::vector<std::string> severities = values("severity"), rules = values("rule"), hosts = values("host"),
                                 racks = values("rack");
  auto want = [](const std::vector<std::string>& wanted, std::string_view value) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), value) != wanted.end();
  };
  auto in_rack = [&racks](const std::vector<std::string>& of) {
    return racks.empty() || std::find_first_of(of.begin(), of.end(), racks.begin(), racks.end()) != of.end();
  };
  // Every match is counted; the page's are copied, each as it was serialized at load.
  size_t count = 0;
  ObjectWithArray page("findings");
  for (size_t i = 0; i < report_.findings.size(); ++i) {
    const Finding& f = report_.findings[i];
    if (!want(severities, ToString(f.severity)) || !want(rules, f.rule) || !want(hosts, f.host) || !in_rack(racks_of_[i])) {
      continue;
    }
    if (count >= offset && count - offset < limit) page.Add(finding_json_[i]);
    ++count;
  }
  json rest = {{"count", count}, {"offset", offset}, {"limit", limit}, {"next", nullptr}};
  if (offset + limit < count) {
    std::string next = "/api/v1/findings?";
    for (const auto& [key, value] : query) {
      if (key != "limit" && key != "offset") next += PercentEncoded(key) + "=" + PercentEncoded(value) + "&";
    }
    rest["next"] = next + fmt::format("offset={}&limit={}", offset + limit, limit);
  }
  return {200, std::move(page).Finish(rest), "application/json"};
}

ApiAnswer Dashboard::Get(const std::string& path, const std::multimap<std::string, std::string>& query) const {
  if (path == "/api/v1" || path == "/api/v1/") {
    return {200,
            Dump({{"api", "railyard/1"},
                  {"endpoints",
                   {"/api/v1/summary", "/api/v1/findings?severity=&rule=&host=&rack=", "/api/v1/racks", "/api/v1/verify",
                    "/api/v1/acceptance", "/api/v1/rollout"}}}),
            "application/json"};
  }
  if (path == "/api/v1/summary") return {200, summary_, "application/json"};
  if (path == "/api/v1/findings")
    return query.empty() ? ApiAnswer{200, first_findings_page_, "application/json"} : Findings(query);
  if (path == "/api/v1/racks") return {200, racks_, "application/json"};
  if (path == "/api/v1/acceptance") {
    if (sources_.db.empty()) return Error(404, "no ledger was given (serve --db LEDGER)");
    // Per batch, how many of its assets are in each state (received when none was recorded yet).
    std::map<std::string, std::map<std::string, size_t>> batches;
    try {
      std::unique_ptr<LedgerStore> ledger = OpenLedger(sources_.db, LedgerAccess::kRead);
      ledger->ForEachAsset([&batches](const Asset& a) {
        auto batch = a.fields.find("batch"), state = a.fields.find("state");
        ++batches[batch == a.fields.end() ? "" : batch->second][state == a.fields.end() ? "received" : state->second];
      });
    } catch (const std::exception& e) {
      return Error(503, MaskSecrets(e.what()));
    }
    json out = json::array();
    for (const auto& [batch, states] : batches) {
      size_t total = 0;
      for (const auto& [state, n] : states) total += n;
      out.push_back({{"batch", batch}, {"assets", total}, {"states", states}});
    }
    return {200, Dump({{"batches", out}}), "application/json"};
  }
  if (path == "/api/v1/rollout") {
    if (sources_.rollout.empty()) return Error(404, "no rollout was given (serve --rollout STATE_DIR)");
    json waves = json::array();
    try {
      for (const WaveStatus& w : RolloutStatus(sources_.rollout)) {
        waves.push_back({{"index", w.index}, {"name", w.name}, {"state", w.state}, {"detail", w.detail}});
      }
    } catch (const std::exception& e) {
      return Error(503, MaskSecrets(e.what()));
    }
    return {200, Dump({{"waves", waves}}), "application/json"};
  }
  if (path == "/api/v1/verify") {
    if (verify_json_.empty()) return Error(404, "no verify result was given (serve --verify RESULT.json)");
    return {200, verify_json_, "application/json"};
  }
  return Error(404, "no such endpoint: " + path + " (see /api/v1)");
}

}  // namespace railyard
