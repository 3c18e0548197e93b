#include "burnin/burnin_check.h"
#include "model/schemas.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "parse/mlxlink.h"
#include "parse/nccl_tests.h"
#include "parse/perftest.h"
#include "util/html.h"
#include "util/input_error.h"
#include "util/natural_order.h"
#include "util/terminal.h"
#include "util/yaml_strict.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// A result file's text, or nullopt when there is none. A symlink is not followed: the results
// directory holds what the rounds wrote, and a link planted there could point anywhere.
std::optional<std::string> ReadResult(const fs::path& path) {
  std::error_code ec;
  if (fs::symlink_status(path, ec).type() != fs::file_type::regular) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What one result file says about its pair.
struct Verdict {
  bool usable = false;  // a measurement (or a tool error) to judge by; else the pair is "missing"
  bool failed = false;
  double measured = 0;
  std::string why;
  std::vector<std::string> warnings;  // "LINE: message"
};

Verdict JudgePerftest(const PerftestResult& r, double threshold, const BurninPolicy& policy) {
  Verdict v;
  for (const ParseWarning& w : r.warnings) v.warnings.push_back(fmt::format("{}: {}", w.line, w.message));
  if (!r.errors.empty()) {
    v.usable = v.failed = true;
    v.why = fmt::format("line {}: {}", r.errors.front().line, r.errors.front().text);
  }
  double worst = std::numeric_limits<double>::infinity();
  int worst_line = 0;
  for (const PerftestBwRow& row : r.bw) {
    if (row.bytes < policy.perftest_min_bytes) continue;
    if (row.average_gbps < worst) {
      worst = row.average_gbps;
      worst_line = row.line;
    }
  }
  const double need = r.bidirectional ? 2 * threshold : threshold;
  if (worst_line == 0) {
    if (!v.usable)
      v.why = r.bw.empty() ? "no bandwidth row" : fmt::format("no row of {} bytes or more", policy.perftest_min_bytes);
    return v;
  }
  v.usable = true;
  v.measured = worst;
  if (worst < need) {
    v.failed = true;
    if (v.why.empty()) v.why = fmt::format("line {}: {:.2f} Gb/s, below {:.0f}", worst_line, worst, need);
  } else if (!r.complete && r.errors.empty()) {
    v.warnings.push_back("the table was not closed: the run may have been cut short");
  }
  return v;
}

Verdict JudgeNccl(const NcclResult& r, double threshold, const BurninPolicy& policy) {
  Verdict v;
  for (const ParseWarning& w : r.warnings) v.warnings.push_back(fmt::format("{}: {}", w.line, w.message));
  if (!r.errors.empty()) {
    v.usable = v.failed = true;
    v.why = fmt::format("line {}: {}", r.errors.front().line, r.errors.front().text);
  }
  // The gated rows: 1 GiB and up; a run that stopped below that is judged on its largest row.
  uint64_t largest = 0;
  for (const NcclRow& row : r.rows) largest = std::max(largest, row.bytes);
  const uint64_t gate = std::min(policy.nccl_min_bytes, largest);
  double worst = std::numeric_limits<double>::infinity();
  int worst_line = 0;
  double wrong = 0;
  int wrong_line = 0;
  for (const NcclRow& row : r.rows) {
    if (row.bytes < gate || row.bytes == 0) continue;
    for (const NcclHalf* h : {&row.out_of_place, &row.in_place}) {
      if (!h->present) continue;
      if (h->busbw_gbs < worst) {
        worst = h->busbw_gbs;
        worst_line = row.line;
      }
      if (h->wrong && *h->wrong > 0 && wrong_line == 0) {
        wrong = *h->wrong;
        wrong_line = row.line;
      }
    }
  }
  if (worst_line == 0) {
    if (!v.usable) v.why = "no result row";
    return v;
  }
  v.usable = true;
  v.measured = worst;
  if (wrong_line) {
    v.failed = true;
    if (v.why.empty()) v.why = fmt::format("line {}: {:g} wrong element(s): the data was corrupted", wrong_line, wrong);
  }
  if (r.out_of_bounds && *r.out_of_bounds > 0) {
    v.failed = true;
    if (v.why.empty()) v.why = fmt::format("{} out-of-bounds value(s)", *r.out_of_bounds);
  }
  if (worst < threshold) {
    v.failed = true;
    if (v.why.empty()) v.why = fmt::format("line {}: {:.2f} GB/s bus bandwidth, below {:.1f}", worst_line, worst, threshold);
  }
  if (!r.complete && !v.failed) v.warnings.push_back("no footer: the run may have been cut short");
  return v;
}

}  // namespace

BurninPolicy ParseBurninPolicy(const std::string& yaml, const std::string& file) {
  YAML::Node root = LoadStrictYaml(yaml, file);
  CheckYamlKeys(file, root, "", {"perftest", "nccl", "counters"});
  BurninPolicy p;
  auto number = [&](const YAML::Node& map, const std::string& where, const char* key, double lo,
                    double hi) -> std::optional<double> {
    if (!map[key]) return std::nullopt;
    std::optional<double> v = FiniteNumber(map[key]);
    if (!v || *v < lo || *v > hi) YamlFail(file, map[key], where + key, fmt::format("a number from {:g} to {:g}", lo, hi));
    return v;
  };
  if (YAML::Node t = root["perftest"]) {
    if (!t.IsMap()) YamlFail(file, t, "perftest", "expected a mapping");
    CheckYamlKeys(file, t, "perftest.", {"min_fraction", "min_gbps", "min_bytes"});
    if (auto v = number(t, "perftest.", "min_fraction", 0.01, 2)) p.perftest_min_fraction = *v;
    p.perftest_min_gbps = number(t, "perftest.", "min_gbps", 0.001, 100000);
    if (auto v = number(t, "perftest.", "min_bytes", 1, 1e12)) p.perftest_min_bytes = static_cast<uint64_t>(*v);
  }
  if (YAML::Node n = root["nccl"]) {
    if (!n.IsMap()) YamlFail(file, n, "nccl", "expected a mapping");
    CheckYamlKeys(file, n, "nccl.", {"busbw_per_400g", "min_fraction", "min_busbw", "min_bytes"});
    if (auto v = number(n, "nccl.", "busbw_per_400g", 0.001, 10000)) p.nccl_busbw_per_400g = *v;
    if (auto v = number(n, "nccl.", "min_fraction", 0.01, 2)) p.nccl_min_fraction = *v;
    p.nccl_min_busbw = number(n, "nccl.", "min_busbw", 0.001, 100000);
    if (auto v = number(n, "nccl.", "min_bytes", 1, 1e13)) p.nccl_min_bytes = static_cast<uint64_t>(*v);
  }
  if (YAML::Node k = root["counters"]) {
    if (!k.IsMap()) YamlFail(file, k, "counters", "expected a mapping");
    CheckYamlKeys(file, k, "counters.", {"max_module_temp_c"});
    if (auto v = number(k, "counters.", "max_module_temp_c", 0, 150)) p.max_module_temp_c = *v;
  }
  return p;
}

namespace {

// What grew on one NIC during one round, from its mlxlink snapshots; "" when nothing did.
std::string CounterGrowth(const MlxlinkPort& before, const MlxlinkPort& after, double max_temp) {
  std::string out;
  auto grew = [&](const std::optional<uint64_t>& b, const std::optional<uint64_t>& a, const char* what) {
    if (b && a && *a > *b) out += fmt::format("{}+{} {}", out.empty() ? "" : ", ", *a - *b, what);
  };
  grew(before.link_down_counter, after.link_down_counter, "link down(s)");
  grew(before.link_error_recovery, after.link_error_recovery, "link error recoveries");
  grew(before.effective_errors, after.effective_errors, "effective (post-FEC) errors");
  grew(before.symbol_errors, after.symbol_errors, "symbol errors");
  if (after.module_temperature_c && *after.module_temperature_c >= max_temp) {
    out += fmt::format("{}module at {:.0f} °C (limit {:.0f})", out.empty() ? "" : ", ", *after.module_temperature_c, max_temp);
  }
  return out;
}

}  // namespace

BurninCheck CheckBurnin(const BurninPlan& plan, const PlannedFabric* fabric, const std::string& results_dir,
                        const BurninPolicy& policy) {
  BurninCheck c;
  c.plan = plan;
  const bool nccl = plan.test == "nccl";
  if (nccl) {
    c.unit = "GB/s";
    c.expected = policy.nccl_busbw_per_400g * plan.speed_gbps / 400.0;
    c.threshold = policy.nccl_min_busbw.value_or(policy.nccl_min_fraction * c.expected);
  } else {
    c.unit = "Gb/s";
    c.expected = plan.speed_gbps;
    c.threshold = policy.perftest_min_gbps.value_or(policy.perftest_min_fraction * c.expected);
  }
  // Where each NIC sits, from the plan.
  std::map<std::string, NicPlace> places;
  if (fabric) {
    for (const PlannedLink& l : fabric->links) {
      if (l.plane != plan.plane || l.level != "endpoint-leaf") continue;
      const bool a_host = fabric->devices[l.a_device].role != "switch";
      const PlannedDevice& host = fabric->devices[a_host ? l.a_device : l.z_device];
      const PlannedDevice& leaf = fabric->devices[a_host ? l.z_device : l.a_device];
      NicPlace p{leaf.name, std::string(a_host ? l.z_port : l.a_port), std::string(l.label), l.rail};
      places[host.name + " " + std::string(a_host ? l.a_port : l.z_port)] = p;
      if (nccl) places.emplace(host.name, NicPlace{leaf.name, "", "", 0});  // host-level pairs: the first NIC's leaf
    }
  }
  size_t noisy_files = 0;
  std::string first_noise;
  const fs::path dir(results_dir);
  for (const BurninRound& round : plan.rounds) {
    for (size_t i = 0; i < round.pairs.size(); ++i) {
      const BurninPair& pair = round.pairs[i];
      PairOutcome o;
      o.round = round.index;
      o.pair = i;
      o.server = pair.server;
      o.client = pair.client;
      o.loopback = EndpointKey(pair.server) == EndpointKey(pair.client);
      const fs::path txt = dir / (pair.result + ".txt"), json = dir / (pair.result + ".json");
      std::optional<std::string> text = ReadResult(txt);
      const bool is_json = !text;
      if (!text) text = ReadResult(json);
      const std::string file = (is_json ? json : txt).string();
      if (!text) {
        o.why = fmt::format("no result file ({}.txt)", pair.result);
        c.missing.push_back(std::move(o));
        continue;
      }
      Verdict v = nccl ? JudgeNccl(is_json ? ParseNcclTestsJson(*text) : ParseNcclTests(*text), c.threshold, policy)
                       : JudgePerftest(is_json ? ParsePerftestJson(*text, true) : ParsePerftest(*text), c.threshold, policy);
      if (!v.warnings.empty() && v.usable) {
        if (noisy_files++ == 0) first_noise = fmt::format("{}:{}", file, v.warnings.front());
      }
      o.measured = v.measured;
      o.failed = v.failed;
      o.why = v.why;
      if (!v.usable) {
        // The reason is the missing pair's; the parser's first warning says where the file went wrong.
        o.why = fmt::format("{}: {}{}", file, v.why, v.warnings.empty() ? "" : " (line " + v.warnings.front() + ")");
        c.missing.push_back(std::move(o));
        continue;
      }
      (o.failed ? c.failed : c.passed) += 1;
      c.outcomes.push_back(std::move(o));
    }
  }
  if (noisy_files > 0) {
    c.warnings.push_back(
        fmt::format("{} result file(s) with lines railyard does not read or a run that may be cut short; the first: {}",
                    noisy_files, first_noise));
  }
  c.localization = Localize(c.outcomes, places);
  // Counters under load.
  if (plan.counters) {
    for (const BurninRound& round : plan.rounds) {
      if (round.pairs.empty()) continue;
      const std::string sub = round.pairs.front().result.substr(0, round.pairs.front().result.find('/'));
      std::set<std::string> seen;
      for (size_t i = 0; i < round.pairs.size(); ++i) {
        for (const BurninEndpoint* e : {&round.pairs[i].server, &round.pairs[i].client}) {
          if (!seen.insert(EndpointKey(*e)).second) continue;
          const fs::path base = dir / sub / "counters" / (e->host + "." + e->device);
          std::optional<std::string> b = ReadResult(base.string() + ".before.txt"), a = ReadResult(base.string() + ".after.txt");
          MlxlinkReport rb, ra;
          if (b) rb = ParseMlxlink(*b);
          if (a) ra = ParseMlxlink(*a);
          if (rb.ports.empty() || ra.ports.empty()) {
            ++c.counters_missing;
            continue;
          }
          ++c.counters_read;
          const std::string growth = CounterGrowth(rb.ports.front(), ra.ports.front(), policy.max_module_temp_c);
          if (growth.empty()) continue;
          SuspectEvidence ev{round.index, i, "counters under load", 0, 0, true, growth};
          // Into the suspect that already holds this NIC, else a suspect of its own.
          auto place = places.find(EndpointKey(*e));
          Suspect* holder = nullptr;
          for (Suspect& s : c.localization.suspects) {
            if ((s.host == e->host && (s.device.empty() || s.device == e->device)) ||
                (s.kind == "switch" && place != places.end() && s.leaf == place->second.leaf)) {
              holder = &s;
              break;
            }
          }
          if (!holder) {
            Suspect s;
            s.kind = "link";
            s.name = EndpointKey(*e);
            s.host = e->host;
            s.device = e->device;
            if (place != places.end()) {
              s.leaf = place->second.leaf;
              s.leaf_port = place->second.leaf_port;
              s.cable = place->second.cable;
            }
            s.confidence = "likely";
            s.reason = "its bandwidth passed, but under load";
            c.localization.suspects.push_back(std::move(s));
            holder = &c.localization.suspects.back();
            holder->reason += fmt::format(" (round {}): {}", round.index, growth);
          } else if (holder->reason.find("under load") == std::string::npos) {
            holder->reason += fmt::format("; under load (round {}): {}", round.index, growth);
          }
          holder->evidence.push_back(std::move(ev));
        }
      }
    }
    if (c.counters_missing > 0) {
      c.warnings.push_back(
          fmt::format("{} NIC snapshot(s) around a round are missing or unreadable: those NICs' counters were not checked",
                      c.counters_missing));
    }
  }
  const int next = plan.rounds.empty() ? 0 : plan.rounds.back().index + 1;
  c.next_round = NextRound(c.localization, c.outcomes, places, next);
  return c;
}

namespace {

nlohmann::ordered_json PairJson(const BurninPair& p) {
  return {{"server", {{"host", p.server.host}, {"device", p.server.device}}},
          {"client", {{"host", p.client.host}, {"device", p.client.device}}},
          {"hops", p.hops},
          {"rail", p.rail},
          {"result", p.result}};
}

}  // namespace

std::string BurninCheckJson(const BurninCheck& c) {
  nlohmann::ordered_json j;
  j["schema"] = kBurninSchema;
  size_t pairs = 0;
  for (const BurninRound& r : c.plan.rounds) pairs += r.pairs.size();
  j["summary"] = {{"plan", c.plan.plan_name},
                  {"plane", c.plan.plane},
                  {"pattern", c.plan.pattern},
                  {"test", c.plan.test},
                  {"rounds", c.plan.rounds.size()},
                  {"pairs", pairs},
                  {"measured", c.outcomes.size()},
                  {"passed", c.passed},
                  {"failed", c.failed},
                  {"missing", c.missing.size()},
                  {"unit", c.unit},
                  {"expected", c.expected},
                  {"threshold", c.threshold},
                  {"suspects", c.localization.suspects.size()},
                  {"counters_read", c.counters_read},
                  {"counters_missing", c.counters_missing}};
  j["suspects"] = nlohmann::ordered_json::array();
  for (const Suspect& s : c.localization.suspects) {
    nlohmann::ordered_json x = {{"kind", s.kind}, {"name", s.name}, {"confidence", s.confidence}, {"reason", s.reason}};
    if (!s.host.empty()) x["host"] = s.host;
    if (!s.device.empty()) x["device"] = s.device;
    if (!s.leaf.empty()) x["leaf"] = s.leaf;
    if (!s.leaf_port.empty()) x["leaf_port"] = s.leaf_port;
    if (!s.cable.empty()) x["cable"] = s.cable;
    x["evidence"] = nlohmann::ordered_json::array();
    for (const SuspectEvidence& e : s.evidence) {
      nlohmann::ordered_json ev = {{"round", e.round},       {"pair", e.pair},         {"partner", e.partner},
                                   {"measured", e.measured}, {"expected", e.expected}, {"failed", e.failed}};
      if (!e.why.empty()) ev["why"] = e.why;
      x["evidence"].push_back(std::move(ev));
    }
    j["suspects"].push_back(std::move(x));
  }
  j["missing"] = nlohmann::ordered_json::array();
  for (const PairOutcome& o : c.missing) {
    j["missing"].push_back({{"round", o.round},
                            {"pair", o.pair},
                            {"server", EndpointKey(o.server)},
                            {"client", EndpointKey(o.client)},
                            {"why", o.why}});
  }
  nlohmann::ordered_json next = {{"index", c.next_round.index}, {"pairs", nlohmann::ordered_json::array()}};
  for (const BurninPair& p : c.next_round.pairs) next["pairs"].push_back(PairJson(p));
  j["next_round"] = std::move(next);
  j["warnings"] = c.warnings;
  // Reasons quote result files, which may hold any bytes: invalid UTF-8 becomes U+FFFD, not an exception.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string BurninCheckTable(const BurninCheck& c) {
  size_t pairs = 0;
  for (const BurninRound& r : c.plan.rounds) pairs += r.pairs.size();
  std::string out = fmt::format(
      "{}: burn-in of plane {} ({} pattern, {}), {} round(s), {} pair(s)\n"
      "  passed {}, failed {}, missing {}: each pair must carry {:.1f} {} ({:.0f}% of {:.1f} {} expected on a {} Gb/s link)\n",
      TerminalSafe(c.plan.plan_name), TerminalSafe(c.plan.plane), TerminalSafe(c.plan.pattern), c.plan.test, c.plan.rounds.size(),
      pairs, c.passed, c.failed, c.missing.size(), c.threshold, c.unit, c.expected > 0 ? 100 * c.threshold / c.expected : 0,
      c.expected, c.unit, c.plan.speed_gbps);
  if (c.plan.counters) {
    out += fmt::format("  counters under load: {} NIC snapshot pair(s) read, {} missing\n", c.counters_read, c.counters_missing);
  }
  if (!c.localization.suspects.empty()) {
    out += fmt::format("\n{:<8} {:<10} {:<32} {}\n", "KIND", "CONFIDENCE", "NAME", "WHY");
    for (const Suspect& s : c.localization.suspects) {
      out += fmt::format("{:<8} {:<10} {:<32} {}\n", s.kind, s.confidence, TerminalSafe(s.name), TerminalSafe(s.reason));
      size_t shown = 0;
      for (const SuspectEvidence& e : s.evidence) {
        if (!e.failed || shown++ >= 4) continue;
        out += fmt::format("{:<8} {:<10}   round {} pair {} with {}: {:.2f} {} ({})\n", "", "", e.round, e.pair,
                           TerminalSafe(e.partner), e.measured, c.unit, TerminalSafe(e.why));
      }
    }
  } else if (c.outcomes.empty()) {
    out += "\nnothing was measured: no result to judge\n";
  } else if (c.failed == 0) {
    out += fmt::format("\nno suspect: every measured pair reached the threshold{}\n",
                       c.missing.empty() ? "" : " (the pairs without a result were not checked)");
  }
  if (!c.missing.empty()) {
    out += fmt::format("\n{} pair(s) have no usable result (not counted as passed); the first: {} <- {}: {}\n", c.missing.size(),
                       TerminalSafe(EndpointKey(c.missing.front().server)), TerminalSafe(EndpointKey(c.missing.front().client)),
                       TerminalSafe(c.missing.front().why));
  }
  if (!c.next_round.pairs.empty()) {
    out += fmt::format("\nnext round ({} pair(s)): `railyard burnin bisect` writes it; the first: {} <- {}\n",
                       c.next_round.pairs.size(), TerminalSafe(EndpointKey(c.next_round.pairs.front().server)),
                       TerminalSafe(EndpointKey(c.next_round.pairs.front().client)));
  }
  for (const std::string& w : c.warnings) out += "warning: " + TerminalSafe(w) + "\n";
  return out;
}

namespace {

// A cell's colour for a rate as a fraction of the expected one: red below the threshold, amber up to
// the expected rate, green at it.
std::string HeatColour(double measured, double expected, double threshold) {
  if (expected <= 0) return "#ccc";
  if (measured < threshold) {
    const int shade = static_cast<int>(std::clamp(measured / threshold, 0.0, 1.0) * 120);
    return fmt::format("rgb({},{},{})", 200 + shade / 4, shade / 2, shade / 2);
  }
  const double f = std::clamp((measured - threshold) / std::max(1e-9, expected - threshold), 0.0, 1.0);
  return fmt::format("rgb({},{},{})", static_cast<int>(230 - 150 * f), static_cast<int>(190 + 20 * f), 90);
}

}  // namespace

std::string BurninCheckHtml(const BurninCheck& c) {
  size_t pairs = 0;
  for (const BurninRound& r : c.plan.rounds) pairs += r.pairs.size();
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Burn-in {} {}</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #bbb;padding:3px "
      "6px;"
      "text-align:left;vertical-align:top;font-size:13px}}.heat td{{width:14px;height:14px;padding:0;border:1px solid #fff}}"
      ".heat th{{font-size:11px;font-weight:normal;padding:0 "
      "4px}}.confirmed{{color:#a00}}.likely{{color:#b60}}</style></head><body>\n"
      "<h1>Burn-in: plane {} of {}</h1>\n<p>{} pattern, {}: {} round(s), {} pair(s). Passed {}, failed {}, <b>missing {}</b> "
      "(never counted "
      "as passed). A pair must carry {:.1f} {} of the {:.1f} {} expected on a {} Gb/s link.</p>\n",
      HtmlEscape(c.plan.plan_name), HtmlEscape(c.plan.plane), HtmlEscape(c.plan.plane), HtmlEscape(c.plan.plan_name),
      HtmlEscape(c.plan.pattern), HtmlEscape(c.plan.test), c.plan.rounds.size(), pairs, c.passed, c.failed, c.missing.size(),
      c.threshold, c.unit, c.expected, c.unit, c.plan.speed_gbps);
  out += "<h2>Suspects</h2>\n";
  if (c.localization.suspects.empty()) {
    out += c.outcomes.empty() ? "<p>Nothing was measured.</p>\n" : "<p>None: every measured pair reached the threshold.</p>\n";
  } else {
    out += "<table><tr><th>kind</th><th>name</th><th>confidence</th><th>why</th><th>where</th><th>failed pairs</th></tr>\n";
    for (const Suspect& s : c.localization.suspects) {
      std::string where;
      if (!s.cable.empty())
        where = fmt::format("cable {} to {} {}", HtmlEscape(s.cable), HtmlEscape(s.leaf), HtmlEscape(s.leaf_port));
      std::string ev;
      size_t shown = 0;
      for (const SuspectEvidence& e : s.evidence) {
        if (!e.failed || shown++ >= 6) continue;
        ev += fmt::format("round {} pair {} with {}: {:.2f} {} ({})<br>", e.round, e.pair, HtmlEscape(e.partner), e.measured,
                          c.unit, HtmlEscape(e.why));
      }
      out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         HtmlEscape(s.kind), HtmlEscape(s.name), HtmlEscape(s.confidence), HtmlEscape(s.confidence),
                         HtmlEscape(s.reason), where, ev);
    }
    out += "</table>\n";
  }
  // NIC heat map: the slowest rate each NIC measured (its loopback included), hosts by device.
  std::map<std::string, std::map<std::string, double>, bool (*)(std::string_view, std::string_view)> nic(NaturalLess);
  std::set<std::string, bool (*)(std::string_view, std::string_view)> devices(NaturalLess);
  for (const PairOutcome& o : c.outcomes) {
    for (const BurninEndpoint* e : {&o.server, &o.client}) {
      const std::string dev = e->device.empty() ? "(host)" : e->device;
      auto [it, fresh] = nic[e->host].try_emplace(dev, o.measured);
      if (!fresh) it->second = std::min(it->second, o.measured);
      devices.insert(dev);
    }
  }
  out += fmt::format(
      "<h2>Every NIC at its slowest</h2>\n<p>Each cell is the slowest {} the NIC measured, over every pair it was in; grey: not "
      "measured. Hover for the value.</p>\n<table class=\"heat\"><tr><th></th>",
      c.unit);
  for (const std::string& d : devices) out += fmt::format("<th>{}</th>", HtmlEscape(d));
  out += "</tr>\n";
  for (const auto& [host, by_dev] : nic) {
    out += fmt::format("<tr><th>{}</th>", HtmlEscape(host));
    for (const std::string& d : devices) {
      auto it = by_dev.find(d);
      if (it == by_dev.end()) {
        out += "<td style=\"background:#ccc\" title=\"not measured\"></td>";
      } else {
        out += fmt::format("<td style=\"background:{}\" title=\"{} {}: {:.2f} {}\"></td>",
                           HeatColour(it->second, c.expected, c.threshold), HtmlEscape(host), HtmlEscape(d), it->second, c.unit);
      }
    }
    out += "</tr>\n";
  }
  out += "</table>\n";
  // Host-pair heat map (up to 256 hosts): the slowest rate between each two hosts, any rail.
  if (nic.size() <= 256) {
    std::map<std::pair<std::string, std::string>, double> between;
    for (const PairOutcome& o : c.outcomes) {
      if (o.loopback) continue;
      auto key = std::minmax(o.server.host, o.client.host);
      auto [it, fresh] = between.try_emplace({key.first, key.second}, o.measured);
      if (!fresh) it->second = std::min(it->second, o.measured);
    }
    out += fmt::format(
        "<h2>Every pair of hosts</h2>\n<p>The slowest {} measured between two hosts on any rail; grey: they did not meet.</p>\n"
        "<table class=\"heat\"><tr><th></th>",
        c.unit);
    for (const auto& [host, unused] : nic) out += fmt::format("<th title=\"{}\">&middot;</th>", HtmlEscape(host));
    out += "</tr>\n";
    for (const auto& [a, unused_a] : nic) {
      out += fmt::format("<tr><th>{}</th>", HtmlEscape(a));
      for (const auto& [b, unused_b] : nic) {
        auto it = between.find({std::min(a, b), std::max(a, b)});
        if (it == between.end()) {
          out += "<td style=\"background:#eee\"></td>";
        } else {
          out += fmt::format("<td style=\"background:{}\" title=\"{} - {}: {:.2f} {}\"></td>",
                             HeatColour(it->second, c.expected, c.threshold), HtmlEscape(a), HtmlEscape(b), it->second, c.unit);
        }
      }
      out += "</tr>\n";
    }
    out += "</table>\n";
  } else {
    out += fmt::format("<p>{} hosts: the host-pair map is drawn for 256 hosts or fewer (check a subset with --hosts).</p>\n",
                       nic.size());
  }
  if (!c.missing.empty()) {
    out += fmt::format(
        "<h2>Pairs without a usable result "
        "({})</h2>\n<table><tr><th>round</th><th>pair</th><th>server</th><th>client</th><th>why</th></tr>\n",
        c.missing.size());
    size_t shown = 0;
    for (const PairOutcome& o : c.missing) {
      if (shown++ >= 500) break;
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", o.round, o.pair,
                         HtmlEscape(EndpointKey(o.server)), HtmlEscape(EndpointKey(o.client)), HtmlEscape(o.why));
    }
    out += "</table>\n";
  }
  for (const std::string& w : c.warnings) out += "<p>warning: " + HtmlEscape(w) + "</p>\n";
  out += "</body></html>\n";
  return out;
}

BurninPlan BisectPlan(const BurninCheck& c) {
  BurninPlan p = c.plan;
  p.notes.push_back(
      fmt::format("round {}: the suspects of the rounds before against known-good partners, and loopbacks", c.next_round.index));
  p.rounds.push_back(c.next_round);  // after the campaign's: checked together, the history counts
  return p;
}

std::string FindBurninPlan(const std::string& results_dir) {
  namespace fs = std::filesystem;
  for (const fs::path& p : {fs::path(results_dir) / "burnin-plan.json", fs::path(results_dir).parent_path() / "burnin-plan.json",
                            fs::absolute(results_dir).parent_path() / "burnin-plan.json"}) {
    if (fs::exists(p)) return p.string();
  }
  throw InputError(fmt::format("{}: no burnin-plan.json in it or above it (give --burnin)", results_dir));
}

}  // namespace railyard
