// Test helper: plans a spec, changes the cabling of its first plane the way technicians get it
// wrong, and writes that plane as an ibnetdiscover topology for ibsim. The verifier must then
// find exactly these faults in what the real ibnetdiscover reports.
//   fabric_mutator SPEC OUT.topo [--swap LABEL,LABEL] [--remove LABEL] [--move LABEL:PORT]
//                  [--add DEVICE:PORT,DEVICE:PORT]
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "export/exporters.h"
#include "plan/planner.h"
#include "spec/spec.h"

using namespace railyard;

namespace {

uint32_t LinkByLabel(const Fabric& f, const std::string& label) {
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    if (CableLabel(f, i) == label) return i;
  }
  std::cerr << "no link labelled " << label << "\n";
  std::exit(2);
}

PortRef PortByName(const Fabric& f, const std::string& text) {
  size_t colon = text.rfind(':');
  std::string device = text.substr(0, colon);
  for (uint32_t d = 0; d < f.devices.size(); ++d) {
    if (f.devices[d].name == device) return PortRef{d, static_cast<uint16_t>(std::stoi(text.substr(colon + 1)))};
  }
  std::cerr << "no device " << device << "\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: fabric_mutator SPEC OUT.topo [--swap L1,L2] [--remove L] [--move L:PORT] [--add D:P,D:P]\n";
    return 2;
  }
  PlanResult result = Plan(LoadSpec(argv[1]));
  Fabric& f = result.fabric;
  std::vector<uint32_t> removed;
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string op = argv[i], arg = argv[i + 1];
    if (op == "--swap") {
      size_t comma = arg.find(',');
      Link& a = f.links[LinkByLabel(f, arg.substr(0, comma))];
      Link& b = f.links[LinkByLabel(f, arg.substr(comma + 1))];
      std::swap(a.z, b.z);
    } else if (op == "--remove") {
      removed.push_back(LinkByLabel(f, arg));
    } else if (op == "--move") {
      size_t colon = arg.rfind(':');
      f.links[LinkByLabel(f, arg.substr(0, colon))].z.port = static_cast<uint16_t>(std::stoi(arg.substr(colon + 1)));
    } else if (op == "--add") {
      size_t comma = arg.find(',');
      Link extra = f.links[f.planes[0].first_link + f.planes[0].links_per_level[0]];  // a leaf-spine link as template
      extra.a = PortByName(f, arg.substr(0, comma));
      extra.z = PortByName(f, arg.substr(comma + 1));
      f.links.insert(f.links.begin() + f.planes[0].first_link + f.planes[0].link_count, extra);
      ++f.planes[0].link_count;
    } else {
      std::cerr << "unknown option " << op << "\n";
      return 2;
    }
  }
  // Removed links leave the plane (highest index first, so the others keep their places).
  std::sort(removed.rbegin(), removed.rend());
  for (uint32_t index : removed) {
    f.links.erase(f.links.begin() + index);
    --f.planes[0].link_count;
  }
  ExportContext ctx(result, Catalog::Builtin());
  OutputFile out(argv[2]);
  WriteIbnetdiscover(ctx, 0, out);
  out.Commit();
  return 0;
}
