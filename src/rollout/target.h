// What a rollout moves the fleet to (target.yaml) and how carefully (rollout.yaml policy).
//
// target.yaml:
//   firmware:
//     - psid: MT_0000000838              # the image is for exactly this PSID: never cross-flash
//       image: fw-ConnectX7-rel-28_43_2026-MCX75310AAS-NEA_Ax.bin
//       version: 28.43.2026
//       sha256: <64 hex digits>
//       release_notes: https://docs.nvidia.com/networking/display/connectx7firmwarev28432026lts
//       min_direct: 28.39.1002           # the lowest version it may be burned over directly (optional)
//       intermediate:                    # the image that takes a card below min_direct there (optional)
//         {image: fw-...-28_39_1002.bin, version: 28.39.1002, sha256: <64 hex digits>}
//       allow_downgrade: false           # (default false)
//   driver:
//     min: 24.10-1.1.4                   # MLNX_OFED / DOCA-OFED the image needs (ofed_info -s), optional
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace railyard {

struct FirmwareTarget {
  std::string psid;
  std::string image;
  std::string version;
  std::string sha256;
  std::string release_notes;
  std::string min_direct;     // "" = any version may be upgraded directly
  // Burned first on a card below min_direct; its version must be at least min_direct.
  std::string via_image, via_version, via_sha256;
  bool allow_downgrade = false;
  int line = 0;               // in target.yaml
};

struct RolloutTarget {
  std::string file;
  std::vector<FirmwareTarget> firmware;
  std::string driver_min;     // "" = not checked
  const FirmwareTarget* ForPsid(const std::string& psid) const;
};

struct RolloutPolicy {
  uint32_t canary_max = 16;             // hosts in the canary wave (one per scalable unit)
  double max_unavailable_percent = 10;  // of a scalable unit's hosts down at once in a rolling wave (never below 1)
  uint32_t max_hosts_per_wave = 256;
  uint32_t max_per_leaf = 4;            // hosts behind one leaf down at once
  std::string drain = "slurm";          // slurm | kubernetes | none
  bool two_person = false;              // a wave starts only once someone other than the planner approved it
};

// Throw std::runtime_error("<file>:<line>:<column>: <key>: <message>") on anything wrong: an unknown
// key, a PSID twice, an image without a 64-digit sha256, a bound of 0, NaN or a version that is not one.
RolloutTarget LoadRolloutTarget(const std::string& path);
RolloutTarget ParseRolloutTarget(const std::string& yaml, const std::string& file);
RolloutPolicy LoadRolloutPolicy(const std::string& path);
RolloutPolicy ParseRolloutPolicy(const std::string& yaml, const std::string& file);

}  // namespace railyard
