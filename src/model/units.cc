#include "model/units.h"
#include "util/text.h"

#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace railyard {
namespace {

uint32_t HostMask(uint8_t length) {
  if (length == 0) return 0xFFFFFFFFu;
  if (length >= 32) return 0;
  return (1u << (32 - length)) - 1;
}

}  // namespace

std::optional<Gbps> ParseSpeed(std::string_view text) {
  std::string s = Lower(text);
  if (s == "sdr") return 10;
  if (s == "ddr") return 20;
  if (s == "qdr") return 40;
  if (s == "fdr") return 56;
  if (s == "edr" || s == "hdr100") return 100;
  if (s == "ndr200") return 200;
  if (s == "hdr") return 200;
  if (s == "ndr") return 400;
  if (s == "xdr") return 800;
  for (std::string_view suffix : {"gb/s", "gbps", "gbe", "g"}) {
    if (s.size() > suffix.size() && s.ends_with(suffix)) {
      s.resize(s.size() - suffix.size());
      break;
    }
  }
  if (s.ends_with("t")) {
    double t = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size() - 1, t);
    if (ec != std::errc() || p != s.data() + s.size() - 1 || t <= 0 || t > 100) return std::nullopt;
    return static_cast<Gbps>(std::lround(t * 1000));
  }
  Gbps value = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || p != s.data() + s.size() || value == 0 || value > 100000) {
    return std::nullopt;
  }
  return value;
}

std::string FormatSpeed(Gbps speed) {
  if (speed >= 1000 && speed % 100 == 0) {
    return speed % 1000 == 0 ? fmt::format("{}T", speed / 1000) : fmt::format("{:.1f}T", speed / 1000.0);
  }
  return fmt::format("{}G", speed);
}

bool Ipv4Prefix::contains(Ipv4 addr) const { return (addr & ~HostMask(length)) == network; }

bool Ipv4Prefix::overlaps(const Ipv4Prefix& other) const { return contains(other.network) || other.contains(network); }

std::optional<Ipv4> ParseIpv4(std::string_view text) {
  Ipv4 addr = 0;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 4; ++i) {
    unsigned octet = 0;
    auto [next, ec] = std::from_chars(p, end, octet);
    if (ec != std::errc() || octet > 255 || next == p || next - p > 3) return std::nullopt;
    addr = (addr << 8) | octet;
    p = next;
    if (i < 3) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
  }
  if (p != end) return std::nullopt;
  return addr;
}

std::optional<Ipv4Prefix> ParsePrefix(std::string_view text, std::string* error) {
  auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    if (error) *error = "expected an IPv4 prefix like 10.0.0.0/16";
    return std::nullopt;
  }
  auto addr = ParseIpv4(text.substr(0, slash));
  unsigned len = 0;
  auto lenpart = text.substr(slash + 1);
  auto [p, ec] = std::from_chars(lenpart.data(), lenpart.data() + lenpart.size(), len);
  if (!addr || ec != std::errc() || p != lenpart.data() + lenpart.size() || len > 32) {
    if (error) *error = "expected an IPv4 prefix like 10.0.0.0/16";
    return std::nullopt;
  }
  Ipv4Prefix prefix{*addr, static_cast<uint8_t>(len)};
  if ((*addr & HostMask(prefix.length)) != 0) {
    if (error) {
      *error = fmt::format("host bits set: did you mean {}?", FormatPrefix({*addr & ~HostMask(prefix.length), prefix.length}));
    }
    return std::nullopt;
  }
  return prefix;
}

std::string FormatIpv4(Ipv4 addr) {
  return fmt::format("{}.{}.{}.{}", addr >> 24, (addr >> 16) & 0xFF, (addr >> 8) & 0xFF, addr & 0xFF);
}

std::string FormatPrefix(const Ipv4Prefix& prefix) { return fmt::format("{}/{}", FormatIpv4(prefix.network), prefix.length); }

std::optional<Ratio> ParseRatio(std::string_view text) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  Ratio r;
  auto down = text.substr(0, colon);
  auto up = text.substr(colon + 1);
  auto [p1, e1] = std::from_chars(down.data(), down.data() + down.size(), r.down);
  auto [p2, e2] = std::from_chars(up.data(), up.data() + up.size(), r.up);
  if (e1 != std::errc() || e2 != std::errc() || p1 != down.data() + down.size() || p2 != up.data() + up.size() || !(r.down > 0) ||
      !(r.up > 0) || r.down < r.up || r.down / r.up > 64) {
    return std::nullopt;
  }
  return r;
}

std::string FormatRatio(double value) {
  if (value <= 0) return "n/a";
  if (std::fabs(value - std::round(value)) < 0.005) return fmt::format("{}:1", std::lround(value));
  return fmt::format("{:.2f}:1", value);
}

double PcieGbps(int generation, int width) {
  // Per-lane usable Gb/s per direction.
  static constexpr std::array<double, 7> kPerLane = {0, 2.0, 4.0, 7.877, 15.754, 31.508, 60.5};
  if (generation < 1 || generation > 6 || width <= 0) return 0;
  return kPerLane[static_cast<size_t>(generation)] * width;
}

}  // namespace railyard
