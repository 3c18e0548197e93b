// plan.json read section by section: one walk of the file with simdjson On Demand (no DOM: at 100,000
// GPUs the file is ~130 MB), handing each record of the sections a reader asks for to its callback.
// The planned fabric (planfile/planned.h), the host configurations and the switch configurations
// (config/) each keep what they need of the same records; the walk and its errors are written once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "model/fabric.h"

namespace simdjson {
struct padded_string;
}

namespace railyard {

// The records are views into the reader's buffer, valid during the callback only. A number the plan
// leaves out reads as 0; a QoS value or a length it leaves out as nullopt.
struct PlanPlaneRecord {
  std::string_view name, kind, role, bond, mode, prefix;                          // mode, prefix: from `addressing`
  int64_t mtu = 0, vlan = 0;                                                      // vlan: from `addressing`
  std::optional<int64_t> qos_priority, qos_dscp, qos_cnp_dscp, qos_cnp_priority;  // from `qos`
};

// The plane's RoCE QoS: the record's values, priorities held to 0-7 and DSCPs to 0-63, and RoceQos's
// defaults for what the plan leaves out.
RoceQos QosOf(const PlanPlaneRecord& plane);

struct PlanHostPortRecord {
  std::string_view plane, port, netdev;
};

struct PlanRackRecord {
  std::string_view name;
  int64_t row = 0, position = 0;
};

struct PlanDeviceRecord {
  std::string_view name, role, tier, plane, rack, model, loopback;
  int64_t u = 0, rail = 0, group = 0;
  uint64_t asn = 0;
};

struct PlanLinkEnd {
  std::string_view device, port, ip;
  bool present = false;  // the link has this end's object at all
};

struct PlanLinkRecord {
  std::string_view label, plane, level;
  std::string_view cable, xcvr_a, xcvr_z;  // with PlanSections::link_details
  int64_t rail = 0, speed_gbps = 0;
  std::optional<double> length_m;  // with PlanSections::link_details
  PlanLinkEnd a, z;
};

// A callback per section a reader reads, in the order the file has them (railyard writes planes and
// racks before devices, devices before links); the sections without one are skipped unparsed.
struct PlanSections {
  std::function<void(std::string_view)> name;
  std::function<void(const PlanPlaneRecord&)> plane;
  std::function<void(const PlanHostPortRecord&)> host_port;
  std::function<void(const PlanRackRecord&)> rack;
  std::function<void(const PlanDeviceRecord&)> device;
  std::function<void(const PlanLinkRecord&)> link;
  // Whether links carry their cable, transceivers and length (the planned fabric's); the configuration
  // readers leave them unread: at 100,000 GPUs a million links' worth of strings.
  bool link_details = false;
};

// Walks `padded` (plan.json's text) once, front to back. Throws InputError naming `source` for text
// that is not JSON, not an object, or not railyard.plan/1; what a callback throws passes through.
void ReadPlanSections(const simdjson::padded_string& padded, const std::string& source, const PlanSections& sections);

}  // namespace railyard
