// A doctor policy key, declared once beside the rule that reads it: its name, default, what a value
// must be, its meaning and the rules that read it. The policy file's reader (ParsePolicy), `railyard
// doctor --list-policy` and the docs check (each reader's docs/rules/<id>.md names the key) are all
// built from these declarations, so a rule with a new threshold is its family file, its doc page and
// one declared key — no struct member, key list, `if` chain or docs table kept by hand.
//
//   const PolicyKey<double> kMaxFoo{"max_foo", 3.0, "a count", "foo above this warns", {"foo-high"},
//                                   InRange(0.0, 1e6)};
//   ... if (x > c.policy.Get(kMaxFoo)) ...
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace railyard {

struct DoctorPolicy;

// A value a policy file set: one alternative per type a key may have.
using PolicyValue = std::variant<bool, int, uint32_t, uint64_t, double, std::string, std::vector<std::string>,
                                 std::map<std::string, std::string>>;

struct PolicyKeyInfo {
  size_t id = 0;  // registration order: the slot in DoctorPolicy
  std::string name;
  std::string fallback;  // the default, as written in a policy file
  std::string expect;    // "an MTU in bytes": said in errors and --list-policy
  std::string meaning;   // one line: --list-policy
  std::vector<std::string> read_by;
  // The YAML value as this key's type, or throws PolicyError naming file, line and key.
  std::function<PolicyValue(const YAML::Node&, const std::string& file)> read;
  // "" or why the value cannot be used with the rest of the policy (run once every key is read).
  std::function<std::string(const PolicyValue&, const DoctorPolicy&)> check;
};

// Every declared key, by name.
std::vector<const PolicyKeyInfo*> PolicyKeys();

namespace policy_key_detail {
size_t Register(PolicyKeyInfo* info);
[[noreturn]] void Fail(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& message);
template <typename T>
T Scalar(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& expect);
template <typename T>
std::string Shown(const T& v);
}  // namespace policy_key_detail

template <typename T>
class PolicyKey {
 public:
  using Check = std::function<std::string(const T&, const DoctorPolicy&)>;
  PolicyKey(const char* name, T fallback, const char* expect, const char* meaning, std::vector<std::string> read_by,
            Check check = {})
      : fallback_(std::move(fallback)) {
    info_.name = name;
    info_.fallback = policy_key_detail::Shown(fallback_);
    info_.expect = expect;
    info_.meaning = meaning;
    info_.read_by = std::move(read_by);
    info_.read = [name = info_.name, expect = info_.expect](const YAML::Node& node, const std::string& file) -> PolicyValue {
      return Read(node, file, name, expect);
    };
    if (check) {
      info_.check = [check](const PolicyValue& v, const DoctorPolicy& p) { return check(std::get<T>(v), p); };
    }
    info_.id = policy_key_detail::Register(&info_);
  }
  PolicyKey(const PolicyKey&) = delete;
  PolicyKey& operator=(const PolicyKey&) = delete;

  const PolicyKeyInfo& info() const { return info_; }
  const T& fallback() const { return fallback_; }

 private:
  static T Read(const YAML::Node& node, const std::string& file, const std::string& name, const std::string& expect) {
    if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      if (!node.IsSequence()) policy_key_detail::Fail(file, node, name, "expected " + expect);
      T out;
      for (const auto& item : node) out.push_back(policy_key_detail::Scalar<std::string>(file, item, name, expect));
      return out;
    } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
      if (!node.IsMap()) policy_key_detail::Fail(file, node, name, "expected " + expect);
      T out;
      for (const auto& kv : node) {
        out[policy_key_detail::Scalar<std::string>(file, kv.first, name, expect)] =
            policy_key_detail::Scalar<std::string>(file, kv.second, name, expect);
      }
      return out;
    } else {
      return policy_key_detail::Scalar<T>(file, node, name, expect);
    }
  }

  PolicyKeyInfo info_;
  T fallback_;
};

// Checks for the common cases: a range, and one of a few words.
template <typename T>
typename PolicyKey<T>::Check InRange(T low, T high) {
  return [low, high](const T& v, const DoctorPolicy&) {
    return v < low || v > high ? "expected " + policy_key_detail::Shown(low) + " to " + policy_key_detail::Shown(high) : "";
  };
}
PolicyKey<std::string>::Check OneOf(std::vector<std::string> words);

}  // namespace railyard
