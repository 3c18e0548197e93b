#include "rollout/target.h"

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "util/file.h"
#include "util/versions.h"
#include "util/yaml_strict.h"

namespace railyard {
namespace {

[[noreturn]] void Fail(const std::string& file, const YAML::Node& at, const std::string& key, const std::string& message) {
  YamlFail(file, at, key, message);
}

YAML::Node LoadStrict(const std::string& yaml, const std::string& file) { return LoadStrictYaml(yaml, file); }

void CheckKeys(const std::string& file, const YAML::Node& map, const std::string& where, const std::set<std::string>& known) {
  CheckYamlKeys(file, map, where, known);
}

}  // namespace

const FirmwareTarget* RolloutTarget::ForPsid(const std::string& psid) const {
  for (const FirmwareTarget& t : firmware) {
    if (t.psid == psid) return &t;
  }
  return nullptr;
}

// A firmware or driver version: dotted or dashed numbers ("28.43.2026", "24.10-1.1.4").
bool IsVersion(const std::string& v) {
  static const std::regex kVersion("^[0-9]+([.-][0-9A-Za-z]+)*$");
  return std::regex_match(v, kVersion);
}

std::string FirmwareFamily(const std::string& version) { return version.substr(0, version.find('.')); }

const SwitchFirmwareTarget* RolloutTarget::ForSwitchFirmware(const std::string& version) const {
  const std::string family = FirmwareFamily(version);
  for (const SwitchFirmwareTarget& t : switches) {
    if (t.family == family) return &t;
  }
  return nullptr;
}

RolloutTarget ParseRolloutTarget(const std::string& yaml, const std::string& file) {
  YAML::Node root = LoadStrict(yaml, file);
  CheckKeys(file, root, "", {"firmware", "driver", "switches"});
  RolloutTarget target;
  target.file = file;
  YAML::Node firmware = root["firmware"];
  if (!firmware.IsDefined() || !firmware.IsSequence() || firmware.size() == 0) {
    Fail(file, firmware.IsDefined() ? firmware : root, "firmware", "expected a list of images, one per PSID");
  }
  for (size_t i = 0; i < firmware.size(); ++i) {
    const YAML::Node& item = firmware[i];
    const std::string where = fmt::format("firmware[{}].", i);
    if (!item.IsMap()) Fail(file, item, where, "expected a mapping");
    CheckKeys(file, item, where,
              {"psid", "image", "version", "sha256", "release_notes", "min_direct", "allow_downgrade", "intermediate"});
    FirmwareTarget t;
    t.line = item.Mark().line + 1;
    auto text = [&](const char* key, bool required) {
      YAML::Node v = item[key];
      if (!v.IsDefined() || v.IsNull()) {
        if (required) Fail(file, item, where + key, "required");
        return std::string();
      }
      if (!v.IsScalar()) Fail(file, v, where + key, "expected a single value");
      return v.Scalar();
    };
    t.psid = text("psid", true);
    t.image = text("image", true);
    t.version = text("version", true);
    t.sha256 = text("sha256", true);
    t.release_notes = text("release_notes", false);
    t.min_direct = text("min_direct", false);
    std::string downgrade = text("allow_downgrade", false);
    static const std::regex kPsid("^[A-Z]{2,4}_[0-9A-Za-z_]{4,24}$");
    static const std::regex kSha("^[0-9a-fA-F]{64}$");
    static const std::regex kImage("^[A-Za-z0-9._+/-]{1,200}$");
    if (!std::regex_match(t.psid, kPsid))
      Fail(file, item["psid"], where + "psid", fmt::format("'{}' is not a PSID (MT_0000000838)", t.psid));
    if (!std::regex_match(t.image, kImage) || t.image.find("..") != std::string::npos) {
      Fail(file, item["image"], where + "image", "an image file name: letters, digits and . _ + / - (no ..)");
    }
    if (!IsVersion(t.version)) Fail(file, item["version"], where + "version", fmt::format("'{}' is not a version", t.version));
    if (!std::regex_match(t.sha256, kSha))
      Fail(file, item["sha256"], where + "sha256", "64 hex digits: every image is checked before it is burned");
    if (!t.min_direct.empty() && !IsVersion(t.min_direct)) Fail(file, item["min_direct"], where + "min_direct", "not a version");
    if (downgrade != "" && downgrade != "true" && downgrade != "false")
      Fail(file, item["allow_downgrade"], where + "allow_downgrade", "true or false");
    t.allow_downgrade = downgrade == "true";
    if (YAML::Node via = item["intermediate"]; via.IsDefined()) {
      const std::string vw = where + "intermediate.";
      if (!via.IsMap()) Fail(file, via, vw, "expected {image, version, sha256}");
      CheckKeys(file, via, vw, {"image", "version", "sha256"});
      for (const char* key : {"image", "version", "sha256"}) {
        if (!via[key].IsDefined() || !via[key].IsScalar()) Fail(file, via, vw + key, "required");
      }
      t.via_image = via["image"].Scalar();
      t.via_version = via["version"].Scalar();
      t.via_sha256 = via["sha256"].Scalar();
      if (!std::regex_match(t.via_image, kImage) || t.via_image.find("..") != std::string::npos) {
        Fail(file, via["image"], vw + "image", "an image file name: letters, digits and . _ + / - (no ..)");
      }
      if (!IsVersion(t.via_version)) Fail(file, via["version"], vw + "version", "not a version");
      if (!std::regex_match(t.via_sha256, kSha)) Fail(file, via["sha256"], vw + "sha256", "64 hex digits");
      if (t.min_direct.empty())
        Fail(file, via, vw, "an intermediate image needs min_direct (the versions it serves are below it)");
      if (CompareVersions(t.via_version, t.min_direct) < 0) {
        Fail(
            file, via["version"], vw + "version",
            fmt::format("{} is below min_direct {}: the target could not be burned over it either", t.via_version, t.min_direct));
      }
    }
    if (target.ForPsid(t.psid))
      Fail(file, item["psid"], where + "psid", fmt::format("{} has an image already: one image per PSID", t.psid));
    target.firmware.push_back(std::move(t));
  }
  if (root["driver"].IsDefined()) {
    YAML::Node driver = root["driver"];
    if (!driver.IsMap()) Fail(file, driver, "driver", "expected a mapping with min");
    CheckKeys(file, driver, "driver.", {"min"});
    target.driver_min = driver["min"].IsDefined() ? driver["min"].Scalar() : "";
    if (!target.driver_min.empty() && !IsVersion(target.driver_min)) Fail(file, driver["min"], "driver.min", "not a version");
  }
  if (YAML::Node switches = root["switches"]; switches.IsDefined()) {
    if (!switches.IsSequence()) Fail(file, switches, "switches", "expected a list, one row per switch firmware family");
    for (size_t i = 0; i < switches.size(); ++i) {
      const YAML::Node& item = switches[i];
      const std::string where = fmt::format("switches[{}].", i);
      if (!item.IsMap()) Fail(file, item, where, "expected a mapping");
      CheckKeys(file, item, where, {"family", "min", "image", "version", "sha256", "release_notes"});
      auto text = [&](const char* key) {
        YAML::Node v = item[key];
        if (!v.IsDefined() || v.IsNull()) return std::string();
        if (!v.IsScalar()) Fail(file, v, where + key, "expected a single value");
        return v.Scalar();
      };
      SwitchFirmwareTarget t;
      t.line = item.Mark().line + 1;
      t.label = text("family");
      t.min = text("min");
      t.image = text("image");
      t.version = text("version");
      t.sha256 = text("sha256");
      t.release_notes = text("release_notes");
      if (t.min.empty()) Fail(file, item, where + "min", "required: the lowest switch firmware the host images need");
      if (!IsVersion(t.min)) Fail(file, item["min"], where + "min", fmt::format("'{}' is not a version", t.min));
      t.family = FirmwareFamily(t.min);
      bool any = !t.image.empty() || !t.version.empty() || !t.sha256.empty();
      if (any && (t.image.empty() || t.version.empty() || t.sha256.empty())) {
        Fail(file, item,
             where + (t.image.empty()     ? "image"
                      : t.version.empty() ? "version"
                                          : "sha256"),
             "an image needs image, version and sha256 together");
      }
      if (any) {
        static const std::regex kSha("^[0-9a-fA-F]{64}$");
        static const std::regex kImage("^[A-Za-z0-9._+-]{1,200}$");  // a file name: it is copied to the switch by name
        if (!std::regex_match(t.image, kImage) || t.image.find("..") != std::string::npos) {
          Fail(file, item["image"], where + "image", "a file name: letters, digits and . _ + - (no directory, no ..)");
        }
        if (!IsVersion(t.version))
          Fail(file, item["version"], where + "version", fmt::format("'{}' is not a version", t.version));
        if (FirmwareFamily(t.version) != t.family) {
          Fail(file, item["version"], where + "version",
               fmt::format("{} is of family {}, min {} of family {}: one row per family", t.version, FirmwareFamily(t.version),
                           t.min, t.family));
        }
        if (CompareVersions(t.version, t.min) < 0) {
          Fail(file, item["version"], where + "version",
               fmt::format("{} is below min {}: it would not serve the hosts", t.version, t.min));
        }
        if (!std::regex_match(t.sha256, kSha))
          Fail(file, item["sha256"], where + "sha256", "64 hex digits: every image is checked before it is installed");
      }
      for (const SwitchFirmwareTarget& other : target.switches) {
        if (other.family == t.family) {
          Fail(file, item["min"], where + "min", fmt::format("family {} has a row already (line {})", t.family, other.line));
        }
      }
      target.switches.push_back(std::move(t));
    }
  }
  return target;
}

RolloutTarget LoadRolloutTarget(const std::string& path) { return ParseRolloutTarget(ReadWholeFile(path), path); }

RolloutPolicy ParseRolloutPolicy(const std::string& yaml, const std::string& file) {
  RolloutPolicy policy;
  YAML::Node root = LoadStrict(yaml, file);
  CheckKeys(file, root, "",
            {"canary_max", "max_unavailable_percent", "max_hosts_per_wave", "max_per_leaf", "drain", "two_person",
             "max_switches_per_wave", "protected_power", "leaf_waves", "slurm_node_name"});
  if (root["two_person"].IsDefined()) {
    const std::string& v = root["two_person"].Scalar();
    if (v != "true" && v != "false") Fail(file, root["two_person"], "two_person", "true or false");
    policy.two_person = v == "true";
  }
  auto bound = [&](const char* key, double min, double max) -> std::optional<double> {
    YAML::Node v = root[key];
    if (!v.IsDefined()) return std::nullopt;
    auto n = FiniteNumber(v);
    if (!n || *n < min || *n > max) Fail(file, v, key, fmt::format("expected a number from {} to {}", min, max));
    return n;
  };
  if (auto v = bound("canary_max", 1, 100000)) policy.canary_max = static_cast<uint32_t>(*v);
  if (auto v = bound("max_unavailable_percent", 0.1, 100)) policy.max_unavailable_percent = *v;
  if (auto v = bound("max_hosts_per_wave", 1, 1000000)) policy.max_hosts_per_wave = static_cast<uint32_t>(*v);
  if (auto v = bound("max_per_leaf", 1, 1024)) policy.max_per_leaf = static_cast<uint32_t>(*v);
  if (auto v = bound("max_switches_per_wave", 1, 10000)) policy.max_switches_per_wave = static_cast<uint32_t>(*v);
  if (YAML::Node power = root["protected_power"]; power.IsDefined()) {
    // protected_power: {racks: [r01, r02]}: the upgrade runs only where a power cut cannot brick a card mid-burn.
    if (!power.IsMap()) Fail(file, power, "protected_power", "expected a mapping with racks");
    CheckKeys(file, power, "protected_power.", {"racks"});
    YAML::Node racks = power["racks"];
    if (!racks.IsSequence() || racks.size() == 0) {
      Fail(file, racks.IsDefined() ? racks : power, "protected_power.racks",
           "expected a list of the racks on protected power (UPS)");
    }
    for (const YAML::Node& r : racks) {
      if (!r.IsScalar() || r.Scalar().empty()) Fail(file, r, "protected_power.racks", "expected a rack name");
      policy.protected_racks.push_back(r.Scalar());
    }
    policy.protected_power_required = true;
  }
  if (root["drain"].IsDefined()) {
    policy.drain = root["drain"].Scalar();
    if (policy.drain != "slurm" && policy.drain != "kubernetes" && policy.drain != "none") {
      Fail(file, root["drain"], "drain", "expected slurm, kubernetes or none");
    }
  }
  auto one_of = [&](const char* key, std::string& into, std::initializer_list<const char*> allowed) {
    YAML::Node v = root[key];
    if (!v.IsDefined()) return;
    std::string expected;
    for (const char* a : allowed) {
      if (v.IsScalar() && v.Scalar() == a) {
        into = a;
        return;
      }
      expected += expected.empty() ? a : std::string(" or ") + a;
    }
    Fail(file, v, key, "expected " + expected);
  };
  one_of("leaf_waves", policy.leaf_waves, {"rail", "unit"});
  one_of("slurm_node_name", policy.slurm_node_name, {"short", "hostname"});
  return policy;
}

RolloutPolicy LoadRolloutPolicy(const std::string& path) { return ParseRolloutPolicy(ReadWholeFile(path), ShownPath(path)); }

}  // namespace railyard
