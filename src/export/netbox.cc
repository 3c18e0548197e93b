// NetBox 4.x bulk import of the whole plan, one CSV per object type, numbered in the order NetBox
// needs them (each refers to objects the earlier ones created): sites, racks, manufacturers, device
// types, device roles, devices, interfaces, cables. Columns are those of NetBox's import forms
// (netbox/dcim/forms/bulk_import.py, v4.6.8); export_test checks them against those lists.
//
// Device types go in as CSV rows without component templates, so every interface a cable ends on
// is created by netbox-7-interfaces.csv. (A site that imports the device-type library's YAML
// instead gets the interfaces from the templates: skip files 4 and 7; cable ends use the library's
// interface names where it has the model, see NetboxInterface.)
#include <map>
#include <set>

#include <fmt/compile.h>

#include "export/exporters.h"
#include "plan/cabling.h"

namespace railyard {

namespace {

std::string Slug(std::string_view text) {
  std::string slug;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      slug += static_cast<char>(std::tolower(u));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "railyard" : slug;
}

constexpr const char* kGenericVendor = "Generic";

struct DeviceTypeRow {
  std::string manufacturer, model, slug, part_number;
  uint32_t u_height = 1;
};

// Role, manufacturer and device type of a device, as NetBox names them.
struct NetboxIdentity {
  std::string_view role;
  std::string manufacturer;
  std::string model;
};

NetboxIdentity IdentityOf(const ExportContext& ctx, const Device& d) {
  if (d.role == DeviceRole::kSwitch) {
    const SwitchModel& m = ctx.catalog.switches()[d.model];
    return {ToString(d.tier), m.vendor, m.model};
  }
  if (d.role == DeviceRole::kAppliance) return {"appliance", kGenericVendor, fmt::format("Appliance {}U", d.height_u)};
  return {"gpu-node", kGenericVendor, fmt::format("GPU node {}U", d.height_u)};
}

std::map<std::pair<std::string, std::string>, DeviceTypeRow> DeviceTypes(const ExportContext& ctx) {
  std::map<std::pair<std::string, std::string>, DeviceTypeRow> types;
  for (const Device& d : ctx.fabric().devices) {
    NetboxIdentity id = IdentityOf(ctx, d);
    auto key = std::pair(id.manufacturer, id.model);
    if (types.count(key)) continue;
    DeviceTypeRow row{id.manufacturer, id.model, Slug(id.manufacturer + "-" + id.model), "", d.height_u};
    if (d.role == DeviceRole::kSwitch) {
      const SwitchModel& m = ctx.catalog.switches()[d.model];
      if (!m.netbox_device_type.empty()) row.slug = m.netbox_device_type;  // the library's, so the two agree
      auto chosen = ctx.result.switch_opns.find(d.model);
      if (chosen != ctx.result.switch_opns.end()) {
        row.part_number = chosen->second.first;
      } else if (!m.opns.empty()) {
        row.part_number = m.opns.front();
      }
    }
    types.emplace(key, row);
  }
  return types;
}

// NetBox's interface type for a port: InfiniBand by rate, Ethernet by rate and cage.
std::string_view InterfaceType(const ExportContext& ctx, PortRef ref, const Plane& plane, Gbps speed) {
  const Device& d = ctx.fabric().devices[ref.device];
  if ((d.role == DeviceRole::kSwitch && ref.port == kMgmtPort) || plane.bmc) return "1000base-t";
  if (plane.kind == FabricKind::kInfiniband) {
    switch (speed) {
      case 100:
        return "infiniband-edr";
      case 200:
        return "infiniband-hdr";
      case 400:
        return "infiniband-ndr";
      case 800:
        return "infiniband-xdr";
      default:
        return "other";
    }
  }
  std::string form = EndForm(ctx.catalog, ctx.fabric(), ref);
  if (form == "rj45") return speed >= 10 ? "10gbase-t" : "1000base-t";
  if (form.starts_with("osfp")) return speed >= 800 ? "800gbase-x-osfp" : speed >= 400 ? "400gbase-x-osfp" : "other";
  if (form == "qsfp112" && speed == 400) return "400gbase-x-qsfp112";
  if (form == "qsfp-dd" && speed == 400) return "400gbase-x-qsfpdd";
  if (form == "qsfp56" && speed == 200) return "200gbase-x-qsfp56";
  if (form == "qsfp28" && speed == 100) return "100gbase-x-qsfp28";
  if (form == "sfp28" && speed == 25) return "25gbase-x-sfp28";
  if (form == "sfp28" && speed == 10) return "10gbase-x-sfpp";
  return "other";
}

}  // namespace

std::string NetboxInterface(const ExportContext& ctx, PortRef ref) {
  const Fabric& f = ctx.fabric();
  const Device& d = f.devices[ref.device];
  if (d.role != DeviceRole::kSwitch || ref.port == kMgmtPort) return ctx.ports(ref);
  const SwitchModel& model = ctx.catalog.switches()[d.model];
  const PortLayout& layout = f.planes[static_cast<size_t>(d.plane)].tier[static_cast<size_t>(d.tier) - 1].layout;
  // The library lists the cages at their native port count (QM9700: 2 per cage, 64 interfaces); a
  // split port (4 per cage) or a second port group has no interface there: the plan's name stands.
  SpeedCount fastest;
  for (const SpeedCount& sc : model.ports) {
    if (sc.speed > fastest.speed) fastest = sc;
  }
  uint32_t native = fastest.count;
  uint32_t native_per_cage = model.cages ? native / model.cages : 0;
  if (model.netbox_interface.empty() || ref.port == 0 || ref.port > layout.a_ports || layout.a_per_cage != native_per_cage) {
    return ctx.ports(ref);
  }
  uint32_t index = ref.port - 1u;
  uint32_t cage0 = index / layout.a_per_cage, lane0 = index % layout.a_per_cage;
  return fmt::format(fmt::runtime(model.netbox_interface), fmt::arg("port", ref.port), fmt::arg("cage", cage0 + 1),
                     fmt::arg("lane", lane0 + 1), fmt::arg("cage0", cage0), fmt::arg("lane0", lane0));
}

void WriteNetboxCables(const ExportContext& ctx, OutputFile& out) {  // netbox-8-cables.csv
  const Fabric& f = ctx.fabric();
  // NetBox 4.x bulk-import columns. ACC has no NetBox type: dac-active, said in the description.
  out.Append(
      "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status,label,"
      "length,length_unit,description\n");
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    std::string_view type;
    std::string_view medium = l.cable != kNoItem ? std::string_view(ctx.catalog.cables()[l.cable].medium) : "";
    switch (l.media) {
      case Media::kDac:
        type = "dac-passive";
        break;
      case Media::kAcc:
        type = "dac-active";
        break;
      case Media::kAoc:
        type = "aoc";
        break;
      case Media::kRj45:
        type = "cat6";
        break;
      case Media::kOptical:
        type = medium.starts_with("mmf") ? "mmf-om4" : "smf-os2";
        break;
      case Media::kNone:
        type = "";
        break;
    }
    out.Print(FMT_COMPILE("{},dcim.interface,{},{},dcim.interface,{},{},planned,{},{},m,{} {} {}{}\n"),
              f.devices[l.a.device].name, NetboxInterface(ctx, l.a), f.devices[l.z.device].name, NetboxInterface(ctx, l.z), type,
              LabelParts(f, i), l.length_m, f.planes[l.plane].name, LevelName(l.level),
              l.cable != kNoItem ? std::string_view(ctx.catalog.cables()[l.cable].opn) : std::string_view("no cable chosen"),
              l.media == Media::kAcc ? " (active copper)" : "");
  }
}

void WriteNetboxSites(const ExportContext& ctx, OutputFile& out) {
  out.Append("name,slug,status,description\n");
  out.Print("{},{},planned,planned by railyard\n", CsvEscape(ctx.fabric().name), Slug(ctx.fabric().name));
}

void WriteNetboxRacks(const ExportContext& ctx, OutputFile& out) {
  out.Append("site,name,status,width,u_height,description\n");
  const std::string site = CsvEscape(ctx.fabric().name);
  for (const Rack& r : ctx.fabric().racks) {
    out.Print("{},{},planned,19,{},{}\n", site, r.name, ctx.fabric().rack_units,
              CsvEscape(fmt::format("{} rack, row {}, position {}", r.network ? "network" : "GPU", r.row + 1, r.position + 1)));
  }
}

void WriteNetboxManufacturers(const ExportContext& ctx, OutputFile& out) {
  out.Append("name,slug\n");
  std::set<std::string> vendors;
  for (const auto& [key, row] : DeviceTypes(ctx)) vendors.insert(row.manufacturer);
  for (const std::string& v : vendors) out.Print("{},{}\n", CsvEscape(v), Slug(v));
}

void WriteNetboxDeviceTypes(const ExportContext& ctx, OutputFile& out) {
  out.Append("manufacturer,model,slug,part_number,u_height,is_full_depth\n");
  for (const auto& [key, row] : DeviceTypes(ctx)) {
    out.Print("{},{},{},{},{},true\n", CsvEscape(row.manufacturer), CsvEscape(row.model), row.slug, CsvEscape(row.part_number),
              row.u_height);
  }
}

void WriteNetboxDeviceRoles(const ExportContext& ctx, OutputFile& out) {
  out.Append("name,slug,color,description\n");
  std::set<std::string_view> used;
  for (const Device& d : ctx.fabric().devices) used.insert(IdentityOf(ctx, d).role);
  // NetBox wants a colour per role: 6 hex digits, no '#'.
  const std::vector<std::tuple<std::string_view, std::string_view, std::string_view>> roles = {
      {"gpu-node", "76b900", "GPU server"},
      {"appliance", "9e9e9e", "non-GPU endpoint (UFM, storage head)"},
      {"leaf", "2196f3", "leaf switch"},
      {"spine", "3f51b5", "spine switch"},
      {"core", "673ab7", "core switch"}};
  for (const auto& [name, color, what] : roles) {
    if (used.count(name)) out.Print("{},{},{},{}\n", name, name, color, CsvEscape(what));
  }
}

void WriteNetboxDevices(const ExportContext& ctx, OutputFile& out) {
  out.Append("name,role,manufacturer,device_type,status,site,rack,position,face,airflow\n");
  const std::string site = CsvEscape(ctx.fabric().name);
  for (uint32_t i = 0; i < ctx.fabric().devices.size(); ++i) {
    const Device& d = ctx.fabric().devices[i];
    NetboxIdentity id = IdentityOf(ctx, d);
    // NetBox's airflow with the port side as the front: P2C (in at the power supplies, out at the
    // ports) is rear-to-front, C2P front-to-rear.
    std::string_view airflow;
    if (d.role == DeviceRole::kSwitch) {
      auto chosen = ctx.result.switch_opns.find(d.model);
      if (chosen != ctx.result.switch_opns.end()) {
        airflow = chosen->second.second == "p2c" ? "rear-to-front" : chosen->second.second == "c2p" ? "front-to-rear" : "";
      }
    }
    out.Print(FMT_COMPILE("{},{},{},{},planned,{},{},{},front,{}\n"), d.name, id.role, CsvEscape(id.manufacturer),
              CsvEscape(id.model), site, ctx.RackOf(i), d.u, airflow);
  }
}

void WriteNetboxInterfaces(const ExportContext& ctx, OutputFile& out) {
  out.Append("device,name,type,speed,mgmt_only,description\n");
  const Fabric& f = ctx.fabric();
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    const Plane& plane = f.planes[l.plane];
    for (PortRef ref : {l.a, l.z}) {
      const Device& d = f.devices[ref.device];
      bool mgmt = (d.role == DeviceRole::kSwitch && ref.port == kMgmtPort) || (plane.bmc && d.role != DeviceRole::kSwitch);
      out.Print(FMT_COMPILE("{},{},{},{},{},{} {}\n"), d.name, NetboxInterface(ctx, ref), InterfaceType(ctx, ref, plane, l.speed),
                uint64_t{l.speed} * 1'000'000, mgmt ? "true" : "false", plane.name, LabelParts(f, i));
    }
  }
}

}  // namespace railyard
