// One file railyard writes for a host (configuration, burn-in scripts): where it goes under the
// host's root, its mode and its content. Writers (config, burnin) produce them; the CLI lays them
// out as a tree or a tar.
#pragma once

#include <cstdint>
#include <string>

namespace railyard {

struct HostFile {
  std::string path;  // etc/netplan/60-railyard.yaml
  uint32_t mode = 0644;
  std::string content;
};

}  // namespace railyard
