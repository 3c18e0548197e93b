#include "parse/iblinkinfo.h"

#include <cmath>
#include <memory>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

// Lane signalling rate (Gb/s, as libibmad prints it) to the nominal per-lane data rate railyard
// plans with: SDR/DDR/QDR lose 8b/10b, FDR and later are quoted by their marketing rate.
double NominalLane(double gbps, bool fdr10) {
  if (fdr10) return 10;
  struct Pair {
    double signal, nominal;
  };
  static const Pair kLanes[] = {{2.5, 2},       {5.0, 4},     {10.0, 8},     {10.3125, 10}, {14.0625, 14},
                                {25.78125, 25}, {53.125, 50}, {106.25, 100}, {212.5, 200}};
  for (const Pair& p : kLanes) {
    if (std::fabs(gbps - p.signal) < 0.01) return p.nominal;
  }
  return std::floor(gbps);
}

// "4X" -> 4; 0 when not a width.
int Width(std::string_view w) {
  if (w.size() < 2 || w.back() != 'X') return 0;
  uint64_t n = 0;
  return WholeUnsigned(w.substr(0, w.size() - 1), n) && n >= 1 && n <= 12 ? static_cast<int>(n) : 0;
}

// "<LID> <port>[<ext>]" at the start of `words` (from index i): true when read.
bool LidPort(const std::vector<std::string_view>& words, size_t i, int& lid, int& port, std::string& ext) {
  if (i + 1 >= words.size()) return false;
  uint64_t l = 0, p = 0;
  std::string_view pw = words[i + 1];
  const size_t open = pw.find('[');
  if (open == std::string_view::npos) return false;
  if (!WholeUnsigned(words[i], l) || l > 0xffff || !WholeUnsigned(pw.substr(0, open), p) || p > 255) return false;
  lid = static_cast<int>(l);
  port = static_cast<int>(p);
  std::string_view e = pw.substr(open + 1);
  // "[  ]" splits into "1[" and "]"; "[12]" stays "1[12]".
  if (e.ends_with("]")) e.remove_suffix(1);
  ext = std::string(TrimView(e));
  return true;
}

bool IsGuid(std::string_view w) {
  if (w.size() < 3 || w.size() > 18 || w[0] != '0' || (w[1] != 'x' && w[1] != 'X')) return false;
  for (char c : w.substr(2)) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// "(<width> <speed> Gbps[ (FDR10)] <state>/<physstate>)[ (HOQ:..)]" without the outer "==" marks.
bool ReadLink(std::string_view link, IbLinkPort& p) {
  if (!link.starts_with("(")) return false;
  link.remove_prefix(1);
  const size_t close = link.find(')');
  std::string_view body = link.substr(0, close);
  // FDR10's own parenthesis sits inside the body: "10.0 Gbps (FDR10) Active/  LinkUp".
  if (body.ends_with("(FDR10")) {
    const size_t next = link.find(')', close + 1);
    body = link.substr(0, next);
  }
  const size_t slash = body.rfind('/');
  if (slash == std::string_view::npos) return false;
  p.physstate = std::string(TrimView(body.substr(slash + 1)));
  std::vector<std::string_view> w = SplitWords(body.substr(0, slash));
  if (w.empty() || p.physstate.empty()) return false;
  p.state = std::string(w.back());
  w.pop_back();
  if (w.empty()) return true;  // "Down/ Polling"
  // Up (or an old release's down port): width, lane speed, "Gbps", maybe "(FDR10)".
  if (w.size() < 3 || w[2] != "Gbps") return false;
  p.width = Width(w[0]);
  if (p.width == 0 || !WholeDouble(w[1], p.lane_gbps)) return false;
  p.fdr10 = w.size() > 3 && w[3] == "(FDR10)";
  // C14-24.2.1: a down port's width and speed are not valid data (old releases print them anyway).
  if (p.state == "Down") p.width = 0, p.lane_gbps = 0, p.fdr10 = false;
  return true;
}

// "(Could be 12X Could be 10.0 Gbps)" -> "12X, 10.0 Gbps"; "( )" -> "".
std::string CouldBe(std::string_view msg) {
  std::string out;
  size_t at = 0;
  while ((at = msg.find("Could be ", at)) != std::string_view::npos) {
    at += 9;
    size_t end = msg.find("Could be ", at);
    std::string_view one = TrimView(msg.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos && one.ends_with(")")) one = TrimView(one.substr(0, one.size() - 1));
    if (!one.empty()) out += (out.empty() ? "" : ", ") + std::string(one);
  }
  return out;
}

}  // namespace

double IbLinkGbps(int width, double lane_gbps, bool fdr10) {
  if (width <= 0 || lane_gbps <= 0) return 0;
  return width * NominalLane(lane_gbps, fdr10);
}

IblinkinfoPorts ParseIblinkinfoPorts(std::string_view text) {
  IblinkinfoPorts r;
  UnreadLines unread, unreadable_ports;
  IbLinkNode* node = nullptr;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    // A node header: "Switch: 0x... desc:", "CA: desc:", "Router: desc:", 2010's "Switch 0x... desc:".
    for (std::string_view type : {"Switch", "CA", "Router"}) {
      if (!t.starts_with(type) || t.find("==(") != std::string_view::npos || !t.ends_with(":")) continue;
      std::string_view rest = t.substr(type.size());
      if (rest.starts_with(":"))
        rest.remove_prefix(1);
      else if (!rest.starts_with(" "))
        continue;
      rest = TrimView(rest.substr(0, rest.size() - 1));
      r.nodes.push_back({std::string(type), "", "", n, {}});
      node = &r.nodes.back();
      const size_t space = rest.find(' ');
      if (type == "Switch" && IsGuid(rest.substr(0, space))) {
        node->guid = std::string(rest.substr(0, space));
        rest = space == std::string_view::npos ? std::string_view() : TrimView(rest.substr(space));
      }
      node->desc = std::string(rest);
      break;
    }
    if (node && node->line == n) continue;
    const size_t open = t.find("==(");
    const size_t arrow = t.find("==>", open == std::string_view::npos ? 0 : open);
    if (open == std::string_view::npos || arrow == std::string_view::npos) {
      unread.Note(n, t);
      continue;
    }
    IbLinkPort p;
    p.line = n;
    std::string_view left = t.substr(0, open);
    std::string line_guid, line_desc;
    bool line_mode = false;
    // Line mode: the node's GUID and quoted description lead the line.
    if (left.starts_with("0x") && left.find('"') != std::string_view::npos) {
      const size_t q1 = left.find('"'), q2 = left.rfind('"');
      if (q2 > q1) {
        line_mode = true;
        line_guid = std::string(TrimView(left.substr(0, q1)));
        line_desc = std::string(TrimView(left.substr(q1 + 1, q2 - q1 - 1)));
        left = left.substr(q2 + 1);
      }
    }
    std::vector<std::string_view> lw = SplitWords(left);
    size_t at = 0;
    if (!line_mode && !lw.empty() && IsGuid(lw[0])) {
      p.port_guid = std::string(lw[0]);  // a CA's port line
      at = 1;
    }
    const std::string_view link = t.substr(open + 2, arrow - open - 2);
    if (!LidPort(lw, at, p.lid, p.port, p.ext) || !ReadLink(link, p)) {
      unreadable_ports.Note(n, t);
      continue;
    }
    std::string_view right = TrimView(t.substr(arrow + 3));
    if (right.starts_with("[") || right.starts_with("\"Port not available\"")) {
      p.has_peer = false;  // "[  ] "" ( )" (down) or no remote port known
    } else {
      std::vector<std::string_view> rw = SplitWords(right.substr(0, right.find('"')));
      size_t ri = 0;
      if (!rw.empty() && IsGuid(rw[0])) {
        p.peer_guid = std::string(rw[0]);
        ri = 1;
      }
      std::string ext;
      const size_t q1 = right.find('"');
      const size_t q2 = q1 == std::string_view::npos ? q1 : right.find('"', q1 + 1);
      if (!LidPort(rw, ri, p.peer_lid, p.peer_port, ext) || q2 == std::string_view::npos) {
        unreadable_ports.Note(n, t);
        continue;
      }
      p.has_peer = true;
      p.peer_desc = std::string(right.substr(q1 + 1, q2 - q1 - 1));
      p.could_be = CouldBe(right.substr(q2 + 1));
    }
    if (line_mode) {
      // Line mode names the node on every line and never its type: a switch's ports share its GUID.
      if (!node || node->type != "" || node->guid != line_guid || node->desc != line_desc) {
        r.nodes.push_back({"", line_guid, line_desc, n, {}});
        node = &r.nodes.back();
      }
    } else if (!node) {
      unreadable_ports.Note(n, t);
      continue;
    } else if (node->type == "CA" && !p.port_guid.empty() && node->guid.empty()) {
      node->guid = p.port_guid;
    }
    node->ports.push_back(std::move(p));
  }
  unreadable_ports.Warn(r.warnings, "iblinkinfo port lines railyard can read (LID, port, link, remote end)");
  unread.Warn(r.warnings, "iblinkinfo node headers or port lines");
  if (r.nodes.empty()) r.warnings.push_back({0, "no \"Switch:\" or \"CA:\" node and no port line: not iblinkinfo output"});
  return r;
}

IblinkinfoReport ParseIblinkinfo(std::string_view text, std::string_view source) {
  IblinkinfoReport r;
  const auto file = std::make_shared<const std::string>(source);
  IblinkinfoPorts ports = ParseIblinkinfoPorts(text);
  r.links.warnings = std::move(ports.warnings);
  for (const IbLinkNode& node : ports.nodes) {
    for (const IbLinkPort& p : node.ports) {
      if (!p.has_peer || p.state == "Down") {
        ++r.ports_down;
        continue;
      }
      Adjacency a;
      a.medium = Medium::kInfiniband;
      // A CA's line names its node by description only ("host mlx5_0"); the port is the HCA's.
      a.local_device = node.desc;
      a.local_guid = node.type == "CA" ? "" : node.guid;
      a.local_port = std::to_string(p.port);
      a.remote_device = p.peer_desc;
      a.remote_port = std::to_string(p.peer_port);
      a.remote_guid = p.peer_guid;
      a.width = p.width;
      a.speed_gbps = static_cast<uint32_t>(IbLinkGbps(p.width, p.lane_gbps, p.fdr10));
      // "Could be" names a width, a speed, or both; what it leaves out stays as it is.
      if (!p.could_be.empty()) {
        int width = p.width;
        double lane = p.lane_gbps;
        bool fdr10 = p.fdr10;
        for (std::string_view part : SplitWords(p.could_be, ',')) {
          if (Width(part))
            width = Width(part);
          else if (part == "FDR10")
            fdr10 = true;
          else if (double v = 0; WholeDouble(part, v))
            lane = v, fdr10 = false;
        }
        a.could_be_gbps = static_cast<uint32_t>(IbLinkGbps(width, lane, fdr10));
      }
      a.source = file;
      a.line = p.line;
      r.links.adjacencies.push_back(std::move(a));
    }
  }
  return r;
}

}  // namespace railyard
