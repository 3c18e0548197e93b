#include "parse/nccl_tests.h"

#include <cctype>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

bool IsWord(std::string_view s) {
  double x = 0;
  return !s.empty() && !WholeDouble(s, x) && s != "N/A";
}

// Four values of one half: time algbw busbw #wrong.
bool Half(const std::vector<std::string_view>& w, size_t at, NcclHalf& h) {
  if (at + 4 > w.size()) return false;
  if (!WholeDouble(w[at], h.time_us) || !WholeDouble(w[at + 1], h.algbw_gbs) || !WholeDouble(w[at + 2], h.busbw_gbs))
    return false;
  double wrong = 0;
  if (w[at + 3] == "N/A") {
    h.wrong.reset();
  } else if (WholeDouble(w[at + 3], wrong)) {
    h.wrong = wrong;
  } else {
    return false;
  }
  h.present = true;
  return true;
}

}  // namespace

NcclResult ParseNcclTests(std::string_view text) {
  NcclResult r;
  LineReader reader(text);
  std::string_view line;
  bool header = false;
  UnreadLines unread;
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    // The footer (the oldest versions print it without the '#').
    std::string_view body = t.starts_with("#") ? TrimView(t.substr(1)) : t;
    if (body.starts_with("Out of bounds values")) {
      std::vector<std::string_view> w = SplitWords(body.substr(body.find(':') + 1));
      uint64_t count = 0;
      if (!w.empty() && WholeUnsigned(w[0], count)) r.out_of_bounds = count;
      r.complete = true;
      continue;
    }
    if (body.starts_with("Avg bus bandwidth")) {
      std::vector<std::string_view> w = SplitWords(body.substr(body.find(':') + 1));
      double avg = 0;
      if (!w.empty() && WholeDouble(w[0], avg)) r.avg_busbw_gbs = avg;
      if (w.size() > 1) r.avg_verdict = std::string(w[1]);
      r.complete = true;
      continue;
    }
    if (body.find("size") != std::string_view::npos && body.find("busbw") != std::string_view::npos) {
      header = true;  // the column names (with or without the '#' of the oldest versions)
      continue;
    }
    if (body.starts_with("out-of-place") || body.starts_with("(B)")) continue;  // the header's other two lines
    if (t.starts_with("#")) {
      if (body.starts_with("Collective test starting:")) r.collective = std::string(TrimView(body.substr(25)));
      if (body.starts_with("nThread")) {
        std::vector<std::string_view> w = SplitWords(body);
        for (size_t i = 0; i + 1 < w.size(); ++i) {
          uint64_t g = 0;
          if (w[i] == "nGpus" && WholeUnsigned(w[i + 1], g) && g < 1024) r.gpus_per_thread = static_cast<int>(g);
        }
      }
      if (body.starts_with("Rank ")) {
        // "Rank  0 Group  0 Pid 1942267 on HOST device  0 [0x0f] NVIDIA H100 80GB HBM3"
        std::vector<std::string_view> w = SplitWords(body);
        NcclRank rank;
        uint64_t v = 0;
        if (w.size() >= 2 && WholeUnsigned(w[1], v)) rank.rank = static_cast<int>(v % 1000000);
        for (size_t i = 0; i + 1 < w.size(); ++i) {
          if (w[i] == "Group" && WholeUnsigned(w[i + 1], v)) rank.group = static_cast<int>(v % 1000000);
          if (w[i] == "on") rank.host = std::string(w[i + 1]);
          if (w[i] == "device" && WholeUnsigned(w[i + 1], v)) {
            rank.device = static_cast<int>(v % 1000000);
            if (i + 3 < w.size() + 1) {
              size_t close = body.find(']');
              if (close != std::string_view::npos) rank.gpu = std::string(TrimView(body.substr(close + 1)));
            }
          }
        }
        if (rank.host.empty()) r.warnings.push_back({n, "a rank line without 'on HOST'"});
        r.ranks.push_back(std::move(rank));
      }
      continue;  // the other comment lines: parameters, column units
    }
    std::vector<std::string_view> w = SplitWords(t);
    uint64_t bytes = 0, count = 0;
    if (w.size() >= 7 && WholeUnsigned(w[0], bytes) && WholeUnsigned(w[1], count) && IsWord(w[2])) {
      NcclRow row;
      row.line = n;
      row.bytes = bytes;
      row.count = count;
      row.type = std::string(w[2]);
      // After the type: [redop] [root], then one or two halves of four values.
      size_t at = 3;
      const size_t rest = w.size() - 3;
      if (rest == 10 || rest == 6) {
        row.redop = std::string(w[3]);
        at = 5;
      } else if (rest == 9 || rest == 5) {
        if (IsWord(w[3])) row.redop = std::string(w[3]);
        at = 4;
      }
      bool ok = Half(w, at, row.out_of_place);
      if (ok && at + 8 <= w.size()) ok = Half(w, at + 4, row.in_place);
      if (!ok || (at + 8 != w.size() && at + 4 != w.size())) {
        r.warnings.push_back({n, "a result row with columns railyard cannot place: not read"});
        continue;
      }
      if (!header) r.warnings.push_back({n, "a result row before any table header"});
      r.rows.push_back(std::move(row));
      continue;
    }
    if (t.find("Test NCCL failure") != std::string_view::npos || t.find("Test CUDA failure") != std::string_view::npos ||
        t.find("Test failure") != std::string_view::npos || t.find("Test timeout") != std::string_view::npos ||
        t.starts_with("NCCL WARN") || t.find(" NCCL WARN ") != std::string_view::npos) {
      r.errors.push_back({n, std::string(t.substr(0, 200))});
      continue;
    }
    if (t.starts_with("NCCL version") || t.starts_with("+ ") || t.find("$ ") != std::string_view::npos) continue;
    unread.Note(n, t);
  }
  unread.Warn(r.warnings, "nccl-tests' parameters, table or footer");
  if (!r.complete) {
    r.warnings.push_back({reader.number(), r.rows.empty()
                                               ? "no result row and no footer: the run did not finish (or the output is cut)"
                                               : "no footer after the rows: the run did not finish (or the output is cut)"});
  }
  return r;
}

NcclResult ParseNcclTestsJson(std::string_view json) {
  NcclResult r;
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.warnings.push_back({1, "not JSON, or not the object nccl-tests -J writes"});
    return r;
  }
  auto number = [](const nlohmann::json& v) -> std::optional<double> {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      double x = 0;
      std::string s = v.get<std::string>();
      std::string_view t = TrimView(s);
      if (WholeDouble(t, x)) return x;
    }
    return std::nullopt;
  };
  auto half = [&](const nlohmann::json& h, NcclHalf& out) {
    if (!h.is_object()) return;
    auto time = number(h.contains("time") ? h["time"] : h.value("cpu_time", nlohmann::json()));
    auto alg = number(h.value("alg_bw", nlohmann::json()));
    auto bus = number(h.value("bus_bw", nlohmann::json()));
    if (!alg || !bus) return;
    out.present = true;
    out.time_us = time.value_or(0);
    out.algbw_gbs = *alg;
    out.busbw_gbs = *bus;
    if (auto w = number(h.value("nwrong", nlohmann::json()))) out.wrong = *w;
  };
  if (j.contains("config") && j["config"].is_object()) {
    if (auto g = number(j["config"].value("ngpus", nlohmann::json()))) r.gpus_per_thread = static_cast<int>(*g);
    nlohmann::json devices = j["config"].value("devices", nlohmann::json::array());
    for (const auto& d : devices.is_array() ? devices : nlohmann::json::array()) {
      if (!d.is_object()) continue;
      NcclRank rank;
      rank.rank = static_cast<int>(number(d.value("rank", nlohmann::json())).value_or(0));
      rank.group = static_cast<int>(number(d.value("group", nlohmann::json())).value_or(0));
      rank.device = static_cast<int>(number(d.value("device", nlohmann::json())).value_or(0));
      if (d.contains("hostname") && d["hostname"].is_string()) rank.host = d["hostname"].get<std::string>();
      if (d.contains("device_info") && d["device_info"].is_string()) rank.gpu = d["device_info"].get<std::string>();
      r.ranks.push_back(std::move(rank));
    }
  }
  nlohmann::json results = j.value("results", nlohmann::json::array());
  if (!results.is_array()) {
    r.warnings.push_back({1, "\"results\" is not a list"});
    results = nlohmann::json::array();
  }
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& x = results[i];
    if (!x.is_object()) continue;
    NcclRow row;
    row.line = static_cast<int>(i + 1);  // the i-th result: the compact file has one line
    row.bytes = static_cast<uint64_t>(number(x.value("size", nlohmann::json())).value_or(0));
    row.count = static_cast<uint64_t>(number(x.value("count", nlohmann::json())).value_or(0));
    if (x.contains("type") && x["type"].is_string()) row.type = x["type"].get<std::string>();
    if (x.contains("redop") && x["redop"].is_string()) row.redop = x["redop"].get<std::string>();
    half(x.value("out_of_place", nlohmann::json()), row.out_of_place);
    half(x.value("in_place", nlohmann::json()), row.in_place);
    if (!row.out_of_place.present && !row.in_place.present) {
      r.warnings.push_back({row.line, fmt::format("result {} has no bandwidth: not read", i + 1)});
      continue;
    }
    r.rows.push_back(std::move(row));
  }
  if (j.contains("out_of_bounds") && j["out_of_bounds"].is_object()) {
    if (auto c = number(j["out_of_bounds"].value("count", nlohmann::json()))) r.out_of_bounds = static_cast<uint64_t>(*c);
    r.complete = true;
  }
  if (j.contains("average_bus_bandwidth") && j["average_bus_bandwidth"].is_object()) {
    r.avg_busbw_gbs = number(j["average_bus_bandwidth"].value("bandwidth", nlohmann::json()));
    const nlohmann::json& ok = j["average_bus_bandwidth"].value("okay", nlohmann::json());
    std::string okay = ok.is_string() ? ok.get<std::string>() : "";
    r.avg_verdict = okay == "true" ? "OK" : okay == "false" ? "FAILED" : "";
    r.complete = true;
  }
  nlohmann::json errors = j.value("errors", nlohmann::json::array());
  for (const auto& e : errors.is_array() ? errors : nlohmann::json::array()) {
    if (e.is_string() && !e.get<std::string>().empty()) r.errors.push_back({1, e.get<std::string>()});
  }
  if (!r.complete) r.warnings.push_back({1, "no out_of_bounds or average_bus_bandwidth: the run did not finish"});
  return r;
}

}  // namespace railyard
