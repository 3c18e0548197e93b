// Host-side RoCE QoS: `mlnx_qos -i IF` (trust mode, dscp→priority, PFC per priority, ETS) and
// the mlx5 ECN switches in sysfs (/sys/class/net/IF/ecn/roce_np|roce_rp/enable/0..7). Lossless
// RoCE needs the NIC and the switch to agree on all of these; the doctor compares them. Never throws.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct TrafficClass {
  int tc = -1;
  std::string rate_limit;                // "unlimited" or as printed
  std::string tsa;                       // ets | strict | vendor
  std::optional<int> bandwidth_percent;  // ETS share, when tsa is ets
  std::vector<int> priorities;           // priorities mapped to this TC
};

// -1 where the output did not say.
using PerPriority = std::array<int, 8>;

struct MlnxQos {
  std::string dcbx_mode;                       // "OS controlled" | "Firmware controlled"
  std::string trust;                           // pcp | dscp
  std::array<int, 64> dscp_to_priority;        // -1 = not listed
  std::vector<uint64_t> receive_buffer_bytes;  // per buffer, when printed
  std::optional<uint64_t> max_buffer_bytes;
  std::optional<int> cable_length_m;  // the cable length used for headroom
  PerPriority pfc_enabled;            // 1 enabled, 0 disabled, -1 not printed
  PerPriority pfc_buffer;             // receive buffer per priority, -1 not printed
  std::vector<TrafficClass> traffic_classes;
  std::vector<ParseWarning> warnings;

  MlnxQos() {
    dscp_to_priority.fill(-1);
    pfc_enabled.fill(-1);
    pfc_buffer.fill(-1);
  }
  // Priorities with PFC on, ascending.
  std::vector<int> PfcPriorities() const;
};

MlnxQos ParseMlnxQos(std::string_view text);

// The ECN switches of one netdev: notification point (receiver, sends CNPs) and reaction point
// (sender, slows down), per priority.
struct EcnState {
  PerPriority np_enabled;
  PerPriority rp_enabled;
  std::vector<ParseWarning> warnings;
  EcnState() {
    np_enabled.fill(-1);
    rp_enabled.fill(-1);
  }
  bool Known() const;
};

// `grep -H . /sys/class/net/IF/ecn/roce_*/enable/*` output: lines "PATH:VALUE". Paths may have
// any prefix; what counts is the ".../roce_np|roce_rp/enable/N" tail.
EcnState ParseEcnGrep(std::string_view text);
// Records one sysfs value: `point` is "roce_np" or "roce_rp", `value` the file's contents.
// Returns false (and changes nothing) when point, priority or value is not understood.
bool SetEcn(EcnState& ecn, std::string_view point, int priority, std::string_view value);

}  // namespace railyard
