// `railyard advise`: the decisions made before purchase — InfiniBand or RoCE per plane, which ConnectX/BlueField
// for which plane, which switch family, which cables — each reason tied to a sourced fact in
// data/advice/facts.csv (docs/advise.md). railyard weighs the team's answers (answers.yaml) openly: every reason
// carries its weight, the total decides, and the answers that would flip the decision are printed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/catalog.h"
#include "plan/planner.h"
#include "spec/spec.h"

namespace railyard {

// What the team says about itself (answers.yaml). Defaults are the cautious ones: no lossless-Ethernet
// experience, little tuning time.
struct AdviceAnswers {
  std::string workload = "training";                  // training | inference | mixed
  std::string lossless_ethernet_experience = "none";  // none | some | production
  bool ethernet_operations = false;                   // the team already runs large Ethernet fabrics (NOS, automation)
  std::string budget = "balanced";                    // cost | balanced | performance
  int tuning_weeks = 2;                               // time for PFC/ECN/ECMP tuning before production
  bool crypto = false;                                // inline IPsec/TLS/MACsec on the NIC
  bool secure_boot = true;                            // firmware secure boot on the NIC
  bool dpu = false;                                   // Arm cores on the card (isolation, storage offload): BlueField
  bool dual_port = false;                             // two ports per card (bonding, two planes from one card)
  std::string file;                                   // where the answers came from ("" = defaults)
};

// Throws InputError("FILE:LINE:COLUMN: KEY: message") on unknown keys or bad values.
AdviceAnswers ParseAdviceAnswers(const std::string& yaml, const std::string& file);
AdviceAnswers LoadAdviceAnswers(const std::string& path);

struct AdviceFact {
  std::string id, statement, source, confidence;
};
// data/advice/facts.csv, by id.
const std::map<std::string, AdviceFact>& AdviceFacts();

struct AdviceReason {
  std::string text;
  int weight = 0;                  // > 0 toward InfiniBand, < 0 toward Ethernet (RoCE), 0 context
  std::vector<std::string> facts;  // ids in AdviceFacts()
};

struct NicCandidate {
  std::string opn, family;
  uint32_t ports = 0;
  Gbps speed = 0;
  int pcie_gen = 0, pcie_width = 0;
  std::string cage;
  std::string security;  // "secure boot, no crypto" (from the OPN), "" unknown
  std::string why;
};

struct PlaneAdvice {
  std::string plane, role;
  std::string spec_kind;         // infiniband | ethernet, as the spec has it
  std::string recommended_kind;  // infiniband | ethernet
  int score = 0;                 // sum of the reasons' weights
  std::vector<AdviceReason> reasons;
  std::vector<std::string> would_change;  // answers or scale that would flip the recommendation
  Gbps speed = 0;
  std::vector<NicCandidate> nics;           // best first (at most 4)
  std::vector<std::string> nic_rejections;  // "12 too slow for 400G", ...
  std::vector<std::string> nic_facts;
  std::vector<std::string> switches;  // "QM9700: 64 x 400G; 2 tiers join 2,048 endpoints (this plane: 10,240): 3 tiers"
  std::vector<std::string> cables;    // from the plan: "5,120 DAC in-rack (≤ 3 m) ..."
  std::vector<std::string> cable_facts;
};

struct Advice {
  std::string spec_file, answers_file;
  uint32_t nodes = 0, gpus = 0;
  int pcie_gen = 0, pcie_width = 0;
  AdviceAnswers answers;
  std::vector<PlaneAdvice> planes;
  std::vector<std::string> notes;  // what railyard could not weigh (e.g. price)
};

// The plan advice reads switch counts and cables from. A spec that cannot be planned as written still
// gets advice, with a note saying the counts are estimates.
struct AdvicePlan {
  std::optional<PlanResult> plan;
  std::string note;  // empty when planned
};
AdvicePlan PlanForAdvice(const Spec& spec, const Catalog& catalog = Catalog::Builtin());

Advice Advise(const Spec& spec, const AdviceAnswers& answers, const Catalog& catalog = Catalog::Builtin());
// The same, over a plan already made: advice for many sets of answers plans the spec once.
Advice Advise(const Spec& spec, const AdviceAnswers& answers, const AdvicePlan& planned, const Catalog& catalog);

std::string AdviceText(const Advice& advice, bool markdown);
nlohmann::json AdviceJson(const Advice& advice);

}  // namespace railyard
