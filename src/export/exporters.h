// Writers for everything `railyard plan -o DIR` produces. Each takes the plan and one output
// file; none decides anything, they only render the model.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "model/fabric.h"
#include "plan/planner.h"
#include "util/output_file.h"
#include "util/version.h"

namespace railyard {

struct ExportContext {
  ExportContext(const PlanResult& r, const Catalog& c) : result(r), catalog(c), ports(r.fabric), cages(r.fabric) {
    // Every link speed is a plane's speed or one of its tiers' speeds. Formatted once, here,
    // so writers on several threads only read.
    for (const Plane& p : r.fabric.planes) {
      for (Gbps s : {p.speed, p.tier[0].down_speed, p.tier[0].up_speed, p.tier[1].up_speed, p.tier[2].down_speed}) {
        bool known = false;
        for (const auto& entry : speeds_) known = known || entry.first == s;
        if (s && !known) speeds_.emplace_back(s, FormatSpeed(s));
      }
    }
  }
  const PlanResult& result;
  const Catalog& catalog;
  PortNamer ports;
  CageNamer cages;               // front-panel cage/lane of switch ports ("17/1")
  std::string not_for_ordering;  // set by `plan --force` on a plan with error findings

  const Fabric& fabric() const { return result.fabric; }
  const std::string& RackOf(uint32_t device) const { return fabric().racks[fabric().devices[device].rack].name; }
  // "400G" for a link speed.
  std::string Speed(Gbps speed) const {
    for (const auto& [s, text] : speeds_) {
      if (s == speed) return text;
    }
    return FormatSpeed(speed);
  }

 private:
  std::vector<std::pair<Gbps, std::string>> speeds_;
};

std::string_view LevelName(uint8_t level);  // endpoint-leaf | leaf-spine | spine-core

void WritePlanJson(const ExportContext& ctx, OutputFile& out);  // plan.json
// plan.index: the rows verify/doctor/ledger read, with plan.json's size and fingerprint (plan_index.cc).
void WritePlanIndex(const ExportContext& ctx, const ContentHash& plan_json, OutputFile& out);
void WriteCutsheet(const ExportContext& ctx, OutputFile& out);  // cutsheet.csv
void WriteBomCsv(const ExportContext& ctx, OutputFile& out);    // bom.csv
void WriteLabels(const ExportContext& ctx, OutputFile& out);    // labels.csv
void WriteIpPlan(const ExportContext& ctx, OutputFile& out);    // ip-plan.csv
// NetBox 4.x bulk import, numbered in import order (netbox.cc).
void WriteNetboxSites(const ExportContext& ctx, OutputFile& out);          // netbox-1-sites.csv
void WriteNetboxRacks(const ExportContext& ctx, OutputFile& out);          // netbox-2-racks.csv
void WriteNetboxManufacturers(const ExportContext& ctx, OutputFile& out);  // netbox-3-manufacturers.csv
void WriteNetboxDeviceTypes(const ExportContext& ctx, OutputFile& out);    // netbox-4-device-types.csv
void WriteNetboxDeviceRoles(const ExportContext& ctx, OutputFile& out);    // netbox-5-device-roles.csv
void WriteNetboxDevices(const ExportContext& ctx, OutputFile& out);        // netbox-6-devices.csv
void WriteNetboxInterfaces(const ExportContext& ctx, OutputFile& out);     // netbox-7-interfaces.csv
void WriteNetboxCables(const ExportContext& ctx, OutputFile& out);         // netbox-8-cables.csv
// A port's interface name in NetBox: the device-type library's naming for the switch model where the
// library has one (catalog column netbox_interface), else the plan's port name.
std::string NetboxInterface(const ExportContext& ctx, PortRef ref);
void WriteDot(const ExportContext& ctx, OutputFile& out);  // topology.dot
// plan.html: the plan as one self-contained page: tier diagrams, rack elevations, the cable table
// (virtualized, with search and filters), the BOM and the findings (plan_html.cc).
void WritePlanHtml(const ExportContext& ctx, OutputFile& out);
void WriteSlurmTopology(const ExportContext& ctx, OutputFile& out);  // topology.conf
// ibnetdiscover-format topology of one InfiniBand plane, loadable by ibsim.
void WriteIbnetdiscover(const ExportContext& ctx, size_t plane, OutputFile& out);
// OpenSM's fat-tree inputs for an InfiniBand plane: root switch GUIDs (opensm -a / root_guid_file) and
// compute-node port GUIDs (opensm -u / cn_guid_file), in the GUIDs of the ibnetdiscover export.
void WriteOpensmRootGuids(const ExportContext& ctx, size_t plane, OutputFile& out);
void WriteOpensmCnGuids(const ExportContext& ctx, size_t plane, OutputFile& out);

}  // namespace railyard
