// The cluster spec: the YAML file an architect writes, validated into typed values.
//
// The shape of the file is a contract (see docs/spec.md). Every error names the file, line,
// column and key, and suggests the intended key or OPN when one is close.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/compatibility.h"
#include "model/fabric.h"
#include "model/units.h"
#include "util/input_error.h"

namespace railyard {

// 1-based position in the spec file (0 = unknown).
struct SourceMark {
  int line = 0;
  int column = 0;
};

// Derives from InputError (file, line, column, key, message: the first problem's); what() lists them all.
class SpecError : public InputError {
 public:
  SpecError(std::string file, SourceMark mark, std::string key, std::string message);
  // Several problems found in one pass: what() lists them one per line in file order (at most 20,
  // then how many more); file(), mark(), key() and message() are the first one's.
  explicit SpecError(std::vector<SpecError> all);
  const std::vector<SpecError>& all() const { return all_; }
  SourceMark mark() const { return {line(), column()}; }

 private:
  struct Sorted {};
  SpecError(std::vector<SpecError> all, Sorted);
  std::vector<SpecError> all_;  // empty for a single error
};

// A name resolved by meaning rather than written verbatim (nic: ConnectX-7 -> its OPN): the plan
// reports it as an info finding, so the priced part is never a surprise.
struct SpecNote {
  SourceMark mark;
  std::string key;
  std::string message;
};

struct NodesSpec {
  uint32_t count = 0;
  uint32_t gpus = 8;
  int pcie_gen = 5;
  int pcie_width = 16;
  uint32_t per_rack = 4;
  uint32_t height_u = 0;  // 0 = derived from per_rack and the rack height
  std::string name_prefix = "node";
  // What the servers are and will run, for the compatibility checks (all optional): the model as dmidecode
  // prints it, the BIOS version, "ubuntu 22.04", a `uname -r`, and "doca_ofed 24.10" / "mlnx_ofed 24.10" / "inbox".
  std::string model, bios, os, kernel, driver_stack;
  SourceMark mark;
};

struct ExtraEndpointSpec {
  std::string name;
  uint32_t ports = 1;
  uint32_t count = 1;
  SourceMark mark;
};

struct PlaneSpec {
  std::string name;
  FabricKind kind = FabricKind::kEthernet;
  PlaneRole role = PlaneRole::kCompute;
  std::vector<PlaneRole> carries;  // traffic classes the plane carries; defaults to {role}
  std::string nic;                 // OPN; empty on a BMC-only plane
  uint16_t nic_index = kNoItem;
  uint32_t ports_per_node = 1;
  Gbps speed = 0;
  uint16_t leaf_switch = kNoItem;
  uint16_t spine_switch = kNoItem;  // kNoItem = same as leaf (or a catalog default for split-port leaves)
  uint16_t core_switch = kNoItem;
  bool rail_optimized = false;
  uint32_t nodes_per_su = 0;            // 0 = as many as one leaf's downlinks hold
  std::vector<Ratio> oversubscription;  // from the leaf up; one entry = every tier
  uint32_t tiers = 0;                   // 0 = fewest that fit
  std::vector<ExtraEndpointSpec> extra_endpoints;
  bool manage_switches = false;      // oob: also cable every switch's management port
  std::vector<std::string> netdevs;  // per node port in NIC order: the OS interface names (ens1f0np0 ...)
  uint32_t mtu = 0;                  // host-side MTU; 0 = the kind's default
  bool bond = false;                 // `bond: 802.3ad`: each node's ports are one LACP bond (on a leaf pair)
  RoceQos qos;                       // roce planes: `qos: {priority, dscp, cnp_dscp, cnp_priority}`
  std::vector<std::string> slots;    // per node port: the chassis slot a technician finds it by ("PCIe 3")
  bool leaf_pair = false;            // redundancy: leaf-pair: two leaves, no spines, ports alternate
  uint32_t peer_links = 2;           // links between the two leaves of a pair
  SourceMark mark;
  std::map<std::string, SourceMark> key_marks;  // where each key was written, for findings
};

enum class NetworkRackPlacement { kEndOfRow, kMiddleOfRow, kTopOfRack };

struct LayoutSpec {
  uint32_t racks_per_row = 10;
  double rack_width_m = 0.6;
  double row_pitch_m = 2.4;
  NetworkRackPlacement network_racks = NetworkRackPlacement::kEndOfRow;
  uint32_t rack_units = 42;
  double slack_m = 1.0;          // service loop added to every cross-rack run
  double in_rack_slack_m = 0.3;  // service loop within a rack
  double tray_height_m = 0.5;    // cable tray above the rack top
  std::string airflow;           // p2c | c2p: the hall's switch airflow ("" = whatever the first OPN has)
  SourceMark mark;
};

struct AddressingSpec {
  PlaneAddressing plane;
  SourceMark mark;
};

struct Spec {
  std::string file;
  std::string name;
  NodesSpec nodes;
  std::vector<PlaneSpec> planes;
  LayoutSpec layout;
  std::map<std::string, AddressingSpec> addressing;  // keyed by plane name
  std::vector<SpecNote> notes;                       // names resolved by meaning
  std::map<std::string, double> spares_percent;      // spares: {cable: 2, transceiver: 5}
  // racks: {r01-01: A12, ...} or racks: FILE.csv (columns rack,name): the hall's names for railyard's
  // rack IDs. Which IDs exist is known only once the hall is laid out, so the planner checks them.
  std::map<std::string, std::string> rack_names;
  std::map<std::string, SourceMark> rack_name_marks;
  // compatibility: FILE.csv beside the spec (docs/advise.md#compatibility-matrix): checked by the design rule
  // server-nic-unsupported against nodes.model / bios / os / kernel / driver_stack and each plane's NIC.
  CompatMatrix compat;
  SourceMark compat_mark;
};

// Parses and validates a spec. Throws SpecError with every problem found (independent keys are
// all checked; a key whose value could not be read is not used further).
Spec ParseSpec(const std::string& yaml_text, const std::string& file_name, const Catalog& catalog = Catalog::Builtin());
// Reads the file and parses it. Throws SpecError (also for an unreadable file).
Spec LoadSpec(const std::string& path, const Catalog& catalog = Catalog::Builtin());

}  // namespace railyard
