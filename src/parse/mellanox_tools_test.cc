// mlxfwmanager/mlxup, mst status, ibstatus and iblinkinfo on every real sample.
#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "parse/iblinkinfo.h"
#include "parse/mellanox_tools.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

FwManagerReport Fw(const std::string& name) { return ParseMlxfwmanager(ReadText(FixturePath("mlxfwmanager/" + name))); }

TEST(Mlxfwmanager, QueryTextAndXmlAgree) {
  for (const char* f :
       {"mlxfwmanager/cx6lx-mlxup-query-update-required-with-base-guid.txt", "mlxfwmanager/cx6lx-mlxup-query-format-xml.xml"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  FwManagerReport text = Fw("cx6lx-mlxup-query-update-required-with-base-guid.txt");
  FwManagerReport xml = Fw("cx6lx-mlxup-query-format-xml.xml");
  ASSERT_EQ(text.devices.size(), 1u);
  ASSERT_EQ(xml.devices.size(), 1u);
  for (const FwManagerDevice* d : {&text.devices[0], &xml.devices[0]}) {
    EXPECT_EQ(d->device_type, "ConnectX6LX");
    EXPECT_EQ(d->part_number, "MCX631102AS-ADA_Ax");
    EXPECT_EQ(d->psid, "MT_0000000575");
    EXPECT_EQ(d->pci_device_name, "0002:01:00.0");
    EXPECT_EQ(d->base_guid, "e8ebd3030070cf12");
    EXPECT_EQ(d->base_mac, "e8ebd370cf12");
    EXPECT_EQ(d->versions.at("FW").current, "26.33.1048");
    EXPECT_EQ(d->versions.at("FW").available, "26.43.1014");
    EXPECT_EQ(d->versions.at("UEFI").current, "14.26.0017");
    EXPECT_EQ(d->status, "Update required");
    EXPECT_EQ(d->description, "ConnectX-6 Lx EN adapter card; 25GbE; Dual-port SFP28; PCIe 4.0 x8; Secure Boot; No Crypto;");
  }
}

TEST(Mlxfwmanager, OtherShapes) {
  for (const char* f : {"cx7-mlxup-two-cards-update-required-no-base-guid.txt", "cx3-mlxup-old-format-port1-port2-mac.txt",
                        "cx4lx-mlxfwmanager-no-matching-image-base-mac-only.txt", "bluefield1-smartnic-up-to-date-nvme-row.txt",
                        "cx6dx-mlnx-en-installer-fw-update-and-pci-link-check.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(std::string("mlxfwmanager/") + f));
  }
  FwManagerReport two = Fw("cx7-mlxup-two-cards-update-required-no-base-guid.txt");
  ASSERT_EQ(two.devices.size(), 2u);
  EXPECT_EQ(two.devices[1].pci_device_name, "/dev/mst/mt4129_pciconf0");
  EXPECT_EQ(two.devices[1].base_mac, "e09d73126474");
  EXPECT_EQ(two.devices[0].versions.at("PXE").available, "");  // N/A
  FwManagerReport cx3 = Fw("cx3-mlxup-old-format-port1-port2-mac.txt");
  EXPECT_EQ(cx3.devices[0].port_macs, (std::vector<std::string>{"7cfe90bed011", "7cfe90bed012"}));
  EXPECT_EQ(cx3.devices[0].status, "Up to date");
  EXPECT_EQ(Fw("cx4lx-mlxfwmanager-no-matching-image-base-mac-only.txt").devices[0].status, "No matching image found");
  FwManagerReport bf = Fw("bluefield1-smartnic-up-to-date-nvme-row.txt");
  EXPECT_EQ(bf.devices[0].versions.at("NVMe").current, "20.1.0003");
  FwManagerReport installer = Fw("cx6dx-mlnx-en-installer-fw-update-and-pci-link-check.txt");
  ASSERT_EQ(installer.devices.size(), 1u);  // the update log after the query adds nothing
  EXPECT_EQ(installer.devices[0].versions.at("FW").current, "22.31.1014");
  EXPECT_EQ(ParseMlxfwmanager("-E- No devices found\n").warnings.size(), 1u);
}

TEST(Mlxfwmanager, FlashedAndRunningFirmwareKeptApart) {
  // "FW (Running)" is its own row: it must not overwrite the flashed "FW" version (it did once).
  struct Case {
    const char* file;
    const char* flashed;
    const char* running;
    const char* status;
  };
  for (const Case& c :
       {Case{"mlxfwmanager/mlxup-cx7-mcx75310aas-nea-fw-running-pending-up-to-date.txt", "28.47.1026", "28.46.3048",
             "Up to date"},
        Case{"mlxfwmanager/hp-544plus-flr-qsfp-cx3pro-hp-psid-fw-running-pending-windows.txt", "2.42.5700", "2.42.5016",
             "Up to date"},
        Case{"mlxfwmanager/bf2-mbf2h332a-aeno-fw-running-pending-after-bfb-online.txt", "24.47.1026", "24.42.1000", ""},
        Case{"mlxfwmanager/bf2-mbf2h332a-aeno-update-required-before-bfb-online.txt", "24.42.1000", "24.42.1000",
             "Update required"},
        Case{"mlxfwmanager/mlxup-cx6lx-mcx631102as-query-update-required.txt", "26.33.1048", "26.33.1048", "Update required"}}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(c.file));
    FwManagerReport r = ParseMlxfwmanager(ReadText(FixturePath(c.file)));
    ASSERT_EQ(r.devices.size(), 1u) << c.file;
    EXPECT_EQ(FlashedFirmware(r.devices[0]), c.flashed) << c.file;
    EXPECT_EQ(RunningFirmware(r.devices[0]), c.running) << c.file;
    if (*c.status) {
      EXPECT_EQ(r.devices[0].status, c.status) << c.file;
    }
    EXPECT_EQ(r.devices[0].versions.count("(Running)"), 0u) << c.file;
  }
}

TEST(Devlink, DevInfoRunningAndStored) {
  DevlinkReport two =
      ParseDevlinkDevInfo(ReadText(FixturePath("devlink/cx7-mt0000000894-serial-numbers-two-pfs-kernel-patch.txt")));
  EXPECT_TRUE(two.warnings.empty());
  ASSERT_EQ(two.devices.size(), 2u);  // the auxiliary/ handles are not PCI functions
  EXPECT_EQ(two.devices[1].pci_address, "0000:08:00.1");
  EXPECT_EQ(two.devices[0].driver, "mlx5_core");
  EXPECT_EQ(two.devices[0].board_serial, "MT2314XZ00YA");
  EXPECT_EQ(two.devices[0].psid, "MT_0000000894");
  EXPECT_EQ(two.devices[0].running_fw, "28.41.1000");
  EXPECT_EQ(two.devices[0].stored_fw, "28.41.1000");
  DevlinkReport old = ParseDevlinkDevInfo(ReadText(FixturePath("devlink/cx5-mt0000000009-original-info-get-kernel-patch.txt")));
  ASSERT_EQ(old.devices.size(), 1u);
  EXPECT_EQ(old.devices[0].stored_fw, "16.26.0100");
  EXPECT_TRUE(old.devices[0].board_serial.empty());
  DevlinkReport uid =
      ParseDevlinkDevInfo(ReadText(FixturePath("devlink/cx7-mt0000000894-function-uid-two-pfs-kernel-patch.txt")));
  EXPECT_EQ(uid.devices.size(), 2u);
  EXPECT_FALSE(ParseDevlinkDevInfo("hello world\n").warnings.empty());
}

TEST(MstStatus, PlainVerboseAndFailedStart) {
  for (const char* f :
       {"mst/status-cx7-two-dual-port-cards-pciconf-only.txt", "mst/status-v-dgx-spark-gb10-cx7-rdma-net-numa-columns.txt",
        "mst/start-failure-mst-pci-module-not-found-aarch64.txt", "mst/status-cx6lx-arm64-domain-0002-pciconf-only.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  MstStatus plain = ParseMstStatus(ReadText(FixturePath("mst/status-cx7-two-dual-port-cards-pciconf-only.txt")));
  EXPECT_FALSE(plain.pci_module_loaded);
  EXPECT_TRUE(plain.pciconf_module_loaded);
  ASSERT_EQ(plain.devices.size(), 2u);
  EXPECT_EQ(plain.devices[1].mst_path, "/dev/mst/mt4129_pciconf1");
  EXPECT_EQ(plain.devices[1].pci_address, "0001:05:00.0");
  MstStatus verbose = ParseMstStatus(ReadText(FixturePath("mst/status-v-dgx-spark-gb10-cx7-rdma-net-numa-columns.txt")));
  ASSERT_EQ(verbose.devices.size(), 6u);
  EXPECT_EQ(verbose.devices[0].device_type, "GB100(rev:0)");
  EXPECT_EQ(verbose.devices[0].rdma, "");  // empty columns stay empty
  EXPECT_EQ(verbose.devices[2].rdma, "roceP2p1s0f1");
  EXPECT_EQ(verbose.devices[2].net, "net-aerial03");
  EXPECT_EQ(verbose.devices[2].numa, -1);
  MstStatus failed = ParseMstStatus(ReadText(FixturePath("mst/start-failure-mst-pci-module-not-found-aarch64.txt")));
  EXPECT_TRUE(failed.start_failed);
  EXPECT_TRUE(failed.devices.empty());
  EXPECT_EQ(ParseMstStatus(ReadText(FixturePath("mst/status-cx6lx-arm64-domain-0002-pciconf-only.txt"))).devices[0].pci_address,
            "0002:01:00.0");
}

TEST(Ibstatus, ActiveHdrAndDisabledRocePort) {
  for (const char* f : {"ibstatus/a100-hdr-all-active-plus-eth.txt", "ibstatus/cx6dx-roce-one-port-disabled.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  auto a100 = ParseIbstatus(ReadText(FixturePath("ibstatus/a100-hdr-all-active-plus-eth.txt"))).rows;
  ASSERT_GE(a100.size(), 4u);
  EXPECT_EQ(a100[0].device, "mlx5_0");
  EXPECT_EQ(a100[0].state, "ACTIVE");
  EXPECT_EQ(a100[0].rate_gbps, 200u);
  EXPECT_EQ(a100[0].rate_detail, "4X HDR");
  auto roce = ParseIbstatus(ReadText(FixturePath("ibstatus/cx6dx-roce-one-port-disabled.txt"))).rows;
  ASSERT_EQ(roce.size(), 2u);
  EXPECT_EQ(roce[0].state, "DOWN");
  EXPECT_EQ(roce[0].phys_state, "Disabled");
  EXPECT_EQ(roce[0].link_layer, "Ethernet");
  const Parsed<IbstatusPort> nothing = ParseIbstatus("nothing");
  EXPECT_TRUE(nothing.rows.empty());
  EXPECT_EQ(nothing.warnings.size(), 1u);
}

TEST(Iblinkinfo, EdrLinksThatCouldBeHdr) {
  auto path = FixturePath("iblinkinfo/quantum-hdr-switch-edr-links-could-be-hdr.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  IblinkinfoReport r = ParseIblinkinfo(ReadText(path), "iblinkinfo.txt");
  EXPECT_EQ(r.ports_down, 35);
  ASSERT_EQ(r.links.adjacencies.size(), 6u);
  const Adjacency& a = r.links.adjacencies[0];
  EXPECT_EQ(a.local_device, "Quantum Mellanox Technologies");
  EXPECT_EQ(a.local_guid, "0x08c0eb0300add04e");
  EXPECT_EQ(a.local_port, "21");
  EXPECT_EQ(a.remote_device, "node3 HCA-2");
  EXPECT_EQ(a.width, 4);
  EXPECT_EQ(a.speed_gbps, 100u);     // 4 x 25.78125 Gb/s signalling = EDR
  EXPECT_EQ(a.could_be_gbps, 200u);  // both ends do HDR
  EXPECT_EQ(r.links.adjacencies[4].remote_device, "MF0;d32-03-1:MQM8700/U1");
  EXPECT_EQ(r.links.adjacencies[4].could_be_gbps, 0u);
}

}  // namespace
}  // namespace railyard
