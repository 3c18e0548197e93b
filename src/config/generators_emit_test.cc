// The configuration generators write the values they are given only through the emitters
// (util/shell_emit.h, util/config_emit.h, util/yaml_emit.h): every data field of the configuration
// structs is set, one at a time, to a hostile value, past the checks plan.json's readers apply. Each
// output either refuses (EmitError, or an error naming what it cannot write) or keeps the structure of
// the output for benign values: the same count of configuration lines per file, YAML and JSON that
// parse, and a roce-qos.sh that bash reads and that runs, under stand-in tools, without the marker
// command in the value ever running. A value pasted into the text at a call site fails this test.
#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "config/host_config.h"
#include "config/roce_config.h"
#include "config/switch_config.h"
#include "util/config_emit.h"
#include "util/output_path.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

const std::string kMark = "/tmp/railyard-generators-emit-mark";
const std::vector<std::string> kHostile = {"x\ny: z",
                                           "x$(touch " + kMark + ")",
                                           "x`touch " + kMark + "`",
                                           "x';touch " + kMark + ";'",
                                           "x\r\n- set:",
                                           "x\\",
                                           "x#c",
                                           "x;touch " + kMark,
                                           "x\xe2\x80\xa8y",
                                           "-x",
                                           "x%n%%",
                                           "x\"y",
                                           "x y: {a: b}",
                                           "../../x",
                                           "x\nExecStartPre=/bin/true"};

// Lines that are not blank and not comments: a value may change one, never add one.
size_t ConfigLines(const std::string& text) {
  size_t n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line(text.data() + start, (end == std::string::npos ? text.size() : end) - start);
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] != '#' && line[first] != '!') ++n;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return n;
}

std::vector<HostPortConfig> BenignPorts() {
  auto port = [](std::string plane, std::string kind, std::string mode, std::string dev, std::string nic, std::string ip,
                 std::string prefix, std::string peer_ip, std::string label, int rail) {
    HostPortConfig p;
    p.plane = std::move(plane);
    p.kind = std::move(kind);
    p.role = p.plane;
    p.mode = std::move(mode);
    p.netdev = std::move(dev);
    p.port = std::move(nic);
    p.address = std::move(ip);
    p.prefix = std::move(prefix);
    p.peer_address = std::move(peer_ip);
    p.peer_device = "leaf1";
    p.peer_port = "swp" + std::to_string(rail);
    p.label = std::move(label);
    p.rail = rail;
    p.mtu = p.kind == "infiniband" ? 2044 : 9000;
    return p;
  };
  return {port("compute", "roce", "host", "ens1np0", "mlx5_0", "10.0.0.2/24", "10.0.0.0/24", "", "C1", 1),
          port("compute", "roce", "host", "ens2np0", "mlx5_1", "10.0.0.3/24", "10.0.0.0/24", "", "C2", 2),
          port("storage", "roce", "p2p31", "ens3np0", "mlx5_2", "10.16.0.1/31", "10.16.0.0/16", "10.16.0.0", "S1", 0),
          port("ib", "infiniband", "ipoib", "ibp4s0", "mlx5_3", "10.32.0.2/16", "10.32.0.0/16", "", "I1", 1)};
}

// The string fields of a port that carry data from the plan (not the ones that choose a branch).
std::vector<std::pair<const char*, std::string HostPortConfig::*>> PortFields() {
  return {{"plane", &HostPortConfig::plane},
          {"port", &HostPortConfig::port},
          {"netdev", &HostPortConfig::netdev},
          {"address", &HostPortConfig::address},
          {"prefix", &HostPortConfig::prefix},
          {"peer_address", &HostPortConfig::peer_address},
          {"peer_device", &HostPortConfig::peer_device},
          {"peer_port", &HostPortConfig::peer_port},
          {"label", &HostPortConfig::label}};
}

using Make =
    std::function<std::vector<HostFile>(const std::string& host, const std::vector<HostPortConfig>&, const std::string& plan)>;

// Runs `make` on the benign ports and on each hostile variant; checks every outcome.
void CheckGenerator(const std::string& what, const Make& make) {
  const std::vector<HostPortConfig> benign = BenignPorts();
  const std::vector<HostFile> base = make("n1", benign, "plan one");
  ASSERT_FALSE(base.empty()) << what;
  std::map<std::string, size_t> base_lines;
  for (const HostFile& f : base) base_lines[f.path] = ConfigLines(f.content);
  auto check = [&](const std::string& field, const std::string& value, const std::string& host,
                   const std::vector<HostPortConfig>& ports, const std::string& plan) {
    std::vector<HostFile> files;
    try {
      files = make(host, ports, plan);
    } catch (const EmitError&) {
      return;  // refused: nothing written
    }
    for (const HostFile& f : files) {
      SCOPED_TRACE(what + ": " + field + " = '" + value + "': " + f.path);
      // A path a value made is either a plain one under -o, or refused when the tree is written.
      if (!SafeRelativePath(f.path)) continue;
      auto it = base_lines.find(f.path);
      // Scripts are run instead: a quoted word may span lines there and stay one word.
      if (f.path.ends_with(".sh")) {
      } else if (it != base_lines.end()) {
        // No line more (fewer where two ports were given the same name and merged).
        EXPECT_LE(ConfigLines(f.content), it->second);
      } else {
        // The value named the file (a netdev): its twin of the benign output has the same shape.
        size_t same_kind = 0;
        for (const auto& [path, lines] : base_lines) {
          if (fs::path(path).parent_path() == fs::path(f.path).parent_path() &&
              fs::path(path).extension() == fs::path(f.path).extension())
            same_kind = std::max(same_kind, lines);
        }
        EXPECT_LE(ConfigLines(f.content), same_kind);
      }
      if (f.path.ends_with(".yaml")) {
        EXPECT_NO_THROW(YAML::Load(f.content));
      }
      if (f.path.ends_with(".sh")) {
        const fs::path script = fs::temp_directory_path() / ("railyard-emit-" + std::to_string(getpid()) + ".sh");
        std::ofstream(script) << f.content;
        // Every command it calls is missing (PATH holds only the marker's `touch`, beside the shell's
        // builtins): the script runs to its end, expanding every word, and the marker must not appear.
        const fs::path empty = fs::temp_directory_path() / ("railyard-emit-bin-" + std::to_string(getpid()));
        fs::create_directories(empty);
        if (!fs::exists(empty / "touch")) fs::create_symlink("/usr/bin/touch", empty / "touch");  // the marker's command
        EXPECT_EQ(std::system(("/bin/bash -n '" + script.string() + "'").c_str()), 0);
        std::system(
            ("cd /tmp && SYS=/nonexistent PATH='" + empty.string() + "' /bin/bash '" + script.string() + "' > /dev/null 2>&1")
                .c_str());
        EXPECT_FALSE(fs::exists(kMark));
        fs::remove(kMark);
        fs::remove(script);
      }
    }
  };
  for (const std::string& value : kHostile) {
    check("host", value, value, benign, "plan one");
    check("plan name", value, "n1", benign, value);
    for (const auto& [field, member] : PortFields()) {
      std::vector<HostPortConfig> ports = benign;
      if (member == &HostPortConfig::plane) {
        // A plane's name is shared by its ports: renamed on all of them, as a plan would.
        for (HostPortConfig& p : ports) {
          if (p.plane == "compute") p.plane = value;
        }
      } else if (member == &HostPortConfig::peer_address) {
        ports[2].*member = value;  // only the /31 port has a gateway: another would gain a route
      } else {
        ports[0].*member = value;
        ports[2].*member = value;  // the /31 port too: its routes and gateway
      }
      check(field, value, "n1", ports, "plan one");
    }
  }
}

TEST(GeneratorsEmit, HostFilesInEveryFormat) {
  fs::remove(kMark);
  for (const char* format : {"netplan", "nm", "ifcfg", "networkd"}) {
    CheckGenerator(format, [format](const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan) {
      return HostFiles(host, ports, format, plan);
    });
  }
}

TEST(GeneratorsEmit, RoceScriptAndUnit) {
  fs::remove(kMark);
  CheckGenerator("roce", [](const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan) {
    return RoceFiles(host, ports, plan);
  });
}

TEST(GeneratorsEmit, SwitchConfigsInEveryOs) {
  auto benign = [](const std::string& os) {
    SwitchConfig sw;
    sw.name = "leaf1";
    sw.plane = "storage";
    sw.tier = "leaf";
    sw.kind = "roce";
    sw.mode = "p2p31";
    sw.asn = 65001;
    sw.loopback = "10.255.0.1";
    for (int i = 1; i <= 2; ++i) {
      SwitchPortConfig p;
      p.port = os == "eos" ? "Ethernet" + std::to_string(i) + "/1" : "swp" + std::to_string(i);
      p.label = "S" + std::to_string(i);
      p.peer_device = "n" + std::to_string(i);
      p.peer_port = "mlx5_0";
      p.address = "10.16.0." + std::to_string(2 * i) + "/31";
      p.peer_address = "10.16.0." + std::to_string(2 * i + 1);
      p.speed_gbps = 400;
      p.to_host = true;
      sw.ports.push_back(p);
    }
    return sw;
  };
  const std::vector<std::pair<const char*, std::string SwitchPortConfig::*>> port_fields = {
      {"port", &SwitchPortConfig::port},
      {"label", &SwitchPortConfig::label},
      {"peer_device", &SwitchPortConfig::peer_device},
      {"peer_port", &SwitchPortConfig::peer_port},
      {"address", &SwitchPortConfig::address},
      {"peer_address", &SwitchPortConfig::peer_address}};
  using Writer = std::string (*)(const SwitchConfig&, const std::string&);
  for (auto [os, write] : {std::pair<const char*, Writer>{"nvue", &NvueYaml}, {"eos", &EosConfig}}) {
    const SwitchConfig base_sw = benign(os);
    const std::string base = write(base_sw, "plan one");
    auto check = [&, os = os, write = write](const std::string& field, const std::string& value, const SwitchConfig& sw,
                                             const std::string& plan) {
      SCOPED_TRACE(std::string(os) + ": " + field + " = '" + value + "'");
      std::string out;
      try {
        out = write(sw, plan);
      } catch (const std::runtime_error&) {
        return;  // refused, naming what it cannot write (EOS descriptions, NVUE keys)
      }
      EXPECT_EQ(ConfigLines(out), ConfigLines(base));
      if (std::string(os) == "nvue") {
        EXPECT_NO_THROW(YAML::Load(out));
      }
    };
    for (const std::string& value : kHostile) {
      check("plan name", value, base_sw, value);
      for (const auto& [field, member] : port_fields) {
        SwitchConfig sw = base_sw;
        sw.ports[0].*member = value;
        check(field, value, sw, "plan one");
      }
      SwitchConfig sw = base_sw;
      sw.loopback = value;
      check("loopback", value, sw, "plan one");
      sw = base_sw;
      sw.name = value;
      check("name", value, sw, "plan one");
    }
  }
}

}  // namespace
}  // namespace railyard
