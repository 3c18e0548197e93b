#include "parse/iproute.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

std::optional<uint64_t> U64(std::string_view s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

int Int(std::string_view s, int fallback) {
  auto v = U64(s);
  return v && *v <= 1'000'000'000 ? static_cast<int>(*v) : fallback;
}

// The value after `key` among `words`, or "".
std::string_view After(const std::vector<std::string_view>& words, std::string_view key) {
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == key) return words[i + 1];
  }
  return {};
}

bool IsHeader(std::string_view line, int& index) {
  // "13: bond1.4003@bond1: <...> mtu 9000 ..." — an unindented line starting with a number.
  if (line.empty() || line.front() == ' ' || line.front() == '\t') return false;
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  auto v = U64(line.substr(0, colon));
  if (!v || *v > 1'000'000'000) return false;
  index = static_cast<int>(*v);
  return true;
}

void ReadDetailWords(IpLink& l, const std::vector<std::string_view>& w) {
  if (w.empty()) return;
  std::string_view first = w[0];
  if (first.starts_with("link/")) {
    l.link_type = std::string(first.substr(5));
    if (w.size() > 1) l.mac = std::string(w[1]);
  } else if (first == "bond_slave") {
    l.slave_kind = "bond";
    l.slave_state = std::string(After(w, "state"));
    l.slave_mii_status = std::string(After(w, "mii_status"));
    l.slave_link_failure_count = Int(After(w, "link_failure_count"), -1);
    l.slave_ad_aggregator_id = Int(After(w, "ad_aggregator_id"), -1);
  } else if (first == "bridge_slave") {
    l.slave_kind = "bridge";
  } else if (first == "bond") {
    l.kind = "bond";
    l.bond_mode = std::string(After(w, "mode"));
    l.xmit_hash_policy = std::string(After(w, "xmit_hash_policy"));
    l.lacp_rate = std::string(After(w, "lacp_rate"));
    l.ad_partner_mac = std::string(After(w, "ad_partner_mac"));
    l.ad_aggregator = Int(After(w, "ad_aggregator"), -1);
  } else if (first == "vlan") {
    l.kind = "vlan";
    l.vlan_id = Int(After(w, "id"), -1);
  } else if (first == "bridge" || first == "veth" || first == "vxlan" || first == "macvlan" || first == "ipoib" ||
             first == "dummy" || first == "team" || first == "geneve" || first == "macvlan" || first == "ipvlan" ||
             first == "vrf") {
    l.kind = std::string(first);
  }
  if (auto v = After(w, "promiscuity"); !v.empty()) l.promiscuity = Int(v, 0);
  if (auto v = After(w, "numtxqueues"); !v.empty()) l.tx_queues = Int(v, 0);
  if (auto v = After(w, "numrxqueues"); !v.empty()) l.rx_queues = Int(v, 0);
  if (auto v = After(w, "portname"); !v.empty()) l.portname = std::string(v);
  if (auto v = After(w, "switchid"); !v.empty()) l.switchid = std::string(v);
  if (auto v = After(w, "parentdev"); !v.empty()) l.parentdev = std::string(v);
}

// "vf 0     link/ether 00:.. brd ff:.., spoof checking off, link-state disable, trust off, query_rss off"
IpVf ReadVf(std::string_view line) {
  IpVf vf;
  auto w = SplitWords(line);
  if (w.size() > 1) vf.vf = Int(w[1], -1);
  if (auto mac = After(w, "link/ether"); !mac.empty()) vf.mac = std::string(mac.substr(0, mac.find(',')));
  auto strip = [](std::string_view v) { return std::string(v.substr(0, v.find(','))); };
  if (auto v = After(w, "link-state"); !v.empty()) vf.link_state = strip(v);
  if (auto v = After(w, "checking"); !v.empty()) vf.spoof_check = strip(v);
  if (auto v = After(w, "trust"); !v.empty()) vf.trust = strip(v);
  return vf;
}

}  // namespace

bool IpLink::HasFlag(std::string_view f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }

IpLinkReport ParseIpLinkText(std::string_view text) {
  IpLinkReport r;
  LineReader lines(text);
  std::string_view line;
  IpLink* cur = nullptr;
  enum { kNone, kRx, kTx } pending = kNone;
  while (lines.Next(line)) {
    if (TrimView(line).empty()) continue;
    int index = 0;
    if (IsHeader(line, index)) {
      IpLink l;
      l.index = index;
      std::string_view rest = TrimView(line.substr(line.find(':') + 1));
      size_t name_end = rest.find(": ");
      if (name_end == std::string_view::npos) {
        r.warnings.push_back({lines.number(), "interface line without a name"});
        cur = nullptr;
        continue;
      }
      std::string_view name = rest.substr(0, name_end);
      if (size_t at = name.find('@'); at != std::string_view::npos) {
        l.link = std::string(name.substr(at + 1));
        name = name.substr(0, at);
      }
      l.name = std::string(name);
      rest = rest.substr(name_end + 2);
      if (rest.starts_with("<")) {
        size_t close = rest.find('>');
        std::string_view flags = rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
        while (!flags.empty()) {
          size_t comma = flags.find(',');
          if (comma != 0) l.flags.emplace_back(flags.substr(0, comma));
          if (comma == std::string_view::npos) break;
          flags.remove_prefix(comma + 1);
        }
        rest = close == std::string_view::npos ? std::string_view() : rest.substr(close + 1);
      }
      auto w = SplitWords(rest);
      l.mtu = static_cast<uint32_t>(Int(After(w, "mtu"), 0));
      l.qdisc = std::string(After(w, "qdisc"));
      l.master = std::string(After(w, "master"));
      l.state = std::string(After(w, "state"));
      if (l.mtu == 0) r.warnings.push_back({lines.number(), fmt::format("{}: no mtu on the interface line", l.name)});
      r.links.push_back(std::move(l));
      cur = &r.links.back();
      pending = kNone;
      continue;
    }
    if (!cur) {
      r.warnings.push_back({lines.number(), "a detail line before any interface line"});
      continue;
    }
    std::string_view t = TrimView(line);
    auto w = SplitWords(t);
    if (pending != kNone) {
      // The counter row under "RX: bytes packets errors dropped ..." / "TX: ...".
      bool rx = pending == kRx;
      pending = kNone;
      if (w.size() >= 4 && U64(w[0])) {
        (rx ? cur->rx_bytes : cur->tx_bytes) = U64(w[0]);
        (rx ? cur->rx_packets : cur->tx_packets) = U64(w[1]);
        (rx ? cur->rx_errors : cur->tx_errors) = U64(w[2]);
        (rx ? cur->rx_dropped : cur->tx_dropped) = U64(w[3]);
        continue;
      }
      r.warnings.push_back({lines.number(), fmt::format("{}: counter header without counters", cur->name)});
    }
    if (t.starts_with("RX:") || t.starts_with("RX "))
      pending = kRx;
    else if (t.starts_with("TX:") || t.starts_with("TX "))
      pending = kTx;
    else if (t.starts_with("vf "))
      cur->vfs.push_back(ReadVf(t));
    else if (t.starts_with("inet") && w.size() >= 2) {
      // `ip -d addr`: "inet 10.10.101.33/26 brd ... scope global br-bond1"; link-local ones are not kept.
      if (After(w, "scope") != "link") cur->addresses.emplace_back(w[1]);
    } else if (t.starts_with("altname") || t.starts_with("valid_lft"))
      continue;
    else
      ReadDetailWords(*cur, w);
  }
  if (text.find_first_not_of(" \t\r\n") != std::string_view::npos && r.links.empty()) {
    r.warnings.push_back({0, "no interface lines: not `ip link` output"});
  }
  return r;
}

IpLinkReport ParseIpLinkJson(std::string_view text) {
  IpLinkReport r;
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array()) {
    r.warnings.push_back({0, "not `ip -j link` output: expected a JSON array"});
    return r;
  }
  auto str = [](const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto num = [](const nlohmann::json& o, const char* key, int64_t fallback) -> int64_t {
    auto it = o.find(key);
    return it != o.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
  };
  for (const nlohmann::json& o : doc) {
    if (!o.is_object()) {
      r.warnings.push_back({0, "an array element that is not an object"});
      continue;
    }
    IpLink l;
    l.index = static_cast<int>(num(o, "ifindex", 0));
    l.name = str(o, "ifname");
    l.link = str(o, "link");
    if (auto it = o.find("flags"); it != o.end() && it->is_array()) {
      for (const auto& f : *it) {
        if (f.is_string()) l.flags.push_back(f.get<std::string>());
      }
    }
    l.mtu = static_cast<uint32_t>(std::clamp<int64_t>(num(o, "mtu", 0), 0, UINT32_MAX));
    l.qdisc = str(o, "qdisc");
    l.master = str(o, "master");
    l.state = str(o, "operstate");
    l.link_type = str(o, "link_type");
    l.mac = str(o, "address");
    l.promiscuity = static_cast<int>(num(o, "promiscuity", 0));
    l.tx_queues = static_cast<int>(num(o, "num_tx_queues", 0));
    l.rx_queues = static_cast<int>(num(o, "num_rx_queues", 0));
    l.portname = str(o, "phys_port_name");
    l.switchid = str(o, "phys_switch_id");
    l.parentdev = str(o, "parentdev");
    if (auto it = o.find("linkinfo"); it != o.end() && it->is_object()) {
      const nlohmann::json& li = *it;
      l.kind = str(li, "info_kind");
      l.slave_kind = str(li, "info_slave_kind");
      if (auto d = li.find("info_data"); d != li.end() && d->is_object()) {
        if (l.kind == "vlan") l.vlan_id = static_cast<int>(num(*d, "id", -1));
        if (l.kind == "bond") {
          l.bond_mode = str(*d, "mode");
          l.xmit_hash_policy = str(*d, "xmit_hash_policy");
          l.lacp_rate = str(*d, "ad_lacp_rate");
          if (auto ad = d->find("ad_info"); ad != d->end() && ad->is_object()) {
            l.ad_partner_mac = str(*ad, "partner_mac");
            l.ad_aggregator = static_cast<int>(num(*ad, "aggregator", -1));
          }
        }
      }
      if (auto d = li.find("info_slave_data"); d != li.end() && d->is_object() && l.slave_kind == "bond") {
        l.slave_state = str(*d, "state");
        l.slave_mii_status = str(*d, "mii_status");
        l.slave_link_failure_count = static_cast<int>(num(*d, "link_failure_count", -1));
        l.slave_ad_aggregator_id = static_cast<int>(num(*d, "ad_aggregator_id", -1));
      }
    }
    if (auto it = o.find("stats64"); it != o.end() && it->is_object()) {
      auto read = [&](const char* dir, std::optional<uint64_t>& bytes, std::optional<uint64_t>& packets,
                      std::optional<uint64_t>& errors, std::optional<uint64_t>& dropped) {
        auto d = it->find(dir);
        if (d == it->end() || !d->is_object()) return;
        auto u = [&](const char* key) -> std::optional<uint64_t> {
          auto v = d->find(key);
          return v != d->end() && v->is_number_unsigned() ? std::optional<uint64_t>(v->get<uint64_t>()) : std::nullopt;
        };
        bytes = u("bytes");
        packets = u("packets");
        errors = u("errors");
        dropped = u("dropped");
      };
      read("rx", l.rx_bytes, l.rx_packets, l.rx_errors, l.rx_dropped);
      read("tx", l.tx_bytes, l.tx_packets, l.tx_errors, l.tx_dropped);
    }
    if (l.name.empty()) {
      r.warnings.push_back({0, fmt::format("interface {} without an ifname", l.index)});
      continue;
    }
    r.links.push_back(std::move(l));
  }
  return r;
}

IpAddrReport ParseIpAddrJson(std::string_view text) {
  IpAddrReport r;
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array()) {
    r.warnings.push_back({0, "not `ip -j addr` output: expected a JSON array"});
    return r;
  }
  for (const nlohmann::json& o : doc) {
    if (!o.is_object() || !o.contains("ifname") || !o["ifname"].is_string()) {
      r.warnings.push_back({0, "an interface without an ifname"});
      continue;
    }
    IpAddrInterface i;
    i.name = o["ifname"].get<std::string>();
    if (auto it = o.find("addr_info"); it != o.end() && it->is_array()) {
      for (const nlohmann::json& a : *it) {
        if (!a.is_object() || !a.contains("local") || !a["local"].is_string()) continue;
        IpAddress x;
        auto field = [&](const char* key) {
          return a.contains(key) && a[key].is_string() ? a[key].get<std::string>() : std::string();
        };
        x.family = field("family");
        x.address = a["local"].get<std::string>();
        x.prefix_length = a.contains("prefixlen") && a["prefixlen"].is_number_integer() ? a["prefixlen"].get<int>() : -1;
        x.scope = field("scope");
        i.addresses.push_back(std::move(x));
      }
    }
    r.interfaces.push_back(std::move(i));
  }
  return r;
}

}  // namespace railyard
