// Properties every capture reader must have, checked on every real sample in its own slot:
// CRLF line ends read the same as LF; cut at any line, the reader never crashes and what it read
// before the cut is still there (the count of records never falls as lines are added); trailing
// garbage never crashes and never goes unremarked.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "facts/collect.h"
#include "parse/fixtures.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// The capture slot a sample belongs in, from its folder (and, for ethtool, its kind); "" to skip.
std::string SlotFor(const fs::path& file) {
  const std::string dir = file.parent_path().filename().string(), name = file.filename().string();
  if (name == "SOURCES.md" || name == "README.md") return "";
  if (dir == "lspci") return "lspci-vvv.txt";
  if (dir == "flint") return "flint-q-19:00.0.txt";
  if (dir == "ethtool") {
    if (name.starts_with("i-") || name.starts_with("mlx5-")) return "ethtool-i-eth9.txt";
    if (name.starts_with("S-")) return "ethtool-S-eth9.txt";
    if (name.starts_with("cx4lx-")) return "ethtool-eth9.txt";
    return "ethtool-m-eth9.txt";
  }
  if (dir == "bonding") return "bonding-bond9.txt";
  if (dir == "dmesg") return "dmesg.txt";
  if (dir == "ibstat") return "ibstat.txt";
  if (dir == "ibstatus") return "ibstatus.txt";
  if (dir == "ibdev2netdev") return "ibdev2netdev.txt";
  if (dir == "rdma-link") return "rdma-link.txt";
  if (dir == "mlxlink") return "mlxlink-mlx5_9.txt";
  if (dir == "mlxfwmanager")
    return name.ends_with(".xml") || name.find("xml") != std::string::npos ? "mlxfwmanager.xml" : "mlxfwmanager.txt";
  if (dir == "mst") return "mst-status.txt";
  if (dir == "nmcli") return "nmcli.txt";
  if (dir == "ifcfg") return "ifcfg-eth9";
  if (dir == "ip-link") return name.find("addr") != std::string::npos ? "ip-d-addr.txt" : "ip-d-link.txt";
  if (dir == "mstvpd") return "mstvpd-19:00.0.txt";
  if (dir == "devlink") return "devlink-dev-info.txt";
  if (dir == "mlnx_qos") return "mlnx_qos-eth9.txt";
  if (dir == "lldpctl" || dir == "lldpd")
    return name.ends_with(".xml") || name.starts_with("xml") ? "lldpctl.xml"
           : name.ends_with(".json")                         ? "lldpctl.json"
                                                             : "lldpctl.txt";
  return "";
}

class CaptureProperties : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("railyard-props-{}", ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "hostname.txt") << "h\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  HostFacts With(const std::string& slot, const std::string& text) {
    { std::ofstream(dir_ / slot, std::ios::binary) << text; }
    HostFacts f = BuildHostFacts(ReadCaptureDir(dir_.string()));
    fs::remove(dir_ / slot);
    return f;
  }
  fs::path dir_;
};

nlohmann::json Facts(const HostFacts& f) {
  nlohmann::json j = ToJson(f);
  j.erase("sources");
  return j;
}

// Records of every kind a capture can add.
size_t Records(const HostFacts& f) {
  size_t n = f.pci.size() + f.firmware.size() + f.netdevs.size() + f.bonds.size() + f.rdma.size() + f.links.size() +
             f.kernel_events.size() + f.networkmanager.size() + f.ifcfg.size() + f.mst.size() + f.firmware_images.size() +
             f.lldp.size() + f.vpd.size();
  for (const auto& [name, b] : f.bonds) n += b.members.size();
  for (const RdmaFacts& r : f.rdma) n += r.ca.ports.size();
  return n;
}

size_t Warnings(const HostFacts& f) {
  size_t n = 0;
  for (const SourceStatus& s : f.sources) n += s.warnings.size();
  return n;
}

TEST_F(CaptureProperties, CrlfTruncationAndGarbageOnEveryRealSample) {
  size_t samples = 0, cuts = 0;
  for (const auto& entry : fs::recursive_directory_iterator(testing::FixturePath(""))) {
    if (!entry.is_regular_file()) continue;
    const std::string slot = SlotFor(entry.path());
    if (slot.empty()) continue;
    const std::string text = testing::ReadText(entry.path());
    const std::string where = fs::relative(entry.path(), testing::FixturePath("")).string();
    ++samples;
    HostFacts whole = With(slot, text);
    // CRLF: every "\n" as "\r\n" (a capture saved on Windows) reads the same.
    std::string crlf;
    for (char c : text) {
      if (c == '\n') crlf += '\r';
      crlf += c;
    }
    if (text.find('\r') == std::string::npos && !slot.ends_with(".json") && !slot.ends_with(".xml")) {
      EXPECT_EQ(Facts(With(slot, crlf)).dump(), Facts(whole).dump()) << where << ": CRLF reads differently";
    }
    // Cut after every line: no crash, and the records read so far never disappear as more lines come.
    size_t previous = 0;
    for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1)) {
      ++cuts;
      size_t now = Records(With(slot, text.substr(0, at + 1)));
      EXPECT_GE(now, previous) << where << ": cut after byte " << at << " lost records read before it";
      previous = now;
    }
    // Garbage after the real output: no crash; either nothing changes or something is said.
    HostFacts garbage = With(slot, text + "\n\x01\x02 zz!! not tool output ~~~\n#### 12:34 ]]\n");
    bool same = Facts(garbage).dump() == Facts(whole).dump();
    EXPECT_TRUE(same || Warnings(garbage) > Warnings(whole)) << where << ": garbage changed the facts without a warning";
  }
  EXPECT_GT(samples, 120u);
  EXPECT_GT(cuts, 5000u);
}

}  // namespace
}  // namespace railyard
