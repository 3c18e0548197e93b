// Every versioned document railyard writes or reads, by its "schema" id, in one list. An id names
// one shape: a change that removes or retypes a key is a new version; adding a key is not. Each is
// documented in the page named beside it (SchemaList test: no id outside this list, each documented).
#pragma once

namespace railyard {

inline constexpr const char* kFactsSchema = "railyard.facts/1";                 // docs/facts.md: `railyard collect`
inline constexpr const char* kSwitchFactsSchema = "railyard.switch-facts/1";    // docs/switch.md: `railyard collect --switch`
inline constexpr const char* kFindingsSchema = "railyard.findings/1";           // docs/doctor.md: doctor and check --format json
inline constexpr const char* kSymptomSchema = "railyard.symptom/1";             // docs/doctor.md: doctor --symptom
inline constexpr const char* kPlanSchema = "railyard.plan/1";                   // docs/verify.md: plan.json
inline constexpr const char* kPlanIndexSchema = "railyard.plan-index/3";        // docs/verify.md: plan.index's header
inline constexpr const char* kPlanSummarySchema = "railyard.plan-summary/1";    // README.md: plan --format json
inline constexpr const char* kRolloutSchema = "railyard.rollout/1";             // docs/rollout.md: rollout.json
inline constexpr const char* kRolloutCheckSchema = "railyard.rollout-check/1";  // docs/rollout.md: rollout check --format json
inline constexpr const char* kAdviceSchema = "railyard.advice/1";               // docs/advise.md: advise --format json
inline constexpr const char* kAuthenticitySchema = "railyard.authenticity/1";   // docs/ledger.md: ledger check --format json
inline constexpr const char* kBurninSchema = "railyard.burnin/1";               // docs/burnin.md: burnin check --format json
inline constexpr const char* kBurninPlanSchema = "railyard.burnin-plan/1";      // docs/burnin.md: burnin plan
inline constexpr const char* kVerifySchema = "railyard.verify/1";               // docs/verify.md: verify --format json

inline constexpr const char* kSchemas[] = {kFactsSchema,        kSwitchFactsSchema, kFindingsSchema,     kSymptomSchema,
                                           kPlanSchema,         kPlanIndexSchema,   kPlanSummarySchema,  kRolloutSchema,
                                           kRolloutCheckSchema, kAdviceSchema,      kAuthenticitySchema, kBurninSchema,
                                           kBurninPlanSchema,   kVerifySchema};

}  // namespace railyard
