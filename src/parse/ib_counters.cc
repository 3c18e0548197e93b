#include "parse/ib_counters.h"

#include <algorithm>
#include <cctype>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

// "0x7cfe900300179b31" (not zero-padded in ibqueryerrors) -> "0x7cfe900300179b31" lower case, or "".
std::string Guid(std::string_view w) {
  if (w.size() < 3 || w.size() > 18 || w[0] != '0' || (w[1] != 'x' && w[1] != 'X')) return {};
  std::string out = "0x";
  for (char c : w.substr(2)) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return {};
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// "[Name == 123]" or "[Name == 123 (1.230K)]" pairs of a port line; false on any other shape.
bool ReadBrackets(std::string_view s, std::map<std::string, uint64_t>& out) {
  s = TrimView(s);
  while (!s.empty()) {
    if (s.front() != '[') return false;
    const size_t close = s.find(']');
    if (close == std::string_view::npos) return false;
    std::string_view item = s.substr(1, close - 1);
    const size_t eq = item.find(" == ");
    if (eq == std::string_view::npos) return false;
    std::string_view value = TrimView(item.substr(eq + 4));
    value = value.substr(0, value.find(' '));  // the human-readable "(1.230K)" after it
    uint64_t v = 0;
    if (!WholeUnsigned(value, v)) return false;
    out[std::string(TrimView(item.substr(0, eq)))] = v;
    s = TrimView(s.substr(close + 1));
  }
  return true;
}

}  // namespace

std::string_view IbErrorKey(std::string_view c) {
  struct Name {
    std::string_view iba, old, key;
  };
  static const Name kNames[] = {
      {"SymbolErrorCounter", "SymbolErrors", "symbol"},
      {"LinkErrorRecoveryCounter", "LinkRecovers", "link_recovery"},
      {"LinkDownedCounter", "LinkDowned", "link_downed"},
      {"PortRcvErrors", "RcvErrors", "rx"},
      {"PortRcvRemotePhysicalErrors", "RcvRemotePhysErrors", "rx_remote_physical"},
      {"PortRcvSwitchRelayErrors", "RcvSwRelayErrors", "rx_switch_relay"},
      {"PortXmitDiscards", "XmtDiscards", "xmit_discards"},
      {"PortXmitConstraintErrors", "XmtConstraintErrors", "tx_constraint"},
      {"PortRcvConstraintErrors", "RcvConstraintErrors", "rx_constraint"},
      {"LocalLinkIntegrityErrors", "LinkIntegrityErrors", "local_link_integrity"},
      {"ExcessiveBufferOverrunErrors", "ExcBufOverrunErrors", "buffer_overrun"},
      {"VL15Dropped", "VL15Dropped", "vl15_dropped"},
      {"PortXmitWait", "XmtWait", "xmit_wait"},
      {"QP1Dropped", "QP1Dropped", "qp1_dropped"},
  };
  for (const Name& n : kNames) {
    if (c == n.iba || c == n.old) return n.key;
  }
  return {};
}

uint64_t IbCounterMax(std::string_view key) {
  if (key == "local_link_integrity" || key == "buffer_overrun") return 15;
  if (key == "link_recovery" || key == "link_downed" || key == "tx_constraint" || key == "rx_constraint") return 255;
  if (key == "xmit_wait") return 4294967295ull;
  return 65535;
}

IbCountersReport ParseIbqueryerrors(std::string_view text) {
  IbCountersReport r;
  UnreadLines unread;
  std::string guid, desc;
  bool is_switch = false, in_node = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("Errors for ") || t.starts_with("Data Counters for ")) {
      std::string_view rest = t.substr(t.find(" for ") + 5);
      const size_t q1 = rest.find('"'), q2 = rest.rfind('"');
      if (q1 == std::string_view::npos || q2 <= q1) {
        unread.Note(n, t);
        in_node = false;
        continue;
      }
      guid = Guid(TrimView(rest.substr(0, q1)));
      is_switch = !guid.empty();
      desc = std::string(rest.substr(q1 + 1, q2 - q1 - 1));
      in_node = t.starts_with("Errors for ");  // data counters are not errors: read, not kept
      continue;
    }
    if (t.starts_with("GUID ")) {
      // "GUID 0x2c903006e29b0 port 5: [SymbolErrorCounter == 65535] [...]"
      const size_t colon = t.find(':');
      std::vector<std::string_view> w = SplitWords(t.substr(0, colon == std::string_view::npos ? 0 : colon));
      IbPortCounters p;
      p.line = n;
      uint64_t port = 0;
      if (colon == std::string_view::npos || w.size() != 4 || w[2] != "port" || Guid(w[1]).empty() ||
          (w[3] != "ALL" && (!WholeUnsigned(w[3], port) || port > 255)) || !ReadBrackets(t.substr(colon + 1), p.counters)) {
        unread.Note(n, t);
        continue;
      }
      if (!in_node) continue;
      p.port = w[3] == "ALL" ? -1 : static_cast<int>(port);
      // A switch's ports share its GUID; a CA's port GUID is its own, so the node is named by its header.
      p.node_guid = is_switch ? guid : Guid(w[1]);
      p.node_desc = desc;
      p.is_switch = is_switch;
      r.ports.push_back(std::move(p));
      continue;
    }
    if (t.starts_with("Link info:")) continue;  // -r: the port's link, as iblinkinfo prints it
    if (t.starts_with("## Summary:")) continue;
    if (t.starts_with("##")) {
      // "##          226 ports checked, 1 ports have errors beyond threshold"
      std::vector<std::string_view> w = SplitWords(t.substr(2));
      uint64_t checked = 0;
      if (w.size() >= 3 && w[1] == "ports" && w[2] == "checked," && WholeUnsigned(w[0], checked))
        r.ports_checked = static_cast<int>(checked);
      continue;
    }
    unread.Note(n, t);
  }
  unread.Warn(r.warnings, "ibqueryerrors node headers, port counter lines or summary");
  if (r.ports_checked < 0) {
    r.warnings.push_back(
        {lines.number(), "no \"## Summary\" footer: the output is cut short, so a port not listed may not have been checked"});
  }
  return r;
}

IbCountersReport ParsePerfquery(std::string_view text) {
  IbCountersReport r;
  UnreadLines unread;
  IbPortCounters* block = nullptr;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("# ")) {
      // "# Port extended counters: Lid 2052 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)"
      const size_t colon = t.find(": ");
      std::vector<std::string_view> w = SplitWords(colon == std::string_view::npos ? std::string_view() : t.substr(colon + 2));
      uint64_t lid = 0, port = 0;
      if (w.size() < 4 || w[0] != "Lid" || w[2] != "port" || !WholeUnsigned(w[1], lid) || !WholeUnsigned(w[3], port) ||
          lid > 0xffff || port > 255) {
        unread.Note(n, t);  // a DR path, or not a counters header
        block = nullptr;
        continue;
      }
      r.ports.push_back({});
      block = &r.ports.back();
      block->lid = static_cast<int>(lid);
      block->port = port == 255 ? -1 : static_cast<int>(port);
      block->line = n;
      continue;
    }
    const size_t colon = t.find(':');
    if (!block || colon == std::string_view::npos) {
      unread.Note(n, t);
      continue;
    }
    std::string_view value = t.substr(colon + 1);
    value.remove_prefix(std::min(value.size(), value.find_first_not_of('.')));
    uint64_t v = 0;
    if (value.starts_with("0x")) continue;  // PortSelect, CounterSelect: masks, not counts
    if (!WholeUnsigned(TrimView(value), v)) {
      unread.Note(n, t);
      continue;
    }
    block->counters[std::string(t.substr(0, colon))] = v;
  }
  unread.Warn(r.warnings, "perfquery counter headers (\"# Port counters: Lid L port P\") or \"Name:....value\" rows");
  if (r.ports.empty()) r.warnings.push_back({0, "no \"# Port counters: Lid L port P\" block: not perfquery output"});
  return r;
}

}  // namespace railyard
