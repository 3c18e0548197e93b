// railyard advise on the bundled examples (a 10,240-GPU InfiniBand training spec, a 64-node RoCE inference spec)
// with the team answers of docs/advise.md, and on specs changed in memory to cross each decision's line.
#include "advise/advise.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "spec/spec.h"

namespace railyard {
namespace {

Spec Example(const std::string& name) { return LoadSpec(std::string(RAILYARD_SOURCE_DIR) + "/examples/" + name); }
AdviceAnswers Answers(const std::string& name) {
  return LoadAdviceAnswers(std::string(RAILYARD_SOURCE_DIR) + "/examples/advise/" + name);
}

const PlaneAdvice& PlaneOf(const Advice& a, const std::string& name) {
  for (const PlaneAdvice& p : a.planes) {
    if (p.plane == name) return p;
  }
  throw std::runtime_error("no plane " + name);
}

bool Cites(const PlaneAdvice& p, const std::string& fact) {
  for (const AdviceReason& r : p.reasons) {
    if (std::find(r.facts.begin(), r.facts.end(), fact) != r.facts.end()) return true;
  }
  return false;
}

TEST(Advise, TenThousandGpuTrainingTeamWithoutLosslessEthernetGetsInfiniband) {
  Advice a = Advise(Example("ib-10k-gpu.yaml"), Answers("training-team.yaml"));
  EXPECT_EQ(a.gpus, 10240u);
  const PlaneAdvice& c = PlaneOf(a, "compute");
  EXPECT_EQ(c.recommended_kind, "infiniband");
  EXPECT_GT(c.score, 0);
  EXPECT_TRUE(Cites(c, "ib-credit-flow-control"));
  EXPECT_TRUE(Cites(c, "ib-sharp"));
  // 1,280 nodes x 8 ports fit one subnet; the advice says where that ends.
  ASSERT_FALSE(c.would_change.empty());
  EXPECT_NE(c.would_change.back().find("runs out of LIDs"), std::string::npos);
  ASSERT_FALSE(c.nics.empty());
  EXPECT_EQ(c.nics[0].opn, "MCX75310AAS-NEAT");  // the spec's ConnectX-7, secure boot without crypto
  EXPECT_EQ(c.nics[0].security, "secure boot, no crypto");
  EXPECT_NE(c.switches[0].find("QM9700 (the spec's): 64 x 400G"), std::string::npos) << c.switches[0];
  EXPECT_NE(c.switches[0].find("3 tiers"), std::string::npos);
  EXPECT_FALSE(c.cables.empty());
  EXPECT_EQ(PlaneOf(a, "oob").recommended_kind, "ethernet");
}

TEST(Advise, SixtyFourNodeInferenceOnAnEthernetTeamGetsRoce) {
  Advice a = Advise(Example("inference-64-node.yaml"), Answers("inference-team.yaml"));
  const PlaneAdvice& c = PlaneOf(a, "compute");
  EXPECT_EQ(c.recommended_kind, "roce");
  EXPECT_LT(c.score, 0);
  EXPECT_TRUE(Cites(c, "inference-network-profile"));
  EXPECT_FALSE(Cites(c, "meta-24k-both"));  // a training fact, not offered for inference
  EXPECT_EQ(PlaneOf(a, "storage").recommended_kind, "roce");
  // budget: cost is said, never priced.
  bool cost_note = false;
  for (const std::string& n : a.notes) cost_note |= n.find("does not guess prices") != std::string::npos;
  EXPECT_TRUE(cost_note);
}

TEST(Advise, WhatWouldChangeTheAnswerFlipsTheDecision) {
  Spec spec = Example("ib-10k-gpu.yaml");
  AdviceAnswers team = Answers("training-team.yaml");
  const PlaneAdvice storage = PlaneOf(Advise(spec, team), "storage");
  ASSERT_FALSE(storage.would_change.empty());
  // Each listed answer change, applied, must give the other fabric.
  AdviceAnswers changed = team;
  changed.lossless_ethernet_experience = "production";
  bool listed = false;
  for (const std::string& w : storage.would_change) listed |= w.starts_with("lossless_ethernet_experience: production");
  EXPECT_TRUE(listed);
  EXPECT_NE(PlaneOf(Advise(spec, changed), "storage").recommended_kind == "infiniband", storage.recommended_kind == "infiniband");
}

TEST(Advise, HundredThousandGpusExceedOneSubnetsLids) {
  Spec spec = Example("ib-10k-gpu.yaml");
  spec.nodes.count = 12500;  // 100,000 GPUs, 8 compute ports each
  Advice a = Advise(spec, Answers("training-team.yaml"));
  const PlaneAdvice& c = PlaneOf(a, "compute");
  EXPECT_TRUE(Cites(c, "ib-subnet-lid-limit"));
  for (const AdviceReason& r : c.reasons) {
    if (std::find(r.facts.begin(), r.facts.end(), "ib-subnet-lid-limit") != r.facts.end()) {
      EXPECT_NE(r.text.find("100,000 node ports"), std::string::npos) << r.text;
    }
  }
}

TEST(Advise, NicFiltersFollowTheServerAndTheNeeds) {
  Spec spec = Example("ib-10k-gpu.yaml");
  spec.nodes.pcie_gen = 4;  // a Gen4 server cannot carry a 400G port
  AdviceAnswers team = Answers("training-team.yaml");
  const PlaneAdvice gen4 = PlaneOf(Advise(spec, team), "compute");
  EXPECT_TRUE(gen4.nics.empty());
  bool pcie = false;
  for (const std::string& r : gen4.nic_rejections) pcie |= r.find("PCIe Gen4 x16 carries 252 Gb/s") != std::string::npos;
  EXPECT_TRUE(pcie);
  spec.nodes.pcie_gen = 5;
  team.crypto = true;
  Advice crypto = Advise(spec, team);
  ASSERT_FALSE(PlaneOf(crypto, "compute").nics.empty());
  for (const NicCandidate& n : PlaneOf(crypto, "compute").nics) {
    EXPECT_TRUE(n.security == "crypto and secure boot" || n.security == "crypto, no secure boot") << n.opn;
  }
  team.crypto = false;
  team.dpu = true;
  Advice dpu = Advise(spec, team);
  ASSERT_FALSE(PlaneOf(dpu, "compute").nics.empty());
  for (const NicCandidate& n : PlaneOf(dpu, "compute").nics) EXPECT_TRUE(n.family.starts_with("BlueField")) << n.opn;
}

TEST(Advise, EveryCitedFactExistsWithASource) {
  // Walk the answer grid over both examples: every fact a reason, NIC or cable line cites must be in facts.csv with a
  // source and a confidence.
  for (const char* spec_name : {"ib-10k-gpu.yaml", "inference-64-node.yaml", "roce-16k-gpu.yaml"}) {
    Spec spec = Example(spec_name);
    const AdvicePlan planned = PlanForAdvice(spec);
    for (const char* workload : {"training", "inference", "mixed"}) {
      for (const char* exp : {"none", "some", "production"}) {
        for (bool ops : {false, true}) {
          AdviceAnswers a;
          a.workload = workload;
          a.lossless_ethernet_experience = exp;
          a.ethernet_operations = ops;
          a.crypto = ops;
          a.dpu = !ops;
          nlohmann::json j = AdviceJson(Advise(spec, a, planned, Catalog::Builtin()));
          for (const auto& p : j["planes"]) {
            std::vector<std::string> ids = p["nic_facts"].get<std::vector<std::string>>();
            for (const auto& r : p["reasons"]) {
              for (const auto& id : r["facts"]) ids.push_back(id.get<std::string>());
            }
            for (const std::string& id : ids) {
              auto it = AdviceFacts().find(id);
              ASSERT_NE(it, AdviceFacts().end()) << id;
              EXPECT_FALSE(it->second.source.empty()) << id;
              EXPECT_TRUE(it->second.confidence == "H" || it->second.confidence == "M" || it->second.confidence == "L") << id;
            }
          }
        }
      }
    }
  }
}

TEST(Advise, BadAnswersNameFileLineAndKey) {
  auto error = [](const std::string& yaml) {
    try {
      ParseAdviceAnswers(yaml, "answers.yaml");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("workload: trainng\n").find("answers.yaml:1:"), std::string::npos);
  EXPECT_NE(error("workload: trainng\n").find("'trainng' is not one of training, inference, mixed"), std::string::npos);
  EXPECT_NE(error("worklaod: training\n").find("worklaod"), std::string::npos);
  EXPECT_NE(error("tuning_weeks: .nan\n").find("tuning_weeks"), std::string::npos);
  EXPECT_NE(error("needs: {crypto: maybe}\n").find("needs.crypto"), std::string::npos);
  EXPECT_NE(error("needs: {dpus: true}\n").find("dpus"), std::string::npos);
  EXPECT_EQ(error("workload: inference\nneeds: {dual_port: true}\n"), "no error");
}

}  // namespace
}  // namespace railyard
