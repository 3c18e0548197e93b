#include "planfile/plan_sections.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "util/input_error.h"

namespace railyard {
namespace {

const char* kPlan = R"({"schema":"railyard.plan/1","name":"pod-a","future_section":{"x":[1,2]},
"planes":[{"name":"compute","kind":"roce","role":"compute","mtu":9000,"bond":"802.3ad","new_key":true,
  "addressing":{"mode":"p2p31","vlan":200,"prefix":"10.0.0.0/16"},"qos":{"priority":3,"dscp":26}}],
"racks":[{"name":"R01","row":2,"position":7}],
"devices":[{"name":"leaf-1","role":"switch","tier":"leaf","plane":"compute","rack":"R01","u":42,"rail":1,"group":0,
  "model":"SN5600","asn":4200000001,"loopback":"10.255.0.1/32"},{"name":"gpu01","role":"node","u":"not a number"}],
"host_ports":[{"plane":"compute","port":"mlx5_0","netdev":"enp24s0np0"}],
"links":[{"label":"COMP-000001","plane":"compute","level":"endpoint-leaf","rail":1,"speed_gbps":400,"cable":"MCP4Y10-N002",
  "length_m":2.5,"a":{"device":"gpu01","port":"mlx5_0","ip":"10.0.0.1/31"},"z":{"device":"leaf-1","port":"swp1","ip":"10.0.0.0/31"}},
 {"label":"COMP-000002","plane":"compute","level":"leaf-spine","a":{"device":"leaf-1","port":"swp64"}}]})";

std::string ErrorOf(const std::string& text, const PlanSections& sections = {}) {
  try {
    ReadPlanSections(simdjson::padded_string(text), "plan.json", sections);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PlanSections, EachRecordOfEachSectionAskedForInFileOrder) {
  std::string name;
  std::vector<PlanPlaneRecord> planes;
  std::vector<std::string> devices, links, order;
  PlanSections s;
  s.name = [&](std::string_view n) { name = n; };
  s.link_details = true;
  s.plane = [&](const PlanPlaneRecord& p) {
    planes.push_back(p);
    order.push_back("plane");
    // Views are valid during the call: checked here.
    EXPECT_EQ(p.name, "compute");
    EXPECT_EQ(p.mode, "p2p31");
    EXPECT_EQ(p.prefix, "10.0.0.0/16");
    EXPECT_EQ(p.bond, "802.3ad");
  };
  s.rack = [&](const PlanRackRecord& r) {
    order.push_back("rack");
    EXPECT_EQ(r.name, "R01");
    EXPECT_EQ(r.row, 2);
    EXPECT_EQ(r.position, 7);
  };
  s.device = [&](const PlanDeviceRecord& d) {
    order.push_back("device");
    devices.emplace_back(d.name);
    if (d.name == "leaf-1") {
      EXPECT_EQ(d.asn, 4200000001u);  // above 2^31: a 4-byte ASN
      EXPECT_EQ(d.loopback, "10.255.0.1/32");
      EXPECT_EQ(d.u, 42);
    } else {
      EXPECT_EQ(d.u, 0);  // the wrong type reads as absent
    }
  };
  s.host_port = [&](const PlanHostPortRecord& h) {
    order.push_back("host_port");
    EXPECT_EQ(h.netdev, "enp24s0np0");
  };
  s.link = [&](const PlanLinkRecord& l) {
    order.push_back("link");
    links.emplace_back(l.label);
    if (l.label == "COMP-000001") {
      EXPECT_EQ(l.a.device, "gpu01");
      EXPECT_EQ(l.z.ip, "10.0.0.0/31");
      EXPECT_TRUE(l.z.present);
      ASSERT_TRUE(l.length_m);
      EXPECT_DOUBLE_EQ(*l.length_m, 2.5);
      EXPECT_EQ(l.speed_gbps, 400);
    } else {
      EXPECT_FALSE(l.z.present);  // the reader decides whether that is an error
      EXPECT_FALSE(l.length_m);
    }
  };
  ReadPlanSections(simdjson::padded_string(std::string(kPlan)), "plan.json", s);
  EXPECT_EQ(name, "pod-a");
  ASSERT_EQ(planes.size(), 1u);
  EXPECT_EQ(planes[0].mtu, 9000);
  EXPECT_EQ(planes[0].vlan, 200);
  EXPECT_EQ(planes[0].qos_priority, 3);
  EXPECT_EQ(planes[0].qos_dscp, 26);
  EXPECT_FALSE(planes[0].qos_cnp_dscp);  // left out: the reader's default stands
  EXPECT_EQ(devices, (std::vector<std::string>{"leaf-1", "gpu01"}));
  EXPECT_EQ(links, (std::vector<std::string>{"COMP-000001", "COMP-000002"}));
  EXPECT_EQ(order, (std::vector<std::string>{"plane", "rack", "device", "device", "host_port", "link", "link"}));

  // A reader that asks for one section gets only it, and without details its links carry no cable.
  size_t only = 0;
  PlanSections links_only;
  links_only.link = [&](const PlanLinkRecord& l) {
    ++only;
    EXPECT_TRUE(l.cable.empty());
    EXPECT_FALSE(l.length_m);
    EXPECT_FALSE(l.a.device.empty());
  };
  ReadPlanSections(simdjson::padded_string(std::string(kPlan)), "plan.json", links_only);
  EXPECT_EQ(only, 2u);
}

TEST(PlanSections, QosTakesThePlansValuesWithinRangeAndDefaultsForTheRest) {
  PlanPlaneRecord plane;
  plane.qos_priority = 5;
  plane.qos_dscp = 300;  // out of range: held to 63
  const RoceQos q = QosOf(plane), defaults;
  EXPECT_EQ(q.priority, 5);
  EXPECT_EQ(q.dscp, 63);
  EXPECT_EQ(q.cnp_dscp, defaults.cnp_dscp);
  EXPECT_EQ(q.cnp_priority, defaults.cnp_priority);
  plane.qos_cnp_priority = -1;
  EXPECT_EQ(QosOf(plane).cnp_priority, 0);
}

TEST(PlanSections, WhatIsNotAPlanIsRefusedNamingTheFile) {
  EXPECT_NE(ErrorOf("{\"schema\":").find("plan.json"), std::string::npos);
  EXPECT_NE(ErrorOf("{\"schema\":").find("not"), std::string::npos);
  EXPECT_NE(ErrorOf("[1,2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"schema":"railyard.verify/1"})").find("not railyard.plan/1"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"name":"no schema at all"})").find("not railyard.plan/1"), std::string::npos);
  EXPECT_NE(ErrorOf("not json").find("plan.json"), std::string::npos);
  // Truncated in the middle of the links: an error, never a partial plan.
  const std::string plan(kPlan);
  PlanSections s;
  s.link = [](const PlanLinkRecord&) {};
  EXPECT_NE(ErrorOf(plan.substr(0, plan.find("COMP-000002")), s), "no error");
  // What a callback throws passes through as it is.
  s.device = [](const PlanDeviceRecord&) { throw std::runtime_error("the reader refused it"); };
  try {
    ReadPlanSections(simdjson::padded_string(plan), "plan.json", s);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the reader refused it");
  }
}

}  // namespace
}  // namespace railyard
