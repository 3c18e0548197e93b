#include "parse/switch_qos.h"
#include "util/text.h"

#include <cctype>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

// "0,3" -> {0, 3}; "-" or "" -> {}; false when a part is not a number 0..7.
bool PriorityList(std::string_view text, std::vector<int>& out) {
  out.clear();
  text = TrimView(text);
  if (text.empty() || text == "-") return true;
  for (std::string_view part : SplitWords(text, ',')) {
    uint64_t v = 0;
    if (!WholeUnsigned(part, v) || v > 7) return false;
    out.push_back(static_cast<int>(v));
  }
  return true;
}

}  // namespace

int SwitchQos::TcOf(int priority, bool& assumed) const {
  auto it = prio_to_tc.find(priority);
  assumed = it == prio_to_tc.end();
  return assumed ? priority : it->second;
}

SwitchQosReport ParseNvueQosRoce(std::string_view text) {
  SwitchQosReport r;
  SwitchQos q;
  UnreadLines unread;
  std::string section;    // pfc, congestion-control, trust, lldp-app-tlv ... (unindented keys with no value)
  std::string table;      // the "=====" titled table being read
  int value_column = -1;  // where the operational column starts, from the dashes under the header
  LineReader lines(text);
  std::string_view line, previous;
  bool any = false, ecn_mode_off = false;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) {
      previous = t;
      continue;
    }
    if (t.find_first_not_of("=") == std::string_view::npos) {  // the rule under a table's title
      table = std::string(TrimView(previous));
      previous = t;
      continue;
    }
    if (t.find_first_not_of("- ") == std::string_view::npos) {
      if (table.empty() && value_column < 0) {
        // The dashes under "operational applied": the second run starts the operational column.
        const size_t gap = line.find(' ', line.find('-'));
        const size_t second = gap == std::string_view::npos ? gap : line.find('-', gap);
        value_column = second == std::string_view::npos ? -1 : static_cast<int>(second);
      }
      previous = t;
      continue;
    }
    previous = t;
    if (!table.empty()) {
      if (table.starts_with("RoCE SP->TC")) {
        // "3  3  3  DWRR-50%" or "roce  3  3  dwrr-50%": the switch-prio and traffic-class columns.
        std::vector<std::string_view> w = SplitWords(t);
        uint64_t prio = 0, tc = 0;
        if (w.size() >= 3 && WholeUnsigned(w[1], prio) && WholeUnsigned(w[2], tc) && prio <= 7 && tc <= 7) {
          q.prio_to_tc[static_cast<int>(prio)] = static_cast<int>(tc);
        } else if (!(w.size() >= 2 && (w[0] == "switch-prio" || w[1] == "switch-prio")) && !t.starts_with("RoCE ")) {
          // (a "RoCE ..." line is the next table's title, read when its "====" rule follows)
          unread.Note(n, t);
        }
      }
      continue;  // the other tables (DSCP maps, pools, exceptions) describe buffers, not what is compared
    }
    if (t.starts_with("operational") || t.starts_with("RoCE ") || t == "No Data") continue;
    const bool indented = line.front() == ' ';
    std::vector<std::string_view> w = SplitWords(t);
    const std::string key(w[0]);
    // The operational value: the text from the operational column to the applied one; "" when blank.
    std::string_view value;
    if (value_column > 0 && static_cast<size_t>(value_column) < line.size()) {
      std::string_view rest = line.substr(value_column);
      // Columns are separated by two or more spaces; a value may hold one ("ecn, absolute", "146.48 KB").
      const size_t gap = rest.find("  ");
      value = TrimView(rest.substr(0, gap));
    } else if (w.size() > 1) {
      value = w[1];
    }
    if (!indented) {
      section = key;
      if (key == "mode") q.mode = std::string(value), any = true;
      continue;
    }
    if (section == "pfc" && key == "pfc-priority") {
      if (PriorityList(value, q.pfc_priorities))
        q.pfc_read = any = true;
      else
        unread.Note(n, t);
    } else if (section == "congestion-control" && key == "congestion-mode") {
      q.ecn_read = any = true;
      ecn_mode_off = Lower(value).find("ecn") == std::string::npos;
    } else if (section == "congestion-control" && key == "enabled-tc") {
      std::vector<int> tcs;
      if (PriorityList(value, tcs))
        q.ecn_tcs = tcs, q.ecn_read = any = true;
      else
        unread.Note(n, t);
    } else if (section == "trust" && key == "trust-mode") {
      q.trust = Lower(value);
      any = true;
    }
  }
  if (ecn_mode_off) q.ecn_tcs.clear();  // "enabled-tc" under a mode that is not ECN marks nothing
  unread.Warn(r.warnings, "`nv show qos roce` keys or SP->TC rows");
  if (!any) {
    r.warnings.push_back({0, "no mode, pfc-priority, congestion-control or trust-mode: not `nv show qos roce` output"});
    return r;
  }
  q.line = 1;
  r.ports[""] = std::move(q);
  return r;
}

SwitchQosReport ParseEosQosInterfaces(std::string_view text) {
  SwitchQosReport r;
  UnreadLines unread;
  SwitchQos* q = nullptr;
  bool queues = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    const bool top = line.front() != ' ' && line.front() != '\t';
    if (top && t.ends_with(":") && t.find(' ') == std::string_view::npos) {
      std::string name(t.substr(0, t.size() - 1));
      q = &r.ports[name];
      q->line = n;
      q->ecn_read = false;
      queues = false;
      continue;
    }
    if (top && t.find('#') != std::string_view::npos) {  // a prompt: said, and the next block starts over
      unread.Note(n, t);
      q = nullptr;
      queues = false;
      continue;
    }
    if (top && (t.starts_with("Legend") || t.find("->") != std::string_view::npos)) {
      queues = false;  // the legend under the tables
      continue;
    }
    if (!q) {
      if (!t.starts_with("ECN/WRED:") && !t.starts_with("RR ") && !t.starts_with("SP ") && !t.starts_with("- ") &&
          !t.starts_with("% ")) {
        unread.Note(n, t);
      }
      continue;
    }
    if (t.starts_with("Trust Mode:")) {
      q->trust = Lower(TrimView(t.substr(11)));
      continue;
    }
    if (t.starts_with("Tx ") || t.starts_with("Queue") || t.find_first_not_of("-") == std::string_view::npos) {
      queues = t.find_first_not_of("-") == std::string_view::npos || queues;
      continue;
    }
    if (queues) {
      // "3   25   - ( - )   24.9   (Gbps)   SP   D": the queue first, ECN/WRED last.
      std::vector<std::string_view> w = SplitWords(t);
      uint64_t queue = 0;
      if (w.size() < 3 || !WholeUnsigned(w[0], queue) || queue > 7 || (w.back() != "L" && w.back() != "W" && w.back() != "D")) {
        unread.Note(n, t);
        continue;
      }
      q->ecn_read = true;
      if (w.back() == "L") q->ecn_tcs.push_back(static_cast<int>(queue));
      continue;
    }
    // Default COS, Default DSCP, Port shaping rate: settings this rule does not compare.
    if (t.find(':') == std::string_view::npos) unread.Note(n, t);
  }
  unread.Warn(r.warnings, "`show qos interfaces` lines (an \"<If>:\" block, Trust Mode, the Tx-queue table)");
  if (r.ports.empty()) r.warnings.push_back({0, "no \"<interface>:\" block: not `show qos interfaces` output"});
  return r;
}

}  // namespace railyard
