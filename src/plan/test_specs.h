// Small specs shared by the planner's tests.
#pragma once

#include <string>

#include "spec/spec.h"

namespace railyard::testing {

// DGX SuperPOD H100 with `nodes` DGX nodes and a 4-port UFM, compute plane only unless `extra`
// adds planes (YAML list items) and addressing (YAML mapping entries).
inline std::string SuperPodYaml(int nodes, const std::string& extra_planes = "", const std::string& addressing = "",
                                const std::string& layout = "") {
  return "name: test\n"
         "nodes: {count: " +
         std::to_string(nodes) +
         ", gpus: 8, pcie: gen5, per_rack: 4, name_prefix: dgx}\n"
         "planes:\n"
         "  - name: compute\n"
         "    kind: infiniband\n"
         "    nic: MCX75310AAS-NEAT\n"
         "    ports_per_node: 8\n"
         "    speed: 400G\n"
         "    switch: QM9700\n"
         "    rail_optimized: true\n"
         "    nodes_per_su: 32\n"
         "    extra_endpoints: [{name: ufm, ports: 4}]\n" +
         extra_planes + (layout.empty() ? "" : "layout:\n" + layout) + (addressing.empty() ? "" : "addressing:\n" + addressing);
}

inline Spec ParseOrDie(const std::string& yaml) { return ParseSpec(yaml, "test.yaml"); }

}  // namespace railyard::testing
