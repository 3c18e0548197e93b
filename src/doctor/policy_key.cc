#include "doctor/policy_key.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/policy.h"

namespace railyard {
namespace {

// Function-local: keys register during static initialisation, in whatever order the objects link.
std::vector<PolicyKeyInfo*>& Registry() {
  static std::vector<PolicyKeyInfo*> keys;
  return keys;
}

}  // namespace

std::vector<const PolicyKeyInfo*> PolicyKeys() {
  std::vector<const PolicyKeyInfo*> out(Registry().begin(), Registry().end());
  std::sort(out.begin(), out.end(), [](const PolicyKeyInfo* a, const PolicyKeyInfo* b) { return a->name < b->name; });
  return out;
}

PolicyKey<std::string>::Check OneOf(std::vector<std::string> words) {
  return [words = std::move(words)](const std::string& v, const DoctorPolicy&) -> std::string {
    if (std::find(words.begin(), words.end(), v) != words.end()) return "";
    return fmt::format("expected {}", fmt::join(words, ", "));
  };
}

namespace policy_key_detail {

size_t Register(PolicyKeyInfo* info) {
  Registry().push_back(info);
  return Registry().size() - 1;
}

void Fail(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& message) {
  const YAML::Mark m = node.Mark();
  throw PolicyError(file, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1, key, message);
}

template <typename T>
T Scalar(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& expect) {
  T v{};
  if (!node.IsScalar() || !YAML::convert<T>::decode(node, v)) Fail(file, node, key, "expected " + expect);
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(v)) Fail(file, node, key, fmt::format("expected {}, not NaN or infinity", expect));
  }
  if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
    // yaml-cpp reads "-1" into an unsigned as a huge number.
    if (node.Scalar().find('-') != std::string::npos) Fail(file, node, key, "expected " + expect + ", not a negative number");
  }
  return v;
}

template bool Scalar<bool>(const std::string&, const YAML::Node&, const std::string&, const std::string&);
template int Scalar<int>(const std::string&, const YAML::Node&, const std::string&, const std::string&);
template uint32_t Scalar<uint32_t>(const std::string&, const YAML::Node&, const std::string&, const std::string&);
template uint64_t Scalar<uint64_t>(const std::string&, const YAML::Node&, const std::string&, const std::string&);
template double Scalar<double>(const std::string&, const YAML::Node&, const std::string&, const std::string&);
template std::string Scalar<std::string>(const std::string&, const YAML::Node&, const std::string&, const std::string&);

template <typename T>
std::string Shown(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return v.empty() ? "(none)" : v;
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    return fmt::format("[{}]", fmt::join(v, ", "));
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    std::string out;
    for (const auto& [k, x] : v) out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", k, x);
    return "{" + out + "}";
  } else if constexpr (std::is_integral_v<T>) {
    return fmt::format("{}", v);
  } else {
    return fmt::format("{:g}", v);
  }
}

template std::string Shown<bool>(const bool&);
template std::string Shown<int>(const int&);
template std::string Shown<uint32_t>(const uint32_t&);
template std::string Shown<uint64_t>(const uint64_t&);
template std::string Shown<double>(const double&);
template std::string Shown<std::string>(const std::string&);
template std::string Shown<std::vector<std::string>>(const std::vector<std::string>&);
template std::string Shown<std::map<std::string, std::string>>(const std::map<std::string, std::string>&);

}  // namespace policy_key_detail
}  // namespace railyard
