// Units and small value types shared by every part of railyard.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace railyard {

// Link rate in Gb/s. Integral: every rate railyard plans with is a whole number of Gb/s.
using Gbps = uint32_t;

// Parses "400G", "400", "400g", "1G", "800Gb/s", "NDR" (400), "HDR" (200), "XDR" (800).
// Returns nullopt for anything else.
std::optional<Gbps> ParseSpeed(std::string_view text);

// "400G", "1G", "1.6T" style rendering.
std::string FormatSpeed(Gbps speed);

// An IPv4 address in host byte order.
using Ipv4 = uint32_t;

struct Ipv4Prefix {
  Ipv4 network = 0;
  uint8_t length = 0;

  uint64_t size() const { return uint64_t{1} << (32 - length); }
  bool contains(Ipv4 addr) const;
  bool overlaps(const Ipv4Prefix& other) const;
};

// Parses "10.0.0.0/12". Rejects host bits set below the mask, so that a typo is caught.
std::optional<Ipv4Prefix> ParsePrefix(std::string_view text, std::string* error = nullptr);
std::optional<Ipv4> ParseIpv4(std::string_view text);
std::string FormatIpv4(Ipv4 addr);
std::string FormatPrefix(const Ipv4Prefix& prefix);

// An oversubscription ratio down:up, e.g. 2:1 means twice as much bandwidth faces the tier
// below as faces the tier above.
struct Ratio {
  double down = 1;
  double up = 1;
  double value() const { return down / up; }
};

// Parses "1:1", "2:1", "1.5:1", "5:3". Both sides must be positive and down >= up.
std::optional<Ratio> ParseRatio(std::string_view text);
std::string FormatRatio(double value);

// PCIe usable bandwidth per direction in Gb/s after line encoding (128b/130b for Gen3-5,
// FLIT ~ 242/256 for Gen6). Source: ../shared/reference/fabric-math.md (PCIe table).
double PcieGbps(int generation, int width);

}  // namespace railyard
