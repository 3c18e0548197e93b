#include "parse/ibstat.h"

#include <charconv>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

int Int(std::string_view v) { return LeadingInt(v, 0); }

}  // namespace

IbstatReport ParseIbstat(std::string_view text) {
  IbstatReport report;
  IbstatCa* ca = nullptr;
  IbstatPort* port = nullptr;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("CA '") && t.back() == '\'') {
      report.cas.push_back(IbstatCa{});
      ca = &report.cas.back();
      ca->name = std::string(t.substr(4, t.size() - 5));
      port = nullptr;
      continue;
    }
    // ibstat's own errors, before or after the CAs it could read: "ibpanic: [pid] main: stat of IB device 'ib1'
    // failed: …", "ibwarn: [pid] umad_init: …". The CAs before them are kept.
    if (t.starts_with("ibpanic") || t.starts_with("ibwarn") || t.find("ibpanic:") != std::string_view::npos ||
        t.find("ibwarn:") != std::string_view::npos) {
      report.warnings.push_back({lines.number(), "ibstat reported an error: " + std::string(t)});
      continue;
    }
    if (!ca) {
      report.warnings.push_back({lines.number(), "line before any \"CA '...'\" header"});
      continue;
    }
    if (t.starts_with("Port ") && t.back() == ':') {
      ca->ports.push_back(IbstatPort{});
      port = &ca->ports.back();
      port->number = Int(t.substr(5));
      continue;
    }
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = TrimView(t.substr(0, colon));
    std::string_view value = TrimView(t.substr(colon + 1));
    if (port) {
      if (key == "State")
        port->state = std::string(value);
      else if (key == "Physical state")
        port->physical_state = std::string(value);
      else if (key == "Rate")
        port->rate = static_cast<uint32_t>(Int(value));
      else if (key == "Base lid")
        port->base_lid = Int(value);
      else if (key == "SM lid")
        port->sm_lid = Int(value);
      else if (key == "Port GUID")
        port->port_guid = std::string(value);
      else if (key == "Link layer")
        port->link_layer = std::string(value);
    } else {
      if (key == "CA type")
        ca->ca_type = std::string(value);
      else if (key == "Firmware version")
        ca->firmware_version = std::string(value);
      else if (key == "Node GUID")
        ca->node_guid = std::string(value);
    }
  }
  if (report.cas.empty()) {
    bool errored = false;
    for (const ParseWarning& w : report.warnings) errored |= w.message.starts_with("ibstat reported an error");
    report.warnings.push_back({0, errored ? "no CA listed: ibstat failed (its error is above), so the RDMA devices are unknown"
                                          : "no \"CA '...'\" block: not ibstat output"});
  }
  return report;
}

static std::vector<RdmaNetdev> ReadIbdev2netdevRows(std::string_view text, std::vector<ParseWarning>* warnings) {
  std::vector<RdmaNetdev> out;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    size_t arrow = t.find(" ==> ");
    if (arrow == std::string_view::npos) {
      if (warnings) warnings->push_back({lines.number(), "no \"==>\": not ibdev2netdev output"});
      continue;
    }
    RdmaNetdev r;
    // Right side: "ens6 (Up)"
    std::string_view right = TrimView(t.substr(arrow + 5));
    size_t open = right.find(" (");
    r.netdev = std::string(right.substr(0, open));
    if (open != std::string_view::npos)
      r.netdev_state = std::string(TrimView(right.substr(open + 2, right.find(')', open) - open - 2)));
    std::string_view left = TrimView(t.substr(0, arrow));
    // Left side ends with "port N" or "port N (STATE)".
    size_t port_at = left.rfind(" port ");
    if (port_at == std::string_view::npos) {
      if (warnings) warnings->push_back({lines.number(), "no \"port N\" before \"==>\""});
      continue;
    }
    std::string_view port_part = left.substr(port_at + 6);
    r.port = Int(port_part);
    if (size_t p = port_part.find('('); p != std::string_view::npos) {
      r.port_state = std::string(TrimView(port_part.substr(p + 1, port_part.find(')', p) - p - 1)));
    }
    std::string_view head = TrimView(left.substr(0, port_at));
    if (head.find(' ') == std::string_view::npos) {
      r.rdma_device = std::string(head);  // plain form: "mlx5_0 port 1 ==> ens4f0 (Down)"
    } else {
      // -v: "0000:4b:00.0 mlx5_2 (MT4119 - MCX515A-CCAT) CX515A - ConnectX-5 QSFP28 fw 16.27.1016"
      size_t s1 = head.find(' ');
      r.pci_bdf = std::string(head.substr(0, s1));
      std::string_view rest = TrimView(head.substr(s1));
      size_t s2 = rest.find(' ');
      r.rdma_device = std::string(rest.substr(0, s2));
      rest = s2 == std::string_view::npos ? std::string_view() : TrimView(rest.substr(s2));
      if (rest.starts_with("(")) {
        size_t close = rest.find(')');
        std::string_view ids = rest.substr(1, close - 1);
        if (size_t dash = ids.find(" - "); dash != std::string_view::npos) r.part = std::string(TrimView(ids.substr(dash + 3)));
        rest = close == std::string_view::npos ? std::string_view() : TrimView(rest.substr(close + 1));
      }
      size_t fw = rest.rfind(" fw ");
      if (rest.starts_with("fw ")) fw = 0;
      if (fw != std::string_view::npos) {
        r.firmware = std::string(TrimView(rest.substr(fw + (fw == 0 ? 3 : 4))));
        r.description = std::string(TrimView(rest.substr(0, fw)));
      } else {
        r.description = std::string(rest);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

static std::vector<RdmaLink> ReadRdmaLinkRows(std::string_view text, std::vector<ParseWarning>* warnings) {
  std::vector<RdmaLink> out;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::vector<std::string_view> w = SplitWords(line);
    if (w.empty()) continue;
    // "link DEV/PORT ..." (iproute2 >= 4.16 text) or "IDX/PORT: DEV/PORT: ..." (the first releases).
    size_t at = 0;
    if (w[0] == "link" && w.size() > 1)
      at = 1;
    else if (w.size() > 1 && w[0].ends_with(":") && w[1].ends_with(":"))
      at = 1;
    std::string_view id = w[at];
    if (id.ends_with(":")) id.remove_suffix(1);
    size_t slash = id.rfind('/');
    if ((at == 0 && w[0] != "link" && !w[0].ends_with(":")) || slash == std::string_view::npos || slash == 0) {
      if (warnings) warnings->push_back({lines.number(), "not an `rdma link` line (expected \"link DEV/PORT ...\")"});
      continue;
    }
    RdmaLink l;
    l.rdma_device = std::string(id.substr(0, slash));
    l.port = Int(id.substr(slash + 1));
    l.line = lines.number();
    for (size_t i = at + 1; i + 1 < w.size(); ++i) {
      if (w[i] == "state")
        l.state = std::string(w[i + 1]);
      else if (w[i] == "physical_state")
        l.physical_state = std::string(w[i + 1]);
      else if (w[i] == "netdev")
        l.netdev = std::string(w[i + 1]);
      else if (w[i] == "lid")
        l.lid = Int(w[i + 1]);
      else if (w[i] == "sm_lid")
        l.sm_lid = Int(w[i + 1]);
    }
    if (l.state.empty() && warnings) warnings->push_back({lines.number(), l.rdma_device + ": no state on the line"});
    out.push_back(std::move(l));
  }
  return out;
}

IbstatReport ParseIbvDevinfo(std::string_view text) {
  IbstatReport r;
  LineReader lines(text);
  std::string_view raw;
  IbstatCa* ca = nullptr;
  IbstatPort* port = nullptr;
  double lane_gbps = 0;
  int lanes = 0;
  auto finish_port = [&] {
    if (port && port->state == "Active" && lanes > 0 && lane_gbps > 0)
      port->rate = static_cast<uint32_t>(lanes * lane_gbps + 0.5);
    lane_gbps = 0;
    lanes = 0;
  };
  // "PORT_ACTIVE (4)" -> "Active"; "LINK_UP (5)" -> "LinkUp"; "DISABLED (3)" -> "Disabled".
  auto words = [](std::string_view v) {
    v = v.substr(0, v.find(" ("));
    if (v.starts_with("PORT_")) v = v.substr(5);
    std::string out;
    bool upper = true;
    for (char c : v) {
      if (c == '_') {
        upper = true;
        continue;
      }
      out += upper ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      upper = false;
    }
    if (out == "Init") out = "Initializing";
    return out;
  };
  while (lines.Next(raw)) {
    std::string_view t = TrimView(raw);
    if (t.empty()) continue;
    size_t colon = t.find(':');
    if (t.starts_with("hca_id:")) {
      finish_port();
      r.cas.emplace_back();
      ca = &r.cas.back();
      ca->name = std::string(TrimView(t.substr(7)));
      port = nullptr;
      continue;
    }
    if (colon == std::string_view::npos) {
      // device_cap_flags' continuation words, or an author's elision (".")
      if (!ca) r.warnings.push_back({lines.number(), "text before any hca_id: line, ignored"});
      continue;
    }
    std::string_view key = TrimView(t.substr(0, colon)), value = TrimView(t.substr(colon + 1));
    if (!ca) {
      if (!t.starts_with("$") && !t.starts_with("#"))
        r.warnings.push_back({lines.number(), "a field before any hca_id: line (an excerpt?)"});
      else
        r.warnings.push_back({lines.number(), "a command line, ignored"});
      if (t.starts_with("$") || t.starts_with("#") || key != "port") continue;
      r.cas.emplace_back();
      ca = &r.cas.back();
    }
    if (key == "port") {
      finish_port();
      ca->ports.emplace_back();
      port = &ca->ports.back();
      port->number = LeadingInt(value);
    } else if (!port) {
      if (key == "fw_ver")
        ca->firmware_version = std::string(value);
      else if (key == "node_guid")
        ca->node_guid = std::string(value);
      else if (key == "vendor_part_id")
        ca->ca_type = std::string(value);
    } else if (key == "state") {
      port->state = words(value);
    } else if (key == "phys_state") {
      port->physical_state = words(value);
    } else if (key == "link_layer") {
      port->link_layer = std::string(value);
    } else if (key == "port_lid") {
      port->base_lid = LeadingInt(value);
    } else if (key == "sm_lid") {
      port->sm_lid = LeadingInt(value);
    } else if (key == "active_width") {
      lanes = LeadingInt(value);  // "4X (2)"
    } else if (key == "active_speed") {
      double v = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec == std::errc()) lane_gbps = v;  // "25.0 Gbps (32)", "2.5 Gbps (1)"
    }
  }
  finish_port();
  if (r.cas.empty() && !TrimView(text).empty()) r.warnings.push_back({1, "no hca_id: line: not ibv_devinfo output"});
  return r;
}

Parsed<RdmaNetdev> ParseIbdev2netdev(std::string_view text) {
  Parsed<RdmaNetdev> out;
  out.rows = ReadIbdev2netdevRows(text, &out.warnings);
  return out;
}

Parsed<RdmaLink> ParseRdmaLink(std::string_view text) {
  Parsed<RdmaLink> out;
  out.rows = ReadRdmaLinkRows(text, &out.warnings);
  return out;
}

}  // namespace railyard
