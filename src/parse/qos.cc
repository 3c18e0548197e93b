#include "parse/qos.h"

#include <charconv>

#include <fmt/format.h>

#include "parse/key_value.h"
#include "util/lines.h"
#include "util/text.h"

namespace railyard {
namespace {

std::optional<int64_t> Number(std::string_view s) {
  s = TrimSpace(s);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || s.empty()) return std::nullopt;
  return v;
}

// "enabled     0   0   0   1 ..." → the eight values.
bool ReadRow(std::string_view rest, PerPriority& row) {
  auto words = SplitWords(rest);
  if (words.size() != 8) return false;
  PerPriority values;
  for (size_t i = 0; i < 8; ++i) {
    auto v = Number(words[i]);
    if (!v || *v < 0 || *v > 7) return false;
    values[i] = static_cast<int>(*v);
  }
  row = values;
  return true;
}

}  // namespace

std::vector<int> MlnxQos::PfcPriorities() const {
  std::vector<int> out;
  for (int p = 0; p < 8; ++p) {
    if (pfc_enabled[p] == 1) out.push_back(p);
  }
  return out;
}

MlnxQos ParseMlnxQos(std::string_view text) {
  MlnxQos q;
  LineReader lines(text);
  std::string_view raw;
  TrafficClass* tc = nullptr;
  auto warn = [&](const std::string& message) { q.warnings.push_back({lines.number(), message}); };
  while (lines.Next(raw)) {
    std::string_view line = TrimSpace(raw);
    if (line.empty()) continue;
    auto after = [&](std::string_view prefix) { return TrimSpace(line.substr(prefix.size())); };
    if (line.starts_with("DCBX mode:")) {
      q.dcbx_mode = std::string(after("DCBX mode:"));
    } else if (line.starts_with("Priority trust state:") || line.starts_with("Priority trust mode:")) {
      q.trust = std::string(TrimSpace(line.substr(line.find(':') + 1)));
    } else if (line.starts_with("prio:") && line.find("dscp:") != std::string_view::npos) {
      // "prio:3 dscp:31,30,29,28,27,26,25,24,"
      auto prio = Number(line.substr(5, line.find(' ') - 5));
      if (!prio || *prio < 0 || *prio > 7) {
        warn(fmt::format("dscp2prio line without a priority 0-7: {}", line));
        continue;
      }
      for (std::string_view d : SplitWords(line.substr(line.find("dscp:") + 5), ',')) {
        auto dscp = Number(d);
        if (!dscp || *dscp < 0 || *dscp > 63) {
          warn(fmt::format("dscp value out of 0-63: {}", d));
          continue;
        }
        q.dscp_to_priority[static_cast<size_t>(*dscp)] = static_cast<int>(*prio);
      }
    } else if (line.starts_with("Receive buffer size (bytes):")) {
      for (std::string_view w : SplitWords(after("Receive buffer size (bytes):"), ',')) {
        if (w.starts_with("max_buffer_size=")) {
          if (auto v = Number(w.substr(16)); v && *v >= 0) q.max_buffer_bytes = static_cast<uint64_t>(*v);
        } else if (auto v = Number(w); v && *v >= 0) {
          q.receive_buffer_bytes.push_back(static_cast<uint64_t>(*v));
        } else {
          warn(fmt::format("receive buffer size not a number: {}", w));
        }
      }
    } else if (line.starts_with("Cable len:")) {
      if (auto v = Number(after("Cable len:")); v && *v >= 0 && *v < 100000) q.cable_length_m = static_cast<int>(*v);
    } else if (line.starts_with("enabled ") || line.starts_with("enabled\t")) {
      if (!ReadRow(line.substr(7), q.pfc_enabled)) warn("PFC `enabled` row does not hold eight 0/1 values");
    } else if (line.starts_with("buffer ") || line.starts_with("buffer\t")) {
      if (!ReadRow(line.substr(6), q.pfc_buffer)) warn("PFC `buffer` row does not hold eight values");
    } else if (line.starts_with("tc:")) {
      // "tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%"
      TrafficClass t;
      size_t space = line.find(' ', 4);
      auto id = Number(line.substr(3, space == std::string_view::npos ? std::string_view::npos : space - 3));
      if (!id || *id < 0 || *id > 7) {
        warn(fmt::format("traffic class line without a tc 0-7: {}", line));
        tc = nullptr;
        continue;
      }
      t.tc = static_cast<int>(*id);
      std::string_view rest = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
      while (!rest.empty()) {
        size_t comma = rest.find(',');
        std::string_view field = TrimSpace(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        size_t colon = field.find(':');
        if (colon == std::string_view::npos) continue;
        std::string_view key = TrimSpace(field.substr(0, colon)), value = TrimSpace(field.substr(colon + 1));
        if (key == "ratelimit")
          t.rate_limit = std::string(value);
        else if (key == "tsa")
          t.tsa = std::string(value);
        else if (key == "bw") {
          if (auto v = Number(value.substr(0, value.find('%'))); v && *v >= 0 && *v <= 100) {
            t.bandwidth_percent = static_cast<int>(*v);
          }
        }
      }
      q.traffic_classes.push_back(std::move(t));
      tc = &q.traffic_classes.back();
    } else if (line.starts_with("priority:")) {
      auto p = Number(after("priority:"));
      if (!tc)
        warn("a priority line before any `tc:` line");
      else if (!p || *p < 0 || *p > 7)
        warn(fmt::format("priority out of 0-7: {}", line));
      else
        tc->priorities.push_back(static_cast<int>(*p));
    }
    // Other lines (the "priority 0 1 2 ..." header, "PFC configuration:", "dscp2prio mapping:",
    // "tc: ... " sub-headers of newer versions) carry nothing we keep.
  }
  if (q.trust.empty() && q.pfc_enabled[0] == -1) q.warnings.push_back({0, "no trust state and no PFC row: not mlnx_qos output"});
  return q;
}

bool EcnState::Known() const {
  for (int p = 0; p < 8; ++p) {
    if (np_enabled[p] != -1 || rp_enabled[p] != -1) return true;
  }
  return false;
}

bool SetEcn(EcnState& ecn, std::string_view point, int priority, std::string_view value) {
  if (priority < 0 || priority > 7) return false;
  auto v = Number(value);
  if (!v || (*v != 0 && *v != 1)) return false;
  if (point == "roce_np")
    ecn.np_enabled[static_cast<size_t>(priority)] = static_cast<int>(*v);
  else if (point == "roce_rp")
    ecn.rp_enabled[static_cast<size_t>(priority)] = static_cast<int>(*v);
  else
    return false;
  return true;
}

EcnState ParseEcnGrep(std::string_view text) {
  EcnState ecn;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    line = TrimSpace(line);
    if (line.empty()) continue;
    // ".../ecn/roce_np/enable/3:1"
    size_t at = line.find("/ecn/");
    size_t colon = line.rfind(':');
    if (at == std::string_view::npos || colon == std::string_view::npos || colon < at) {
      ecn.warnings.push_back({lines.number(), fmt::format("not a PATH:VALUE line under ecn/: {}", line)});
      continue;
    }
    std::string_view path = line.substr(at + 5, colon - at - 5);  // "roce_np/enable/3"
    std::string_view point = path.substr(0, path.find('/'));
    size_t slash = path.rfind('/');
    auto priority = Number(path.substr(slash + 1));
    if (path.find("/enable/") == std::string_view::npos) continue;  // other knobs (cnp_dscp ...) are not kept
    if (!priority || !SetEcn(ecn, point, static_cast<int>(*priority), line.substr(colon + 1))) {
      ecn.warnings.push_back({lines.number(), fmt::format("ECN value not understood: {}", line)});
    }
  }
  return ecn;
}

}  // namespace railyard
