#include "export/plan_outputs.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "export/write_all.h"

namespace railyard {

const std::vector<PlanOutput>& PlanOutputs() {
  using S = OutputScope;
  static const std::vector<PlanOutput> outputs = {
      {"labels.csv", S::kOnce, "two rows per cable (A and Z end), the far end printed", WriteLabels},
      {"plan.json", S::kOnce, "the whole fabric: planes, racks, devices, links, BOM, findings", WritePlanJson},
      {"plan.index", S::kIndexOfPrevious, "what verify, doctor and ledger read of plan.json", nullptr, nullptr, WritePlanIndex},
      {"ip-plan.csv", S::kOnce, "link, host, IPoIB, loopback and management addresses; ASNs", WriteIpPlan},
      {"plan.html", S::kOnce, "the plan as one self-contained page", WritePlanHtml},
      {"cutsheet.csv", S::kOnce, "each link once, A to Z, with rack, U, port, cable or optics", WriteCutsheet},
      {"netbox-8-cables.csv", S::kOnce, "NetBox bulk import 8: cables", WriteNetboxCables},
      {"netbox-7-interfaces.csv", S::kOnce, "NetBox bulk import 7: interfaces", WriteNetboxInterfaces},
      {"netbox-6-devices.csv", S::kOnce, "NetBox bulk import 6: devices", WriteNetboxDevices},
      {"topology.dot", S::kOnce, "Cumulus PTM topology", WriteDot},
      {"ibnetdiscover-<plane>.topo", S::kPerInfinibandPlane, "the plane in ibnetdiscover format (ibsim loads it)", nullptr,
       WriteIbnetdiscover},
      {"opensm-root-guids-<plane>.txt", S::kPerInfinibandPlane, "OpenSM ftree root GUIDs (opensm -a)", nullptr,
       WriteOpensmRootGuids},
      {"opensm-cn-guids-<plane>.txt", S::kPerInfinibandPlane, "OpenSM ftree compute-node GUIDs (opensm -u)", nullptr,
       WriteOpensmCnGuids},
      {"bom.csv", S::kOnce, "quantity, spares and power per OPN", WriteBomCsv},
      {"netbox-1-sites.csv", S::kOnce, "NetBox bulk import 1: sites", WriteNetboxSites},
      {"netbox-2-racks.csv", S::kOnce, "NetBox bulk import 2: racks", WriteNetboxRacks},
      {"netbox-3-manufacturers.csv", S::kOnce, "NetBox bulk import 3: manufacturers", WriteNetboxManufacturers},
      {"netbox-4-device-types.csv", S::kOnce, "NetBox bulk import 4: device types", WriteNetboxDeviceTypes},
      {"netbox-5-device-roles.csv", S::kOnce, "NetBox bulk import 5: device roles", WriteNetboxDeviceRoles},
      {"topology.conf", S::kOnce, "Slurm tree topology (one switch per scalable unit)", WriteSlurmTopology},
  };
  return outputs;
}

std::string PlanOutputName(const PlanOutput& output, const std::string& plane) {
  std::string name = output.name;
  if (output.scope == OutputScope::kPerInfinibandPlane) {
    const size_t at = name.find("<plane>");
    name.replace(at, 7, plane);
  }
  return name;
}

std::string PlanOutputsHelp() {
  std::string out = "Files written with -o DIR (all or none, recorded in " + std::string(kPlanManifest) + "):\n";
  std::vector<const PlanOutput*> rows;  // by name for a reader; the table's order is the writers'
  for (const PlanOutput& o : PlanOutputs()) rows.push_back(&o);
  std::sort(rows.begin(), rows.end(),
            [](const PlanOutput* a, const PlanOutput* b) { return std::string_view(a->name) < b->name; });
  for (const PlanOutput* o : rows) out += fmt::format("  {:<31} {}\n", o->name, o->what);
  return out;
}

}  // namespace railyard
