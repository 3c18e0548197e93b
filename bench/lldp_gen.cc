// Benchmark input generator: plans a spec and writes, for every switch, the `lldpctl -f json`
// output it would print (its neighbours on each port), with faults injected on the endpoint
// links: N pairs of cables swapped at a leaf, N cables pulled, N moved to a free port.
// Writes the injected faults to DIR/../injected.txt (one "kind label[,label]" per line).
//   lldp_gen SPEC DIR [N]
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "plan/planner.h"
#include "spec/spec.h"
#include "util/output_file.h"

using namespace railyard;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: lldp_gen SPEC DIR [FAULTS_PER_KIND]\n";
    return 2;
  }
  const std::filesystem::path dir = argv[2];
  const int faults = argc > 3 ? std::atoi(argv[3]) : 10;
  PlanResult result = Plan(LoadSpec(argv[1]));
  Fabric& f = result.fabric;
  PortNamer names(f);
  std::filesystem::create_directories(dir);
  std::ofstream injected(dir.parent_path() / "injected.txt");

  // Faults on endpoint links of the first plane, spread evenly over it.
  const Plane& plane = f.planes[0];
  const uint32_t n = plane.links_per_level[0];
  const uint32_t stride = n / (3 * faults + 3);
  std::set<uint32_t> removed;
  uint32_t next = plane.first_link + stride;
  for (int i = 0; i < faults; ++i, next += stride) {
    // Swap with the next link on the same leaf (adjacent port).
    Link& a = f.links[next];
    uint32_t other = next;
    for (uint32_t j = next + 1; j < plane.first_link + n; ++j) {
      if (f.links[j].z.device == a.z.device) {
        other = j;
        break;
      }
    }
    std::swap(a.z, f.links[other].z);
    injected << "swapped " << CableLabel(f, next) << "," << CableLabel(f, other) << "\n";
  }
  for (int i = 0; i < faults; ++i, next += stride) {
    removed.insert(next);
    injected << "missing " << CableLabel(f, next) << "\n";
  }
  // Moved: to a port number past the last one the plan uses on that switch.
  std::map<uint32_t, uint16_t> top;
  for (const Link& l : f.links) {
    for (PortRef p : {l.a, l.z}) top[p.device] = std::max<uint16_t>(top[p.device], p.port);
  }
  for (int i = 0; i < faults; ++i, next += stride) {
    Link& l = f.links[next];
    l.z.port = static_cast<uint16_t>(++top[l.z.device]);
    injected << "miswired " << CableLabel(f, next) << "\n";
  }
  // One file per switch: its view of every cable it terminates.
  std::map<uint32_t, std::vector<std::pair<uint16_t, PortRef>>> views;
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    if (removed.count(i)) continue;
    const Link& l = f.links[i];
    views[l.z.device].emplace_back(l.z.port, l.a);
    if (f.devices[l.a.device].role == DeviceRole::kSwitch && l.a.port != kMgmtPort) {
      views[l.a.device].emplace_back(l.a.port, l.z);
    }
  }
  auto port_name = [&](PortRef p) -> std::string {
    const Device& d = f.devices[p.device];
    // A moved cable lands on a port the plan does not name; name it as the switch would.
    if (d.role == DeviceRole::kSwitch && names(p) == "?") return fmt::format("swp{}", p.port);
    return names(p);
  };
  for (auto& [device, ports] : views) {
    std::sort(ports.begin(), ports.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    OutputFile out((dir / (f.devices[device].name + ".json")).string());
    out.Append("{\n  \"lldp\": {\n    \"interface\": [\n");
    for (size_t k = 0; k < ports.size(); ++k) {
      const auto& [port, peer] = ports[k];
      const Device& pd = f.devices[peer.device];
      out.Print(
          "      {{\n        \"{}\": {{\n          \"via\": \"LLDP\",\n          \"rid\": \"{}\",\n"
          "          \"age\": \"0 day, 01:00:00\",\n          \"chassis\": {{\n            \"{}\": {{\n"
          "              \"id\": {{\n                \"type\": \"mac\",\n                \"value\": "
          "\"02:00:00:{:02x}:{:02x}:{:02x}\"\n"
          "              }},\n              \"descr\": \"railyard benchmark peer\",\n"
          "              \"capability\": [{{\"type\": \"Bridge\", \"enabled\": true}}]\n            }}\n          }},\n"
          "          \"port\": {{\n            \"id\": {{\n              \"type\": \"ifname\",\n"
          "              \"value\": \"{}\"\n            }},\n            \"descr\": \"{}\",\n            \"ttl\": \"120\"\n"
          "          }}\n        }}\n      }}{}\n",
          port_name(PortRef{device, port}), k + 1, pd.name, (peer.device >> 16) & 255, (peer.device >> 8) & 255,
          peer.device & 255, port_name(peer), port_name(peer), k + 1 < ports.size() ? "," : "");
    }
    out.Append("    ]\n  }\n}\n");
    out.Commit();
  }
  std::cerr << fmt::format("lldp_gen: {} switch files, {} links, {} faults of each kind\n", views.size(), f.links.size(), faults);
  return 0;
}
