#include "parse/perftest.h"

#include <cctype>

#include <fmt/format.h>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

// "Device         : mlx5_1" inside a banner line holding one or two fields: the word after `key`'s colon.
std::string FieldValue(std::string_view line, std::string_view key) {
  size_t at = line.find(key);
  while (at != std::string_view::npos && at > 0 && !std::isspace(static_cast<unsigned char>(line[at - 1])))
    at = line.find(key, at + 1);
  if (at == std::string_view::npos) return "";
  size_t colon = line.find(':', at + key.size());
  if (colon == std::string_view::npos || TrimView(line.substr(at + key.size(), colon - at - key.size())).size() != 0) return "";
  std::string_view rest = TrimView(line.substr(colon + 1));
  size_t end = rest.find_first_of(" \t");
  return std::string(rest.substr(0, end));
}

// Error lines perftest (and the verbs library under it) prints when a run fails.
bool IsErrorLine(std::string_view t) {
  for (std::string_view start :
       {"Couldn't", "Couldnt", "Unable", "Failed", "Completion with error", "Error", "ERROR", "error:", "Port number",
        "Conflicting", "ibv_", "mlx5:", "Problems", "Requested SL", "Receive", "Client", "Server"}) {
    if (!t.starts_with(start)) continue;
    // Warnings and advice that start the same way.
    if (start == "Conflicting") return false;  // "Conflicting CPU frequency values detected": a warning
    if ((start == "Client" || start == "Server" || start == "Receive") && t.find("fail") == std::string_view::npos &&
        t.find("error") == std::string_view::npos) {
      return false;
    }
    if (start == "ibv_" || start == "mlx5:")
      return t.find("fail") != std::string_view::npos || t.find("error") != std::string_view::npos;
    return true;
  }
  return t.find("Failed status") != std::string_view::npos || t.find("failed to") != std::string_view::npos ||
         t.find("Failed to") != std::string_view::npos;
}

}  // namespace

PerftestResult ParsePerftest(std::string_view text) {
  PerftestResult r;
  LineReader reader(text);
  std::string_view line;
  enum class Table { kNone, kBw, kLat, kLatDuration } table = Table::kNone;
  double to_gbps = 1;
  UnreadLines unread;
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.find_first_not_of('-') == std::string_view::npos && t.size() >= 20) {
      if (table != Table::kNone && (!r.bw.empty() || !r.lat.empty())) r.complete = true;
      continue;
    }
    if (t.starts_with("#bytes")) {
      if (t.find("BW average[") != std::string_view::npos) {
        table = Table::kBw;
        size_t open = t.find("BW average[") + 11, close = t.find(']', open);
        r.unit = std::string(t.substr(open, close == std::string_view::npos ? 0 : close - open));
        if (r.unit == "Gb/sec") {
          to_gbps = 1;
        } else if (r.unit == "MB/sec" || r.unit == "MiB/sec") {
          to_gbps = 1048576.0 * 8 / 1e9;  // perftest's MB is 2^20 bytes (format_factor 0x100000)
        } else {
          r.warnings.push_back({n, fmt::format("bandwidth unit '{}' not known: rows not read", r.unit)});
          table = Table::kNone;
        }
      } else if (t.find("t_min[") != std::string_view::npos) {
        table = Table::kLat;
        r.unit = "usec";
      } else if (t.find("t_avg[") != std::string_view::npos) {
        table = Table::kLatDuration;
        r.unit = "usec";
      } else {
        r.warnings.push_back({n, "a result header of a kind railyard does not read"});
        table = Table::kNone;
      }
      r.complete = false;
      continue;
    }
    // A result row: numbers only.
    std::vector<std::string_view> w = SplitWords(t);
    uint64_t bytes = 0, iterations = 0;
    if (table != Table::kNone && w.size() >= 4 && WholeUnsigned(w[0], bytes) && WholeUnsigned(w[1], iterations)) {
      std::vector<double> v;
      bool ok = true;
      for (size_t i = 2; i < w.size() && ok; ++i) {
        double x = 0;
        ok = WholeDouble(w[i], x);
        v.push_back(x);
      }
      if (ok && table == Table::kBw && v.size() >= 3) {
        PerftestBwRow row;
        row.line = n;
        row.bytes = bytes;
        row.iterations = iterations;
        // A peak of 0.00 is "not measured" (-D, --run_infinitely): pastes often drop the WARNING line.
        if (v[0] > 0) row.peak_gbps = v[0] * to_gbps;
        if (v[0] == 0 && v[1] > 0) r.peak_not_measured = true;
        row.average_gbps = v[1] * to_gbps;
        row.msg_rate_mpps = v[2];
        // Rows repeated after the closing line (some harnesses print the last one again) are one.
        if (!r.bw.empty() && r.complete && r.bw.back().bytes == bytes && r.bw.back().average_gbps == row.average_gbps) continue;
        r.bw.push_back(row);
        continue;
      }
      if (ok && table == Table::kLat && v.size() >= 5) {
        PerftestLatRow row;
        row.line = n;
        row.bytes = bytes;
        row.iterations = iterations;
        row.t_min_us = v[0];
        row.t_max_us = v[1];
        row.t_typical_us = v[2];
        row.t_avg_us = v[3];
        if (v.size() >= 7) {
          row.t_p99_us = v[5];
          row.t_p999_us = v[6];
        }
        r.lat.push_back(row);
        continue;
      }
      if (ok && table == Table::kLatDuration && v.size() >= 2) {
        PerftestLatRow row;
        row.line = n;
        row.bytes = bytes;
        row.iterations = iterations;
        row.t_avg_us = v[0];
        r.lat.push_back(row);
        continue;
      }
      r.warnings.push_back({n, "a result row with fewer or other columns than its header: not read"});
      continue;
    }
    if (t.starts_with("WARNING: BW peak won't be measured")) {
      r.peak_not_measured = true;
      continue;
    }
    if (t.ends_with(" Test") && t.find(':') == std::string_view::npos && r.test.empty()) {
      r.test = std::string(t);
      r.bidirectional = t.find("Bidirectional") != std::string_view::npos;
      continue;
    }
    if (IsErrorLine(t)) {
      r.errors.push_back({n, std::string(t)});
      continue;
    }
    // The banner and connection lines.
    if (std::string d = FieldValue(t, "Device"); !d.empty() && r.device.empty()) {
      r.device = d;
      continue;
    }
    if (std::string lt = FieldValue(t, "Link type"); !lt.empty()) {
      r.link_type = lt;
      continue;
    }
    if (std::string q = FieldValue(t, "Number of qps"); !q.empty()) {
      uint64_t qps = 0;
      if (WholeUnsigned(q, qps) && qps < 1u << 20) r.qps = static_cast<int>(qps);
      continue;
    }
    // A banner field: words, then a colon ("PCIe relax order: ON", "rdma_cm QPs\t : OFF").
    size_t colon = t.find(':');
    bool field = colon != std::string_view::npos && colon > 0 && colon + 1 < t.size() &&
                 std::isspace(static_cast<unsigned char>(t[colon + 1])) && std::isalpha(static_cast<unsigned char>(t[0]));
    for (size_t i = 0; field && i < colon; ++i) {
      const char c = t[i];
      field = std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '\t' || c == '_' || c == '.' || c == '*' ||
              c == '-' || c == '/';
    }
    if (field || t.starts_with("local address:") || t.starts_with("remote address:") || t.starts_with("GID:") ||
        t.starts_with("WARNING") || t.starts_with("Conflicting CPU") || t.starts_with("Requested mtu") ||
        t.starts_with("Changing to active mtu")) {
      continue;  // the banner's other fields, QP addresses, advice: nothing railyard uses
    }
    unread.Note(n, t);
  }
  unread.Warn(r.warnings, "perftest's banner, table or errors");
  if (table != Table::kNone && r.bw.empty() && r.lat.empty() && r.errors.empty()) {
    r.warnings.push_back(
        {reader.number(), "the result header has no row after it: the run did not finish (or the output is cut)"});
  }
  if (table == Table::kNone && r.errors.empty()) {
    r.warnings.push_back({reader.number(), "no result table: not perftest output, or the run ended before it"});
  }
  return r;
}

PerftestResult ParsePerftestJson(std::string_view json, bool gbits) {
  // Read line by line: perftest writes one "key": value per line, and some of its forms are not
  // valid JSON (a trailing comma with --output=bandwidth, an unquoted sl: with QoS).
  PerftestResult r;
  r.unit = gbits ? "Gb/sec" : "MiB/sec";
  const double to_gbps = gbits ? 1 : 1048576.0 * 8 / 1e9;
  LineReader reader(json);
  std::string_view line;
  PerftestBwRow bw;
  PerftestLatRow lat;
  bool have_bw = false, have_lat = false, in_results = false;
  while (reader.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.starts_with("\"results\"")) in_results = true;
    size_t colon = t.find(':');
    if (t.size() < 3 || t[0] != '"' || colon == std::string_view::npos) continue;
    std::string_view key = t.substr(1, t.find('"', 1) - 1);
    std::string_view value = TrimView(t.substr(colon + 1));
    if (value.ends_with(',')) value.remove_suffix(1);
    if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    double x = 0;
    const bool number = WholeDouble(value, x);
    if (key == "test") {
      r.test = std::string(value);
      for (char& c : r.test) c = c == '_' ? ' ' : c;
      r.bidirectional = r.test.find("Bidirectional") != std::string::npos;
    } else if (key == "Device") {
      r.device = std::string(value);
    } else if (key == "Link_type") {
      r.link_type = std::string(value);
    } else if (key == "Number_of_qps" && number) {
      r.qps = static_cast<int>(x);
    } else if (in_results && number) {
      if (key == "MsgSize")
        bw.bytes = lat.bytes = static_cast<uint64_t>(x);
      else if (key == "n_iterations")
        bw.iterations = lat.iterations = static_cast<uint64_t>(x);
      else if (key == "BW_peak") {
        if (x > 0)
          bw.peak_gbps = x * to_gbps;
        else
          r.peak_not_measured = true;
      } else if (key == "BW_average" || key == "bw_avg") {
        bw.average_gbps = x * to_gbps;
        bw.line = reader.number();
        have_bw = true;
      } else if (key == "MsgRate")
        bw.msg_rate_mpps = x;
      else if (key == "t_avg" || key == "avg_lat") {
        lat.t_avg_us = x;
        lat.line = reader.number();
        have_lat = true;
      } else if (key == "t_min")
        lat.t_min_us = x;
      else if (key == "t_max")
        lat.t_max_us = x;
      else if (key == "t_typical")
        lat.t_typical_us = x;
      else if (key == "percentile_99")
        lat.t_p99_us = x;
      else if (key == "percentile_99.9")
        lat.t_p999_us = x;
    }
  }
  if (have_bw) r.bw.push_back(bw);
  if (have_lat) {
    r.lat.push_back(lat);
    r.unit = "usec";
  }
  r.complete = have_bw || have_lat;
  if (!r.complete)
    r.warnings.push_back(
        {reader.number(), "no \"results\" with a bandwidth or latency: the run did not finish, or not perftest JSON"});
  return r;
}

}  // namespace railyard
