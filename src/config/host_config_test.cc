#include <gtest/gtest.h>

#include "config/host_config.h"

namespace railyard {
namespace {

// A plan.json reduced to what `config hosts` reads: a /31 RoCE plane (one port), an IPoIB plane
// with two rails, and an out-of-band plane.
std::string PlanJson(const std::string& netdev = "ens1f0np0") {
  return R"({"schema":"railyard.plan/1","name":"t","planes":[
  {"name":"compute","kind":"infiniband","role":"compute","addressing":{"mode":"ipoib","vlan":0,"prefix":"10.0.0.0/12"}},
  {"name":"storage","kind":"roce","role":"storage","addressing":{"mode":"p2p31","vlan":0,"prefix":"10.16.0.0/16"}},
  {"name":"oob","kind":"ethernet","role":"oob","addressing":{"mode":"host","vlan":10,"prefix":"192.168.0.0/24"}}],
 "devices":[{"name":"n1","role":"node"},{"name":"leaf1","role":"switch"}],
 "host_ports":[{"plane":"compute","port":"mlx5_0","netdev":"ibp24s0"},{"plane":"compute","port":"mlx5_1","netdev":"ibp64s0"},
  {"plane":"storage","port":"mlx5_2","netdev":")" +
         netdev + R"("}],
 "links":[
  {"label":"C1","plane":"compute","level":"endpoint-leaf","rail":1,"a":{"device":"n1","port":"mlx5_0","ip":"10.0.0.2/12"},"z":{"device":"leaf1","port":"1"}},
  {"label":"C2","plane":"compute","level":"endpoint-leaf","rail":2,"a":{"device":"n1","port":"mlx5_1","ip":"10.0.0.3/12"},"z":{"device":"leaf1","port":"2"}},
  {"label":"S1","plane":"storage","level":"endpoint-leaf","a":{"device":"n1","port":"mlx5_2","ip":"10.16.0.1/31"},"z":{"device":"leaf1","port":"swp3","ip":"10.16.0.0/31"}},
  {"label":"O1","plane":"oob","level":"endpoint-leaf","a":{"device":"n1","port":"bmc","ip":"192.168.0.2/24"},"z":{"device":"leaf1","port":"swp4"}}]})";
}

std::string ErrorOf(const std::string& json) {
  try {
    ParseHostConfigs(json, "plan.json");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(HostConfig, PortsFromThePlanWithTheirNetdevsMtuAndRouting) {
  HostConfigs c = ParseHostConfigs(PlanJson(), "plan.json");
  ASSERT_EQ(c.ports["n1"].size(), 3u);  // the BMC's port is left out
  EXPECT_EQ(c.notes.size(), 1u);
  std::string y = NetplanYaml("n1", c.ports["n1"], c.plan_name);
  EXPECT_NE(y.find("\"ibp24s0\":\n"), std::string::npos);
  EXPECT_NE(y.find("mtu: 2044\n"), std::string::npos);
  EXPECT_NE(y.find("infiniband-mode: datagram"), std::string::npos);
  EXPECT_NE(y.find("from: \"10.0.0.3\"\n          table: 102"), std::string::npos);
  // The /31 port routes the plane's prefix through its switch end, in its own table.
  EXPECT_NE(y.find("- to: \"10.16.0.0/16\"\n          via: \"10.16.0.0\"\n          table: 103"), std::string::npos);
  EXPECT_NE(y.find("mtu: 9000"), std::string::npos);
  EXPECT_NE(MultiRailSysctl("n1", c.ports["n1"]).find("net.ipv4.conf.ibp64s0.arp_ignore = 1"), std::string::npos);
  EXPECT_EQ(DefaultMtu("ethernet", "inband"), 1500u);
}

TEST(HostConfig, NetworkManagerKeyfilesPerPort) {
  HostConfigs c = ParseHostConfigs(PlanJson(), "plan.json");
  std::vector<HostFile> files = HostFiles("n1", c.ports["n1"], "nm", c.plan_name);
  ASSERT_EQ(files.size(), 4u);  // three keyfiles and the multi-rail sysctl file
  EXPECT_EQ(files[0].path, "etc/NetworkManager/system-connections/railyard-ibp24s0.nmconnection");
  EXPECT_EQ(files[0].mode, 0600u);  // NetworkManager ignores a keyfile others can read
  EXPECT_NE(files[0].content.find("type=infiniband\ninterface-name=ibp24s0\n"), std::string::npos);
  EXPECT_NE(files[0].content.find("transport-mode=datagram"), std::string::npos);
  EXPECT_NE(files[0].content.find("routing-rule1=priority 1101 from 10.0.0.2 table 101"), std::string::npos);
  // The /31 port: its routes through the switch end, in its table and in main.
  EXPECT_NE(files[2].content.find("route1=10.16.0.0/16,10.16.0.0\nroute2=10.16.0.0/16,10.16.0.0\nroute2_options=table=254"),
            std::string::npos)
      << files[2].content;
  // A UUID NetworkManager accepts (version 5 layout), the same for the same plan, distinct per port.
  auto uuid = [](const std::string& k) { return k.substr(k.find("uuid=") + 5, 36); };
  EXPECT_EQ(uuid(files[0].content)[14], '5');
  EXPECT_NE(uuid(files[0].content), uuid(files[1].content));
  EXPECT_EQ(uuid(files[0].content), uuid(HostFiles("n1", c.ports["n1"], "nm", c.plan_name)[0].content));
}

TEST(HostConfig, AnInterfaceNameThatCouldBreakAFileIsRefused) {
  EXPECT_NE(ErrorOf(PlanJson("x\\\":\\n  evil: [1]")).find("is not a Linux interface name"), std::string::npos);
  EXPECT_NE(ErrorOf(PlanJson("a-name-longer-than-15")).find("is not a Linux interface name"), std::string::npos);
  EXPECT_EQ(ErrorOf(PlanJson("enp170s0f1np1")), "");
}

TEST(HostConfig, BadPlansAreErrorsThatSayWhatIsMissing) {
  EXPECT_NE(ErrorOf("{").find("plan.json: "), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"schema":"other"})").find("not railyard.plan/1"), std::string::npos);
  std::string no_netdevs = PlanJson();
  no_netdevs.replace(no_netdevs.find("\"netdev\":\"ibp24s0\""), std::string("\"netdev\":\"ibp24s0\"").size(), "\"slot\":\"1\"");
  EXPECT_NE(ErrorOf(no_netdevs).find("plane(s) compute give hosts addresses but the spec names no netdevs"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"schema":"railyard.plan/1","planes":[],"devices":[],"links":[]})").find("no host port has an address"),
            std::string::npos);
}

}  // namespace
}  // namespace railyard
