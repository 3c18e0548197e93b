#include "catalog/catalog.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace railyard {
namespace {

TEST(Catalog, BuiltinLoadsAndEveryRowCitesASource) {
  const Catalog& c = Catalog::Builtin();
  EXPECT_GE(c.switches().size(), 15u);
  EXPECT_GE(c.nics().size(), 30u);
  EXPECT_GE(c.cables().size(), 50u);
  for (const auto& s : c.switches()) {
    EXPECT_FALSE(s.source.empty()) << s.model;
    EXPECT_FALSE(s.confidence.empty()) << s.model;
  }
  for (const auto& n : c.nics()) EXPECT_FALSE(n.source.empty()) << n.opn;
  for (const auto& x : c.cables()) EXPECT_FALSE(x.source.empty()) << x.opn;
}

TEST(Catalog, FindsSwitchByModelOrOpnIgnoringCase) {
  const Catalog& c = Catalog::Builtin();
  auto by_model = c.FindSwitch("QM9700");
  auto by_opn = c.FindSwitch("mqm9700-ns2f");
  ASSERT_TRUE(by_model);
  EXPECT_EQ(by_model, by_opn);
  const SwitchModel& qm = c.switches()[*by_model];
  // QM9700: 32 twin-port OSFP cages = 64 x 400G NDR (catalog_switches.csv, H).
  EXPECT_EQ(qm.PortsAt(400), 64u);
  EXPECT_EQ(qm.PortsAt(200), 128u);
  EXPECT_EQ(qm.PortsAt(800), 0u);
  EXPECT_EQ(qm.cages, 32);
  EXPECT_EQ(qm.fabric, FabricKind::kInfiniband);
  EXPECT_FALSE(c.FindSwitch("QM9999"));
}

TEST(Catalog, SplitPortSwitchHasUplinkGroup) {
  const Catalog& c = Catalog::Builtin();
  const SwitchModel& sn2201 = c.switches()[*c.FindSwitch("SN2201")];
  EXPECT_EQ(sn2201.PortsAt(1), 48u);
  EXPECT_EQ(sn2201.FastestUplink(), 100u);
  EXPECT_EQ(sn2201.UplinkPortsAt(100), 4u);
}

TEST(Catalog, NicFacts) {
  const Catalog& c = Catalog::Builtin();
  const NicModel& cx7 = c.nics()[*c.FindNic("MCX75310AAS-NEAT")];
  EXPECT_EQ(cx7.family, "ConnectX-7");
  EXPECT_EQ(cx7.max_speed, 400u);
  EXPECT_EQ(cx7.pcie_gen, 5);
  EXPECT_EQ(cx7.psid, "MT_0000000838");
  EXPECT_TRUE(cx7.SupportsInfiniband());
  const NicModel& dx = c.nics()[*c.FindNic("MCX623106AN-CDAT")];
  EXPECT_FALSE(dx.SupportsInfiniband());
}

TEST(Catalog, SuggestsCloseOpns) {
  const Catalog& c = Catalog::Builtin();
  EXPECT_EQ(c.SuggestNic("MCX75310AAS-NEAX"), "MCX75310AAS-NEAT");
  EXPECT_EQ(c.SuggestSwitch("QM970"), "QM9700");
  EXPECT_EQ(c.SuggestNic("totally-unknown-part"), "");
}

TEST(Catalog, BadDataNamesFileLineAndColumn) {
  const std::string sw =
      "model,opns,vendor,fabric,port_naming,cages,cage,ports,uplink_cage,uplink_ports,rack_units,typical_power_w,"
      "max_power_w,source,confidence\n"
      "X,,V,infiniband,ib,32,osfp,400:sixty,,,1,,,src,H\n";
  try {
    Catalog::FromCsv(sw, "opn\n", "opn\n");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("switches.csv:2: column ports"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

namespace fs = std::filesystem;

class SiteCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("railyard-site-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  fs::path dir_;
};

constexpr const char* kCableHeader =
    "opn,kind,speed_gbps,links,end_a,end_b,paired,medium,length_m,reach_m,power_w,source,confidence\n";

TEST_F(SiteCatalogTest, RowsReplaceByKeyOrAddAndSayWhereTheyCameFrom) {
  Write("cables.csv", std::string(kCableHeader) +
                          "MFP7E10-N010,fibre,400,1,mpo12-apc,mpo12-apc,0,mmf,10,50,,site price list,H\n"
                          "SITE-MMF-12M,fibre,400,1,mpo12-apc,mpo12-apc,0,mmf,12,50,,our cabling vendor,M\n");
  const Catalog& base = Catalog::Builtin();
  Catalog site = base.WithSite(dir_.string());
  EXPECT_EQ(site.cables().size(), base.cables().size() + 1);  // one replaced, one added
  const CableItem& replaced = site.cables()[*site.FindCable("MFP7E10-N010")];
  EXPECT_EQ(replaced.source, "site price list");
  EXPECT_EQ(replaced.origin, (dir_ / "cables.csv").string() + ":2");
  EXPECT_EQ(site.cables()[*site.FindCable("SITE-MMF-12M")].origin, (dir_ / "cables.csv").string() + ":3");
  EXPECT_EQ(site.switches()[*site.FindSwitch("QM9700")].origin, "builtin");
  EXPECT_EQ(base.cables()[*base.FindCable("MFP7E10-N010")].origin, "builtin");  // the built-in one is untouched
}

TEST_F(SiteCatalogTest, BadRowsNameFileLineAndColumn) {
  Write("cables.csv", std::string(kCableHeader) + "SITE-X,fibre,fast,1,mpo12-apc,mpo12-apc,0,mmf,12,50,,x,M\n");
  try {
    Catalog::Builtin().WithSite(dir_.string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((dir_ / "cables.csv").string() + ":2: column speed_gbps"), std::string::npos)
        << e.what();
  }
  Write("cables.csv", "opn,kind\nX,dac\n");
  try {
    Catalog::Builtin().WithSite(dir_.string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cables.csv:1: no column"), std::string::npos) << e.what();
  }
  fs::remove(dir_ / "cables.csv");
  Write("switch.csv", "model\n");  // a misnamed file is an error, not silently ignored
  EXPECT_THROW(Catalog::Builtin().WithSite(dir_.string()), std::runtime_error);
  fs::remove(dir_ / "switch.csv");
  EXPECT_THROW(Catalog::Builtin().WithSite(dir_.string()), std::runtime_error);  // nothing to lay over
  EXPECT_THROW(Catalog::Builtin().WithSite((dir_ / "nope").string()), std::runtime_error);
}

}  // namespace
}  // namespace railyard
