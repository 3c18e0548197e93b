#include "rollout/rollout_file.h"

#include <cstdlib>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <utf8proc.h>
#include <nlohmann/json.hpp>

#include "model/schemas.h"
#include "util/input_error.h"
#include "util/json_input.h"
#include "util/safe_text.h"

namespace railyard {
namespace {

class Checker {
 public:
  explicit Checker(const std::string& source) : source_(source) {}

  // The string at `pointer` in `object`: required, or (optional) absent or empty.
  void Text(const nlohmann::json& object, const char* key, const std::string& pointer, TextRule rule,
            bool optional = false) const {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      if (!optional) Fail(pointer + "/" + key, "required");
      return;
    }
    if (!it->is_string()) Fail(pointer + "/" + key, "expected a string");
    const std::string& value = it->get_ref<const std::string&>();
    if (optional && value.empty()) return;
    RequireText(rule, value, source_, pointer + "/" + key);
  }

  const nlohmann::json& Array(const nlohmann::json& object, const char* key, const std::string& pointer,
                              bool optional = false) const {
    static const nlohmann::json kEmpty = nlohmann::json::array();
    auto it = object.find(key);
    if (it == object.end() && optional) return kEmpty;
    if (it == object.end() || !it->is_array()) Fail(pointer + "/" + key, "expected an array");
    return *it;
  }

  void Names(const nlohmann::json& object, const char* key, const std::string& pointer, bool optional = false) const {
    const nlohmann::json& list = Array(object, key, pointer, optional);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = fmt::format("{}/{}/{}", pointer, key, i);
      if (!list[i].is_string()) Fail(at, "expected a string");
      RequireText(TextRule::kName, list[i].get_ref<const std::string&>(), source_, at);
    }
  }

  [[noreturn]] void Fail(const std::string& pointer, const std::string& why) const {
    throw InputError(source_, 0, 0, pointer, why);
  }

 private:
  const std::string& source_;
};

void CheckDevice(const Checker& c, const nlohmann::json& d, const std::string& at, bool switch_wave) {
  if (!d.is_object()) c.Fail(at, "expected an object");
  c.Text(d, "host", at, TextRule::kName);
  c.Text(d, "device", at, TextRule::kDevice);
  c.Text(d, "psid", at, TextRule::kPsid, switch_wave);
  c.Text(d, "from", at, TextRule::kVersion, true);
  c.Text(d, "to", at, TextRule::kVersion);
  c.Text(d, "image", at, TextRule::kImage, true);
  c.Text(d, "sha256", at, TextRule::kSha256, true);
  c.Text(d, "serial", at, TextRule::kWord, true);
  if (switch_wave && d.contains("address")) c.Text(d, "address", at, TextRule::kHost);  // ssh's and scp's target
  if (auto via = d.find("via"); via != d.end()) {
    if (!via->is_object()) c.Fail(at + "/via", "expected an object");
    c.Text(*via, "version", at + "/via", TextRule::kVersion);
    c.Text(*via, "image", at + "/via", TextRule::kImage);
    c.Text(*via, "sha256", at + "/via", TextRule::kSha256);
  }
}

}  // namespace

std::string NormalizedApprover(std::string_view name, const std::string& what) {
  // Refused before anything is folded: NFKC_Casefold would silently drop a zero-width character,
  // and the name on record must be the one that was typed.
  const size_t first = name.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  RequireText(TextRule::kText, name.substr(first, name.find_last_not_of(" \t") - first + 1), what, "");
  const std::string raw(name);
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> folded(
      utf8proc_NFKC_Casefold(reinterpret_cast<const utf8proc_uint8_t*>(raw.c_str())), &std::free);
  if (!folded) throw InputError(what, 0, 0, "", "the name is not UTF-8 that can be normalized");
  std::string out(reinterpret_cast<const char*>(folded.get()));
  // NFKC turns a no-break or ideographic space into ' ': trimmed like any other.
  const size_t b = out.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return out.substr(b, out.find_last_not_of(" \t") - b + 1);
}

std::string WaveFileName(uint32_t index, const std::string& name) { return fmt::format("wave-{:02}-{}", index, name); }

void CheckRolloutJson(const nlohmann::json& rollout, const std::string& source) {
  Checker c(source);
  if (!rollout.is_object() || rollout.value("schema", "") != kRolloutSchema) c.Fail("/schema", "not railyard.rollout/1");
  c.Text(rollout, "planned_by", "", TextRule::kText, true);
  c.Text(rollout, "target", "", TextRule::kText, true);
  if (rollout.contains("policy") && !rollout["policy"].is_object()) c.Fail("/policy", "expected an object");
  const nlohmann::json& waves = c.Array(rollout, "waves", "");
  for (size_t w = 0; w < waves.size(); ++w) {
    const std::string at = fmt::format("/waves/{}", w);
    const nlohmann::json& wave = waves[w];
    if (!wave.is_object()) c.Fail(at, "expected an object");
    // The index is the wave's position: status, approvals and checks find a wave by it.
    if (!wave.contains("index") || !wave["index"].is_number_integer() || wave["index"].get<int64_t>() != static_cast<int64_t>(w))
      c.Fail(at + "/index", fmt::format("expected {}, the wave's position", w));
    c.Text(wave, "name", at, TextRule::kName);
    const std::string kind = wave.value("kind", "host");
    if (kind != "host" && kind != "switch") c.Fail(at + "/kind", "host or switch");
    c.Names(wave, "hosts", at);
    c.Names(wave, "drain", at, true);
    const nlohmann::json& devices = c.Array(wave, "devices", at);
    for (size_t i = 0; i < devices.size(); ++i) CheckDevice(c, devices[i], fmt::format("{}/devices/{}", at, i), kind == "switch");
  }
  const nlohmann::json& skipped = c.Array(rollout, "skipped", "", true);
  for (size_t i = 0; i < skipped.size(); ++i) {
    const std::string at = fmt::format("/skipped/{}", i);
    if (!skipped[i].is_object()) c.Fail(at, "expected an object");
    // Held-back rows keep what the facts said, an unsafe name among them: shown (escaped) in reports,
    // never written into a script or a path, so only their type is checked.
    for (const char* key : {"host", "device", "psid", "rule"}) {
      if (!skipped[i].contains(key) || !skipped[i][key].is_string()) c.Fail(fmt::format("{}/{}", at, key), "expected a string");
    }
  }
}

nlohmann::json ReadRolloutFile(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "rollout.json").string();
  nlohmann::json rollout = ReadJsonFile(path);
  CheckRolloutJson(rollout, path);
  return rollout;
}

}  // namespace railyard
