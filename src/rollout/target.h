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
//   switches:                            # switch firmware, per family (the version's first number), optional
//     - family: Quantum-2                # a label for people
//       min: 31.2014.2084                # the lowest the host images need ("onwards" in a compat matrix)
//       image: fw-QM9700-31_2014_2084.mfa   # optional, with version and sha256: switches below move first
//       version: 31.2014.2084
//       sha256: <64 hex digits>
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
  std::string min_direct;  // "" = any version may be upgraded directly
  // Burned first on a card below min_direct; its version must be at least min_direct.
  std::string via_image, via_version, via_sha256;
  bool allow_downgrade = false;
  int line = 0;  // in target.yaml
};

// Switch firmware of one family. The family is the version's first number (31 = Quantum-2, 27 =
// Quantum, 35 = Quantum-3 / NVLink switch, 29/30/34 = Spectrum-2/3/4): a switch is only ever moved
// to an image of its own family, as a card only to its own PSID's.
struct SwitchFirmwareTarget {
  std::string label;                                  // "Quantum-2", for people
  std::string family;                                 // "31", from min
  std::string min;                                    // the lowest version the host images need
  std::string image, version, sha256, release_notes;  // "" = no image: switches below min hold their hosts back
  int line = 0;
};

struct RolloutTarget {
  std::string file;
  std::vector<FirmwareTarget> firmware;
  std::string driver_min;  // "" = not checked
  std::vector<SwitchFirmwareTarget> switches;
  const FirmwareTarget* ForPsid(const std::string& psid) const;
  // The row of a switch running `firmware` (its family), or null.
  const SwitchFirmwareTarget* ForSwitchFirmware(const std::string& firmware) const;
};

// A firmware or driver version: dotted or dashed numbers ("28.43.2026", "24.10-1.1.4").
bool IsVersion(const std::string& v);

// The first number of a firmware version: "31.2014.2084" -> "31".
std::string FirmwareFamily(const std::string& version);

struct RolloutPolicy {
  uint32_t canary_max = 16;             // hosts in the canary wave (one per scalable unit)
  double max_unavailable_percent = 10;  // of a scalable unit's hosts down at once in a rolling wave (never below 1)
  uint32_t max_hosts_per_wave = 256;
  uint32_t max_per_leaf = 4;    // hosts behind one leaf down at once
  std::string drain = "slurm";  // slurm | kubernetes | none
  // How leaves go. "unit" (default): the leaves a unit's nodes hang from go in one wave, one
  // maintenance window per unit, since every node behind a leaf of the wave is drained anyway; leaves
  // that share a host that is not drained (UFM, a storage appliance on a leaf pair) never go together.
  // "rail": never two leaves that share any host, so on a rail-optimized fabric each unit is drained
  // once per rail.
  std::string leaf_waves = "unit";
  // The name the scheduler knows a node by: "short" (default: slurmd names itself by `hostname -s`)
  // or "hostname" (as the facts give it, FQDN or not).
  std::string slurm_node_name = "short";
  bool two_person = false;              // a wave starts only once someone other than the planner approved it
  uint32_t max_switches_per_wave = 16;  // switches upgraded at once (spines and cores: also one per plane)
  // Racks on protected power (UPS). Empty with protected_power_required false: not checked. When
  // required, a host or switch in any other rack (or of unknown rack) is held back.
  bool protected_power_required = false;
  std::vector<std::string> protected_racks;
};

// Throw InputError("<file>:<line>:<column>: <key>: <message>") on anything wrong: an unknown
// key, a PSID twice, an image without a 64-digit sha256, a bound of 0, NaN or a version that is not one.
RolloutTarget LoadRolloutTarget(const std::string& path);
RolloutTarget ParseRolloutTarget(const std::string& yaml, const std::string& file);
RolloutPolicy LoadRolloutPolicy(const std::string& path);
RolloutPolicy ParseRolloutPolicy(const std::string& yaml, const std::string& file);

}  // namespace railyard
