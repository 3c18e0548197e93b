// What railyard knows about one switch, from the outputs saved on it (railyard collect --switch):
// per port its admin and operational state with the reason, speed, duplex, autonegotiation, FEC,
// MTU, VLAN mode and VLANs, and the module in it. The JSON form is `railyard.switch-facts/1`, one
// document per switch (NDJSON for many), which `railyard doctor` takes beside host facts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/schemas.h"
#include "parse/running_config.h"
#include "parse/switch_ports.h"

namespace railyard {

struct SwitchFactsWarning {
  std::string source;
  int line = 0;
  std::string message;
};

struct SwitchFacts {
  std::string hostname;
  std::string os;    // eos | sonic | nvue | ib (an InfiniBand switch, read from the fabric tools) | "" (unknown)
  std::string guid;  // InfiniBand: the switch's GUID
  std::vector<SwitchPortFacts> ports;  // in the switch's order
  std::optional<SwitchQos> qos;        // switch-wide RoCE QoS (NVUE nv show qos roce), when read
  // The running configuration as comparable entries (parse/running_config.h), when saved: doctor
  // holds it against what `railyard config switches` writes from the plan.
  std::string running_os;  // eos | sonic | nvue
  ConfigEntries running;
  std::string running_source;
  std::vector<SwitchFactsWarning> warnings;
  std::vector<std::string> sources;  // every file read
};

std::string SwitchFactsJson(const SwitchFacts& facts);  // one line: NDJSON-ready
// Throws InputError("<source>: ...") for a document that is not railyard.switch-facts/1.
SwitchFacts ParseSwitchFactsJson(const std::string& json, const std::string& source);

// Reads the outputs saved in `dir`, each file named for its command (docs/switch.md):
//   hostname.txt                                the switch's name (else the directory's)
//   eos-show-interfaces-status.txt | .json      Arista EOS `show interfaces status [| json]`
//   eos-show-interfaces-status-errdisabled.txt | .json  EOS `show interfaces status errdisabled`: the causes
//   eos-show-interfaces-switchport.txt | .json  EOS `show interfaces switchport`: VLAN membership
//   eos-show-interfaces-counters-errors.txt | .json  EOS `show interfaces counters errors`
//   sonic-show-interfaces-status.txt            SONiC `show interfaces status`
//   eos-show-interfaces-transceiver.txt | .json EOS `show interfaces transceiver`: module DOM (temp, bias, tx/rx power)
//   sonic-show-interfaces-transceiver-presence.txt  SONiC: which cages hold a module
//   sonic-show-interfaces-transceiver-eeprom.txt    SONiC `show interfaces transceiver eeprom [--dom]`: vendor, PN, SN, DOM
//   eos-show-qos-interfaces.txt                 EOS `show qos interfaces`: per port trust mode and ECN queues
//   nvue-show-qos-roce.txt                      Cumulus `nv show qos roce`: the switch's RoCE mode, PFC, ECN, trust
//   eos-show-running-config.txt                 EOS `show running-config`   \  the running configuration,
//   sonic-config-db.json                        SONiC `show runningconfiguration all` (CONFIG_DB)  > compared with
//   nvue-config.yaml                            NVUE `nv config show -o yaml`  /  the plan's (doctor --plan)
//   sonic-show-interfaces-counters[-errors|-fec-stats].txt  SONiC portstat: error, drop and FEC counters
//   sonic-show-vlan-brief.txt                   SONiC `show vlan brief`: VLAN membership
//   nvue-show-interface.json                    Cumulus `nv show interface -o json`
// The InfiniBand fabric's files (iblinkinfo.txt, ibqueryerrors.txt, perfquery.txt) are left to
// CollectSwitchesFrom.
// A file railyard does not know is a warning naming it; nothing is dropped in silence.
SwitchFacts CollectSwitchFrom(const std::string& dir);

// A directory that may hold a whole InfiniBand fabric's outputs, run from one host with an HCA on
// it (iblinkinfo.txt, with ibqueryerrors.txt and perfquery.txt for counters: one document per
// switch), an Ethernet switch's outputs (one document), or both. Warnings about the fabric as a
// whole are in `warnings`; each switch's own are in its document.
struct SwitchFactsSet {
  std::vector<SwitchFacts> switches;
  std::vector<SwitchFactsWarning> warnings;
};
SwitchFactsSet CollectSwitchesFrom(const std::string& dir);

// EOS port names in the short form its tables print ("Et1/1"), and the long form its config uses.
std::string EosLongPortName(const std::string& name);

}  // namespace railyard
