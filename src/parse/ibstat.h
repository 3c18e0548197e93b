// `ibstat` (CA blocks with their ports) and `ibdev2netdev [-v]` (RDMA device to netdev, which
// maps host-side names like ens6 to the plan's mlx5_N). Never throw.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct IbstatPort {
  int number = 0;
  std::string state;           // Active, Down, Initializing ...
  std::string physical_state;  // LinkUp, Polling, Disabled ...
  uint32_t rate = 0;           // Gb/s
  int base_lid = 0;
  int sm_lid = 0;
  std::string port_guid;
  std::string link_layer;  // InfiniBand | Ethernet
};

struct IbstatCa {
  std::string name;     // mlx5_0
  std::string ca_type;  // MT4129
  std::string firmware_version;
  std::string node_guid;
  std::vector<IbstatPort> ports;
};

struct IbstatReport {
  std::vector<IbstatCa> cas;
  std::vector<ParseWarning> warnings;
};

IbstatReport ParseIbstat(std::string_view text);

struct RdmaNetdev {
  std::string pci_bdf;      // -v only
  std::string rdma_device;  // mlx5_2
  std::string part;         // -v: "MCX515A-CCAT" (or the serial the driver shows)
  std::string description;  // -v
  std::string firmware;     // -v
  int port = 1;
  std::string port_state;    // -v: ACTIVE / DOWN
  std::string netdev;        // ens6
  std::string netdev_state;  // Up / Down
};

Parsed<RdmaNetdev> ParseIbdev2netdev(std::string_view text);

// One RDMA port as iproute2's `rdma link [show]` prints it: "link mlx5_7/1 subnet_prefix ... lid 3403
// sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP netdev ib0", or the older "2/1: mlx5_0/1: state DOWN
// physical_state DISABLED netdev ens803f0".
struct RdmaLink {
  std::string rdma_device;
  int port = 0;
  std::string state;           // ACTIVE, DOWN, INIT, ARMED (as printed)
  std::string physical_state;  // LINK_UP, POLLING, DISABLED, NOP ...
  std::string netdev;          // "" when none
  int lid = -1;                // InfiniBand only (-1: not printed, i.e. RoCE/iWARP)
  int sm_lid = -1;
  int line = 0;
};

// `ibv_devinfo [-v]` (rdma-core; TAB- or space-aligned): every verbs device, whoever made it (bnxt_re, irdma,
// hns, efa, rxe, mlx5), as ibstat's CA blocks: states in ibstat's words (PORT_ACTIVE -> Active, LINK_UP -> LinkUp),
// rate = lanes x lane speed for an Active port (a down port prints placeholder "1X", "2.5 Gbps": not a rate).
IbstatReport ParseIbvDevinfo(std::string_view text);

Parsed<RdmaLink> ParseRdmaLink(std::string_view text);

}  // namespace railyard
