// Product facts railyard plans and checks with: switches, NICs, cables and optics.
// The data lives in data/catalog/*.csv (each row citing its source) and is embedded at build
// time, so the binary needs no files beside it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/fabric.h"
#include "model/units.h"
#include "util/csv.h"

namespace railyard {

struct SpeedCount {
  Gbps speed = 0;
  uint32_t count = 0;
};

struct SwitchModel {
  std::string model;
  std::vector<std::string> opns;
  std::string vendor;
  FabricKind fabric = FabricKind::kEthernet;  // kInfiniband or kEthernet
  PortNaming naming = PortNaming::kCumulus;
  uint16_t cages = 0;
  std::string cage;               // form factor of the main port group
  std::vector<SpeedCount> ports;  // main group: logical ports per speed
  std::string uplink_cage;
  std::vector<SpeedCount> uplink_ports;
  std::optional<double> rack_units;
  std::optional<double> typical_power_w;
  std::optional<double> max_power_w;
  // NetBox device-type library: the model's slug, and its interface name for a plan port as a
  // template on {port}, {cage}, {lane}, {cage0}, {lane0} ("" = none in the library).
  std::vector<std::pair<std::string, std::string>> airflow;  // OPN -> "p2c" | "c2p", where known
  std::string netbox_device_type;
  std::string netbox_interface;
  std::string source;
  std::string confidence;
  std::string origin = "builtin";  // "builtin", or the site catalog file and line it came from

  // Logical ports of the main group at `speed`, 0 when the speed is not supported.
  uint32_t PortsAt(Gbps speed) const;
  uint32_t UplinkPortsAt(Gbps speed) const;
  // The fastest speed of the separate uplink group, 0 when there is none.
  Gbps FastestUplink() const;
};

struct NicModel {
  std::string opn;
  std::string family;
  std::string pci_device_id;
  int fw_major = 0;
  uint32_t ports = 0;
  Gbps max_speed = 0;
  std::string link_types;  // ib | eth | vpi
  int pcie_gen = 0;
  int pcie_width = 0;
  std::string cage;
  std::string psid;
  std::string psid_confidence;  // H | M | L: how sure the OPN -> PSID pairing is
  bool preferred = false;       // the part a spec gets when it names only the family (and several fit)
  std::string source;
  std::string confidence;
  std::string origin = "builtin";

  bool SupportsInfiniband() const { return link_types != "eth"; }
  bool SupportsEthernet() const { return link_types != "ib"; }
};

enum class CableKind { kDac, kAcc, kAoc, kTransceiver, kFibre, kRj45 };

struct CableItem {
  std::string opn;
  CableKind kind = CableKind::kDac;
  Gbps speed = 0;
  uint32_t links = 1;
  std::string end_a;
  std::string end_b;
  bool paired = false;
  std::string medium;
  double length_m = 0;
  double reach_m = 0;
  std::optional<double> power_w;
  std::string source;
  std::string confidence;
  std::string origin = "builtin";
};

std::string_view ToString(CableKind kind);

// Catalog CSV texts and the names errors give them (embedded files, or a site catalog's paths).
struct CatalogTexts {
  std::string_view switches, nics, cables;  // "" = none given
  std::string switches_name = "switches.csv", nics_name = "nics.csv", cables_name = "cables.csv";
  bool site = false;  // rows' origin is "<file>:<line>" rather than "builtin"
};

class Catalog {
 public:
  // The catalog compiled into the binary. Parsed once, on first use.
  static const Catalog& Builtin();
  // Builds a catalog from CSV texts (tests use this to exercise bad data).
  static Catalog FromCsv(std::string_view switches_csv, std::string_view nics_csv, std::string_view cables_csv);
  // This catalog with a site's rows laid over it (`--catalog DIR`, RAILYARD_CATALOG): DIR holds any of
  // switches.csv, nics.csv and cables.csv in the embedded files' columns; a row whose model or OPN
  // is already known replaces that row, any other is added. Each row's `origin` says where it came
  // from. Throws InputError("<file>:<line>: column <c>: ...") on a bad row, and on a
  // directory that holds none of those files or any other file.
  Catalog WithSite(const std::string& dir) const;

  // Looks up a switch by model or any of its OPNs, ignoring case. Returns an index.
  std::optional<uint16_t> FindSwitch(std::string_view name) const;
  std::optional<uint16_t> FindNic(std::string_view opn) const;
  std::optional<uint16_t> FindCable(std::string_view opn) const;
  // The closest known switch model / NIC OPN to a misspelt one, for error messages.
  std::string SuggestSwitch(std::string_view name) const;
  std::string SuggestNic(std::string_view opn) const;

  const std::vector<SwitchModel>& switches() const { return switches_; }
  const std::vector<NicModel>& nics() const { return nics_; }
  const std::vector<CableItem>& cables() const { return cables_; }

 private:
  static Catalog FromTexts(const CatalogTexts& texts);
  std::vector<SwitchModel> switches_;
  std::vector<NicModel> nics_;
  std::vector<CableItem> cables_;
};

}  // namespace railyard
