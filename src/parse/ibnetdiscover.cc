#include "parse/ibnetdiscover.h"

#include <charconv>

#include <fmt/format.h>

#include "util/lines.h"
#include "util/text.h"

namespace railyard {
namespace {

// Reads a double-quoted string at s[pos]; returns false if there is none.
bool Quoted(std::string_view s, size_t& pos, std::string_view& out) {
  if (pos >= s.size() || s[pos] != '"') return false;
  size_t end = s.find('"', pos + 1);
  if (end == std::string_view::npos) return false;
  out = s.substr(pos + 1, end - pos - 1);
  pos = end + 1;
  return true;
}

bool Number(std::string_view s, size_t& pos, int& out) {
  auto [p, ec] = std::from_chars(s.data() + pos, s.data() + s.size(), out);
  if (ec != std::errc()) return false;
  pos = static_cast<size_t>(p - s.data());
  return true;
}

// "[12]" -> 12
bool Bracketed(std::string_view s, size_t& pos, int& out) {
  if (pos >= s.size() || s[pos] != '[') return false;
  ++pos;
  if (!Number(s, pos, out) || pos >= s.size() || s[pos] != ']') return false;
  ++pos;
  return true;
}

std::string GuidOf(std::string_view id) {
  // "S-2c5eab0300b87b40" / "H-e09d7303007a4bd8" -> "0x2c5eab0300b87b40"
  if (id.size() > 2 && id[1] == '-') return "0x" + std::string(id.substr(2));
  return std::string(id);
}

// The trailing "... lid 647 4xNDR" of a port line: width and speed.
void LinkInfo(std::string_view comment, int& width, uint32_t& speed) {
  size_t x = comment.rfind('x');
  if (x == std::string_view::npos || x == 0) return;
  size_t start = x;
  while (start > 0 && comment[start - 1] >= '0' && comment[start - 1] <= '9') --start;
  if (start == x) return;
  int w = 0;
  std::from_chars(comment.data() + start, comment.data() + x, w);
  std::string_view name = TrimSpace(comment.substr(x + 1));
  uint32_t lane = IbLaneGbps(name);
  if (w > 0 && lane > 0) {
    width = w;
    speed = static_cast<uint32_t>(w) * lane;
  }
}

}  // namespace

uint32_t IbLaneGbps(std::string_view speed) {
  if (speed == "SDR") return 2;  // 2.5 Gb/s signalling; 8b/10b data 2
  if (speed == "DDR") return 4;
  if (speed == "QDR") return 8;
  if (speed == "FDR10") return 10;
  if (speed == "FDR") return 14;
  if (speed == "EDR") return 25;
  if (speed == "HDR") return 50;
  if (speed == "NDR") return 100;
  if (speed == "XDR") return 200;
  return 0;
}

AdjacencyReport ParseIbnetdiscover(std::string_view text, std::string_view source) {
  AdjacencyReport report;
  const auto file = std::make_shared<const std::string>(source);
  std::string node_desc;  // description of the node whose block we are in
  std::string node_guid;
  bool in_node = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int line_no = lines.number();
    std::string_view t = TrimSpace(line);
    if (t.empty()) {
      in_node = false;  // a blank line ends a node block
      continue;
    }
    if (t.front() == '#') continue;
    if (t.starts_with("Switch") || t.starts_with("Ca") || t.starts_with("Hca") || t.starts_with("Rt")) {
      // Switch	65 "S-2c5e..."		# "desc" enhanced port 0 lid 73 lmc 0
      size_t q = t.find('"');
      std::string_view id;
      if (q == std::string_view::npos || !Quoted(t, q, id)) {
        report.warnings.push_back({line_no, "node header without a quoted node id"});
        in_node = false;
        continue;
      }
      node_guid = GuidOf(id);
      node_desc = std::string(id);
      size_t hash = t.find('#', q);
      if (hash != std::string_view::npos) {
        size_t dq = t.find('"', hash);
        std::string_view desc;
        if (dq != std::string_view::npos && Quoted(t, dq, desc)) node_desc = std::string(desc);
      }
      in_node = true;
      continue;
    }
    if (t.front() == '[') {
      if (!in_node) {
        report.warnings.push_back({line_no, "port line outside a node block"});
        continue;
      }
      // [1]	"H-e09d..."[1](e09d...) 		# "a08-p1-dgx-04-c01 mlx5_5" lid 647 4xNDR   (switch block)
      // [1](e09d...) 	"S-2c5e..."[13]		# lid 140 lmc 0 "MF0;B09-...:MQM9701/U1" lid 119 4xNDR  (CA block)
      size_t p = 0;
      int local_port = 0;
      if (!Bracketed(t, p, local_port)) {
        report.warnings.push_back({line_no, fmt::format("cannot read the local port in '{}'", t.substr(0, 40))});
        continue;
      }
      if (p < t.size() && t[p] == '(') {  // local port GUID on a CA
        size_t close = t.find(')', p);
        if (close == std::string_view::npos) {
          report.warnings.push_back({line_no, "unclosed port GUID"});
          continue;
        }
        p = close + 1;
      }
      while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
      std::string_view remote_id;
      int remote_port = 1;
      if (!Quoted(t, p, remote_id)) {
        report.warnings.push_back({line_no, "port line without a quoted remote node id"});
        continue;
      }
      if (p < t.size() && t[p] == '[' && !Bracketed(t, p, remote_port)) {
        report.warnings.push_back({line_no, "cannot read the remote port"});
        continue;
      }
      Adjacency a;
      a.medium = Medium::kInfiniband;
      a.local_device = node_desc;
      a.local_guid = node_guid;
      a.local_port = std::to_string(local_port);
      a.remote_guid = GuidOf(remote_id);
      a.remote_device = std::string(remote_id);
      a.remote_port = std::to_string(remote_port);
      size_t hash = t.find('#', p);
      if (hash != std::string_view::npos) {
        std::string_view comment = t.substr(hash + 1);
        // The remote description is the (last) quoted string in the comment.
        size_t dq = comment.find('"');
        std::string_view desc;
        while (dq != std::string_view::npos && Quoted(comment, dq, desc)) {
          a.remote_device = std::string(desc);
          dq = comment.find('"', dq);
        }
        LinkInfo(comment, a.width, a.speed_gbps);
      }
      a.source = file;
      a.line = line_no;
      report.adjacencies.push_back(std::move(a));
      continue;
    }
    // vendid=, devid=, sysimgguid=, switchguid=, caguid=, include/do lines: nothing to link.
    if (t.find('=') == std::string_view::npos) {
      report.warnings.push_back({line_no, fmt::format("unrecognised line '{}'", t.substr(0, 60))});
    }
  }
  return report;
}

}  // namespace railyard
