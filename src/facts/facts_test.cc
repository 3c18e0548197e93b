#include "facts/collect.h"
#include "facts/facts_files.h"

#include <filesystem>
#include <fstream>
#include <memory>

#include <unistd.h>

#include <fmt/format.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "parse/fixtures.h"
#include "util/csv.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// A capture directory as a field engineer would send it, assembled from the real samples.
class CaptureDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* f :
         {"lspci/cx7-ndr-osfp-gen5-x16-vpd.txt", "flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt",
          "ethtool/i-mlx5-cx7-vf-aws-psid-in-fw-version.txt", "ethtool/cx4lx-25g-dac-to-10g-switch-link-training-failure.txt",
          "bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt", "ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt",
          "ibdev2netdev/mixed-cx4lx-cx5-cx6-vf-plain.txt", "mlxlink/cx6dx-eth-100g-rs528-no-issue.txt",
          "dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt", "nmcli/device-status-centos7-bridge-and-lo-unmanaged.txt",
          "ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt",
          "ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt",
          "ethtool/S-mlx5-kernel-5.15-xdp-load-rx-discards-phy-out-of-buffer-pause.txt"}) {
      RAILYARD_REQUIRE_FIXTURE(testing::FixturePath(f));
    }
    dir_ = fs::temp_directory_path() / ("railyard-capture-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto put = [&](const std::string& name, const fs::path& from) { fs::copy_file(from, dir_ / name); };
    put("lspci-vvv.txt", testing::FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"));
    put("flint-q-19:00.0.txt", testing::FixturePath("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt"));
    put("ethtool-i-ens1f0np0.txt", testing::FixturePath("ethtool/i-mlx5-cx7-vf-aws-psid-in-fw-version.txt"));
    put("ethtool-ens1f0np0.txt", testing::FixturePath("ethtool/cx4lx-25g-dac-to-10g-switch-link-training-failure.txt"));
    put("bonding-bond0.txt", testing::FixturePath("bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt"));
    put("ip-j-d-link.json", fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json");
    put("ibstat.txt", testing::FixturePath("ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt"));
    put("ibdev2netdev.txt", testing::FixturePath("ibdev2netdev/mixed-cx4lx-cx5-cx6-vf-plain.txt"));
    put("mlxlink-mlx5_1.txt", testing::FixturePath("mlxlink/cx6dx-eth-100g-rs528-no-issue.txt"));
    put("dmesg.txt", testing::FixturePath("dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt"));
    put("nmcli.txt", testing::FixturePath("nmcli/device-status-centos7-bridge-and-lo-unmanaged.txt"));
    put("ifcfg-eth2", testing::FixturePath("ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt"));
    put("ethtool-m-ens1f0np0.txt",
        testing::FixturePath("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt"));
    put("ethtool-S-ens1f0np0.txt",
        testing::FixturePath("ethtool/S-mlx5-kernel-5.15-xdp-load-rx-discards-phy-out-of-buffer-pause.txt"));
    put("mlnx_qos-ens1f0np0.txt",
        fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/mlnx_qos/firmware-dcbx-dscp-pfc3-buffers-ets.txt");
    std::ofstream(dir_ / "ecn-ens1f0np0.txt") << "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3:1\n"
                                                 "/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3:0\n";
    std::ofstream(dir_ / "proc-cmdline.txt")
        << "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=4f1c ro intel_iommu=on iommu=pt quiet splash\n";
    put("netplan-50-bond.yaml", fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/netplan/bonding.yaml");
    std::ofstream(dir_ / "hostname.txt") << "gpu042\n";
    std::ofstream(dir_ / "uname-r.txt") << "6.8.0-45-generic\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(CaptureDirTest, BuildsHostFacts) {
  HostFacts f = BuildHostFacts(ReadCaptureDir(dir_.string()));
  EXPECT_EQ(f.hostname, "gpu042");
  EXPECT_EQ(f.kernel, "6.8.0-45-generic");
  ASSERT_EQ(f.pci.size(), 1u);
  EXPECT_EQ(f.pci[0].vpd.at("PN"), "MCX75310AAS-NEAT");
  EXPECT_EQ(PcieGeneration(f.pci[0].sta.speed_gts), 5);
  ASSERT_EQ(f.firmware.count("19:00.0"), 1u);
  EXPECT_EQ(f.firmware.at("19:00.0").psid, "MT_0000001244");
  ASSERT_EQ(f.bonds.count("bond0"), 1u);
  EXPECT_EQ(f.bonds.at("bond0").partner_mac, "00:00:00:00:00:00");
  // Netdevs come from ip -j -d link, enriched by ethtool where a capture has it.
  auto find = [&](const std::string& name) -> const NetdevFacts* {
    for (const NetdevFacts& n : f.netdevs) {
      if (n.name == name) return &n;
    }
    return nullptr;
  };
  const NetdevFacts* ens = find("ens1f0np0");
  ASSERT_TRUE(ens);
  EXPECT_EQ(ens->mtu, 9000u);
  EXPECT_EQ(ens->kind, "veth");
  EXPECT_EQ(ens->driver, "mlx5_core");  // from the ethtool -i capture
  EXPECT_EQ(ens->firmware_psid, "MT_0000000834");
  EXPECT_EQ(ens->link_detected, false);
  EXPECT_EQ(ens->link_detected_reason, "Link training failure, Remote side is not ready yet");
  ASSERT_TRUE(ens->module);
  EXPECT_EQ(ens->module->vendor_pn, "MCP1660-W00AE30");
  EXPECT_EQ(ens->counters.at("rx_out_of_buffer"), 990473555u);
  EXPECT_EQ(ens->counters.count("rx_packets"), 0u);  // only the counters the doctor reads are kept
  // RoCE QoS from mlnx_qos, ECN from the sysfs switches (here: receiver on, sender off on prio 3).
  ASSERT_TRUE(ens->qos);
  EXPECT_EQ(ens->qos->trust, "dscp");
  EXPECT_EQ(ens->qos->PfcPriorities(), std::vector<int>{3});
  ASSERT_TRUE(ens->ecn);
  EXPECT_EQ(ens->ecn->np_enabled[3], 1);
  EXPECT_EQ(ens->ecn->rp_enabled[3], 0);
  EXPECT_EQ(ens->ecn->rp_enabled[0], -1);
  EXPECT_FALSE(find("vm0")->qos);
  EXPECT_EQ(f.kernel_params.at("iommu"), "pt");
  ASSERT_EQ(f.netplan.count("50-bond.yaml"), 1u);
  EXPECT_EQ(f.netplan.at("50-bond.yaml").interfaces.size(), 3u);
  EXPECT_EQ(f.kernel_params.at("intel_iommu"), "on");
  EXPECT_EQ(f.kernel_params.at("quiet"), "");
  const NetdevFacts* vm0 = find("vm0");
  ASSERT_TRUE(vm0);
  EXPECT_EQ(vm0->master, "br0");
  EXPECT_EQ(find("br0")->kind, "bridge");
  EXPECT_EQ(find("eth9")->carrier, false);
  // RDMA devices from ibstat, joined with ibdev2netdev; link data from mlxlink.
  ASSERT_GE(f.rdma.size(), 3u);
  EXPECT_EQ(f.rdma[0].ca.name, "mlx5_0");
  EXPECT_EQ(f.rdma[0].ca.ports[0].rate, 400u);
  EXPECT_EQ(f.rdma[0].netdev, "ens4f0");  // the (unrelated) sample host's mapping, as captured
  ASSERT_EQ(f.links.count("mlx5_1"), 1u);
  EXPECT_EQ(f.links.at("mlx5_1").fec, "Standard RS-FEC - RS(528,514)");
  EXPECT_EQ(f.links.at("mlx5_1").status_opcode, 0);
  // Kernel events, NetworkManager's view, ifcfg files.
  ASSERT_EQ(f.kernel_events.size(), 1u);
  EXPECT_EQ(f.kernel_events[0].kind, KernelEventKind::kPcieBandwidthLimited);
  ASSERT_EQ(f.networkmanager.size(), 3u);
  EXPECT_EQ(f.networkmanager[1].state, "unmanaged");
  ASSERT_EQ(f.ifcfg.count("ifcfg-eth2"), 1u);
  EXPECT_EQ(f.ifcfg.at("ifcfg-eth2").Get("MASTER"), "bond0");
  // Every source is accounted for.
  bool ip_seen = false;
  for (const SourceStatus& s : f.sources) ip_seen = ip_seen || (s.name == "ip -j -d link" && s.present);
  EXPECT_TRUE(ip_seen);
}

TEST_F(CaptureDirTest, JsonRoundTripIsExact) {
  HostFacts f = BuildHostFacts(ReadCaptureDir(dir_.string()));
  nlohmann::json once = ToJson(f);
  nlohmann::json twice = ToJson(FactsFromJson(nlohmann::json::parse(once.dump())));
  EXPECT_EQ(once, twice);
  EXPECT_EQ(once["schema"], "railyard.facts/1");
}

TEST(Facts, CaptureWithTextIpLinkAndAddresses) {
  fs::path dir = fs::temp_directory_path() / ("railyard-iptext-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path ip = fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/iproute2";
  fs::copy_file(ip / "ip-d-s-link-veth-bridge-macvlan.txt", dir / "ip-d-link.txt");
  fs::copy_file(ip / "ip-j-addr-veth-bridge-macvlan.json", dir / "ip-j-addr.json");
  HostFacts f = BuildHostFacts(ReadCaptureDir(dir.string()));
  fs::remove_all(dir);
  ASSERT_EQ(f.netdevs.size(), 7u);
  auto find = [&](const std::string& name) -> const NetdevFacts& {
    for (const NetdevFacts& n : f.netdevs) {
      if (n.name == name) return n;
    }
    throw std::runtime_error("no " + name);
  };
  EXPECT_EQ(find("eth1").addresses, (std::vector<std::string>{"10.10.0.5/24", "fd00::5/64"}));  // link-local left out
  EXPECT_EQ(find("eth1").lower, "peer1");
  EXPECT_EQ(find("eth1").kind, "veth");
  EXPECT_EQ(find("macv0").lower, "eth1");
  EXPECT_EQ(find("macv0").kind, "other");
  EXPECT_EQ(find("br0").addresses, std::vector<std::string>{"192.168.50.2/31"});
  EXPECT_EQ(find("eth2").master, "br0");
  EXPECT_EQ(find("eth2").operstate, "lowerlayerdown");
  EXPECT_EQ(find("eth2").carrier, false);
  EXPECT_TRUE(find("peer1").addresses.empty());
}

TEST(Facts, MellanoxToolsWhereIbstatIsMissing) {
  for (const char* f : {"ibstatus/cx6dx-roce-one-port-disabled.txt", "mst/status-v-dgx-spark-gb10-cx7-rdma-net-numa-columns.txt",
                        "mlxfwmanager/cx7-mlxup-two-cards-update-required-no-base-guid.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(testing::FixturePath(f));
  }
  fs::path dir = fs::temp_directory_path() / ("railyard-mlnx-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(testing::FixturePath("ibstatus/cx6dx-roce-one-port-disabled.txt"), dir / "ibstatus.txt");
  fs::copy_file(testing::FixturePath("mst/status-v-dgx-spark-gb10-cx7-rdma-net-numa-columns.txt"), dir / "mst-status.txt");
  fs::copy_file(testing::FixturePath("mlxfwmanager/cx7-mlxup-two-cards-update-required-no-base-guid.txt"),
                dir / "mlxfwmanager.txt");
  HostFacts f = BuildHostFacts(ReadCaptureDir(dir.string()));
  fs::remove_all(dir);
  // ibstatus stands in for ibstat, in ibstat's words.
  ASSERT_EQ(f.rdma.size(), 2u);
  EXPECT_EQ(f.rdma[0].ca.name, "mlx5_0");
  ASSERT_EQ(f.rdma[0].ca.ports.size(), 1u);
  EXPECT_EQ(f.rdma[0].ca.ports[0].state, "Down");
  EXPECT_EQ(f.rdma[0].ca.ports[0].physical_state, "Disabled");
  EXPECT_EQ(f.rdma[1].ca.ports[0].state, "Active");
  EXPECT_EQ(f.rdma[1].ca.ports[0].rate, 100u);
  EXPECT_EQ(f.rdma[1].ca.ports[0].link_layer, "Ethernet");
  // mst maps /dev/mst paths to PCI addresses; mlxfwmanager says what the tool would flash.
  ASSERT_GE(f.mst.size(), 6u);
  EXPECT_EQ(f.mst[2].mst_path, "/dev/mst/mt4129_pciconf1.1");
  EXPECT_EQ(f.mst[2].pci_address, "0002:01:00.1");
  EXPECT_EQ(f.mst[2].rdma, "roceP2p1s0f1");
  ASSERT_EQ(f.firmware_images.size(), 2u);
  EXPECT_EQ(f.firmware_images[0].pci_device_name, "/dev/mst/mt4129_pciconf1");
  EXPECT_EQ(f.firmware_images[0].versions.at("FW").current, "28.42.1000");
  EXPECT_EQ(f.firmware_images[0].versions.at("FW").available, "28.43.1014");
  EXPECT_EQ(f.firmware_images[0].status, "Update required");
  nlohmann::json once = ToJson(f);
  EXPECT_EQ(once, ToJson(FactsFromJson(nlohmann::json::parse(once.dump()))));
}

TEST(Facts, MissingSourcesAreRecordedNotFatal) {
  fs::path empty = fs::temp_directory_path() / ("railyard-empty-" + std::to_string(::getpid()));
  fs::create_directories(empty);
  HostFacts f = BuildHostFacts(ReadCaptureDir(empty.string()));
  fs::remove_all(empty);
  EXPECT_TRUE(f.netdevs.empty());
  ASSERT_GE(f.sources.size(), 2u);
  auto source = [&](const std::string& name) {
    for (const SourceStatus& s : f.sources) {
      if (s.name == name) return s;
    }
    return SourceStatus{};
  };
  EXPECT_FALSE(source("lspci -vvv").present);
  EXPECT_EQ(source("lspci -vvv").detail, "lspci-vvv.txt not in the capture");
  EXPECT_EQ(source("ofed_info -s").detail, "ofed_info-s.txt not in the capture");
}

TEST(Facts, BadInputNamesTheProblem) {
  EXPECT_THROW(ReadCaptureDir("/nonexistent/dir"), std::runtime_error);
  fs::path dir = fs::temp_directory_path() / ("railyard-badip-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "ip-j-d-link.json") << "[{\"ifname\": ";
  try {
    ReadCaptureDir(dir.string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ip-j-d-link.json: not `ip -j -d link` output"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
  EXPECT_THROW(FactsFromJson(nlohmann::json::object()), std::runtime_error);
  nlohmann::json broken = {{"schema", "railyard.facts/1"}, {"host", {{"hostname", "h"}}}};
  try {
    FactsFromJson(broken);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad \"host\" section"), std::string::npos) << e.what();
  }
}

TEST(Facts, LiveSysfsFromAPreparedTree) {
  // The live collector reads any sysfs root: a prepared tree stands in for /sys.
  fs::path root = fs::temp_directory_path() / ("railyard-sysfs-" + std::to_string(::getpid()));
  fs::path eth = root / "class/net/ens3np0";
  fs::create_directories(eth);
  std::ofstream(eth / "mtu") << "4200\n";
  std::ofstream(eth / "operstate") << "down\n";
  std::ofstream(eth / "carrier") << "0\n";
  std::ofstream(eth / "address") << "b8:3f:d2:00:00:01\n";
  std::ofstream(eth / "speed") << "-1\n";
  std::ofstream(eth / "flags") << "0x1103\n";  // UP | BROADCAST | PROMISC | MULTICAST
  for (int prio = 0; prio < 8; ++prio) {
    fs::create_directories(eth / "ecn/roce_np/enable");
    fs::create_directories(eth / "ecn/roce_rp/enable");
    std::ofstream(eth / "ecn/roce_np/enable" / std::to_string(prio)) << (prio == 3 ? "1\n" : "0\n");
    std::ofstream(eth / "ecn/roce_rp/enable" / std::to_string(prio)) << "1\n";
  }
  fs::create_directories(root / "proc");
  std::ofstream(root / "proc/cmdline") << "ro pci=realloc=off dyndbg=\"file mlx5 +p\"\n";
  fs::create_directories(root / "bus/pci/devices/0000:3b:00.0");
  fs::create_directory_symlink(root / "bus/pci/devices/0000:3b:00.0", eth / "device");
  LiveOptions o;
  o.sysfs = root.string();
  o.procfs = (root / "proc").string();
  o.run_tools = false;
  HostFacts f = BuildHostFacts(CollectLive(o));
  fs::remove_all(root);
  ASSERT_EQ(f.netdevs.size(), 1u);
  const NetdevFacts& n = f.netdevs[0];
  EXPECT_EQ(n.mtu, 4200u);
  EXPECT_EQ(n.operstate, "down");
  EXPECT_EQ(n.carrier, false);
  EXPECT_EQ(n.speed_mbps, 0u);  // -1: unknown
  EXPECT_TRUE(n.promiscuous);
  EXPECT_EQ(n.pci_bdf, "0000:3b:00.0");
  EXPECT_EQ(n.kind, "physical");
  ASSERT_TRUE(n.ecn);
  EXPECT_EQ(n.ecn->np_enabled, (PerPriority{0, 0, 0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(n.ecn->rp_enabled, (PerPriority{1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(f.kernel_params.at("pci"), "realloc=off");
  EXPECT_EQ(f.kernel_params.at("dyndbg"), "file mlx5 +p");
  EXPECT_EQ(f.kernel_params.count("ro"), 1u);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// A file over the size read on a second thread: hosts arrive in file order, a bad line stops the
// read naming its line after every host before it, and a consumer that throws stops the parser.
TEST(FactsFiles, LargeFilesAreParsedAheadInOrder) {
  HostFacts f;
  f.hostname = "h";
  f.kernel_cmdline = std::string(20000, 'x');  // ~20 KB a line: 600 lines pass the threshold
  const std::string line = ToJson(f).dump();
  const fs::path file = fs::temp_directory_path() / fmt::format("railyard-large-{}.ndjson", ::getpid());
  auto write = [&](int lines, int bad_line) {
    std::ofstream out(file);
    const size_t at = line.find("\"hostname\":\"h\"") + 13;
    for (int i = 1; i <= lines; ++i) {
      const std::string named = line.substr(0, at) + std::to_string(i) + line.substr(at);
      out << (i == bad_line ? named.substr(0, 100) : named) << "\n";
    }
  };
  write(600, 0);
  ASSERT_GT(fs::file_size(file), 8u << 20);
  std::vector<std::string> names;
  ForEachFacts({file.string()}, [&](HostFacts&& h) { names.push_back(h.hostname); });
  ASSERT_EQ(names.size(), 600u);
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(names[i], "h" + std::to_string(i + 1));

  write(600, 550);
  names.clear();
  try {
    ForEachFacts({file.string()}, [&](HostFacts&& h) { names.push_back(h.hostname); });
    FAIL();
  } catch (const FactsInputError& e) {
    EXPECT_NE(std::string(e.what()).find(":550: not JSON"), std::string::npos) << e.what();
  }
  EXPECT_EQ(names.size(), 549u);

  int seen = 0;
  try {
    ForEachFacts({file.string()}, [&](HostFacts&&) {
      if (++seen == 10) throw std::runtime_error("consumer gave up");
    });
    FAIL();
  } catch (const FactsInputError& e) {
    EXPECT_NE(std::string(e.what()).find(":10: consumer gave up"), std::string::npos) << e.what();
  }
  EXPECT_EQ(seen, 10);

  // Examined on the parsing threads: results in file order, the facts never reach the caller, and what
  // `examine` throws stops the file at that line, after every host before it.
  write(600, 0);
  std::vector<std::string> examined;
  ForEachExaminedFacts(
      {file.string()}, [](HostFacts&& h) { return std::make_unique<std::string>(h.hostname + "!"); },
      [&](std::unique_ptr<std::string>&& result) { examined.push_back(*result); }, nullptr);  // move-only results too
  ASSERT_EQ(examined.size(), 600u);
  for (size_t i = 0; i < examined.size(); ++i) EXPECT_EQ(examined[i], "h" + std::to_string(i + 1) + "!");
  examined.clear();
  try {
    ForEachExaminedFacts(
        {file.string()},
        [](HostFacts&& h) {
          if (h.hostname == "h321") throw std::runtime_error("rule failed");
          return h.hostname;
        },
        [&](std::string&& result) { examined.push_back(std::move(result)); }, nullptr);
    FAIL();
  } catch (const FactsInputError& e) {
    EXPECT_NE(std::string(e.what()).find(":321: rule failed"), std::string::npos) << e.what();
  }
  EXPECT_EQ(examined.size(), 320u);
  fs::remove(file);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// The counters kept are kept_counters.csv's, wildcards included; a rule asking for any other is an
// internal error at once, never a rule that silently cannot fire.
TEST(KeptCounters, TheDataFileDecidesWhatIsKeptAndRead) {
  EXPECT_TRUE(IsKeptCounter("rx_discards_phy"));
  EXPECT_TRUE(IsKeptCounter("rx_prio3_pause"));
  EXPECT_FALSE(IsKeptCounter("rx_prio_pause"));  // '*' stands for a priority: something must be there
  EXPECT_FALSE(IsKeptCounter("rx_bytes_phy"));
  NetdevFacts n;
  n.counters["rx_discards_phy"] = 7;
  EXPECT_EQ(KeptCounter(n, "rx_discards_phy"), 7u);
  EXPECT_EQ(KeptCounter(n, "rx_out_of_buffer"), std::nullopt);
  EXPECT_THROW(KeptCounter(n, "rx_bytes_phy"), std::logic_error);
}

TEST(KeptCounters, EveryRowHasItsMeaningAndSource) {
  CsvTable t = ParseCsv(EmbeddedFileText("kept_counters.csv"), "kept_counters.csv");
  ASSERT_GE(t.rows.size(), 10u);
  for (const CsvRow& r : t.rows) {
    ASSERT_EQ(r.fields.size(), t.header.size());
    EXPECT_FALSE(r.fields[static_cast<size_t>(t.Column("meaning"))].empty()) << r.fields[0];
    EXPECT_TRUE(r.fields[static_cast<size_t>(t.Column("source"))].starts_with("https://")) << r.fields[0];
  }
}

}  // namespace
}  // namespace railyard
