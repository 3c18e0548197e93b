// `railyard config switches --os nvue`: each Ethernet switch's configuration from the plan, in NVUE's
// YAML (`nv config replace FILE && nv config apply`, Cumulus Linux 5.x on Spectrum).
//
// Per planned port: a description with the cable label and the far end (so `nv show interface`
// reads like the cut sheet), admin state up, the link's speed, MTU 9216 (room for a 9000-byte host
// MTU plus headers), FEC `rs` from 25G up (IEEE 802.3: RS(528) for 25/100G copper and multimode,
// RS(544) mandatory for the PAM4 rates 200/400/800G) and off below; breakouts where the plan uses
// sub-ports (swp33s0). Then the plane's addressing:
// - p2p31 (routed): each port's /31 from the IP plan, the loopback /32, eBGP with the plan's ASN
//   and router-id, every fabric port a neighbour (remote-as external), connected routes announced;
// - host (one subnet per plane): host ports are access ports of the plane's VLAN, fabric ports carry
//   it tagged (the plan's single subnet is one layer-2 domain).
// RoCE planes get `qos roce` lossless: PFC on priority 3, ECN, DSCP 26 to priority 3, CNP 48 to 6,
// the same class `config roce` sets on the hosts (a plane whose `qos:` differs is refused: NVUE's
// roce profile has these values).
#pragma once

#include <string>
#include <vector>

#include "config/host_config.h"

namespace railyard {

struct SwitchPortConfig {
  std::string port, label, peer_device, peer_port, address;  // address: "10.3.13.65/31" or ""
  std::string peer_address;                                  // the far end's address on a routed link ("10.3.13.64", no length)
  uint64_t peer_asn = 0;                                     // the far switch's ASN (0: a host, or not routed)
  uint32_t speed_gbps = 0;
  bool to_host = false;  // an endpoint's port (else fabric: leaf-spine, spine-core, leaf-peer)
};

struct SwitchConfig {
  std::string name, plane, tier, model, kind, mode, loopback;
  uint64_t asn = 0;
  int vlan = 0;
  RoceQos qos;
  bool qos_default = true;
  std::vector<SwitchPortConfig> ports;
};

struct SwitchConfigs {
  std::string source;  // the plan.json read, named in errors about what it holds
  std::string plan_name;
  std::vector<SwitchConfig> switches;  // Ethernet and RoCE planes' switches, in plan order
};

// Reads plan.json. Throws InputError("<file>: ...") when it is not a plan or has no Ethernet switch.
SwitchConfigs ReadSwitchConfigs(const std::string& plan_json);
SwitchConfigs ParseSwitchConfigs(std::string_view json, const std::string& source);

// One switch's NVUE YAML. Throws InputError for what NVUE's roce profile cannot say.
std::string NvueYaml(const SwitchConfig& sw, const std::string& plan_name);

// One switch's SONiC CONFIG_DB fragment (`sonic-cfggen -j FILE --write-to-db`): DEVICE_METADATA, PORT
// (SONiC names, lanes and aliases of the model's default hwsku, data/catalog/sonic_ports.csv; a
// Cumulus sub-port swpNsI is the I-th sub-port of the panel port's breakout), INTERFACE and
// LOOPBACK_INTERFACE with the /31s and loopback, numbered eBGP neighbours (BGP_NEIGHBOR with the far
// switch's ASN), VLAN/VLAN_MEMBER for host-mode planes, and on RoCE planes the plane's class as
// DSCP_TO_TC_MAP, TC_TO_QUEUE_MAP, TC_TO_PRIORITY_GROUP_MAP and PORT_QOS_MAP (pfc_enable). Throws
// InputError for a model or breakout the SONiC data does not have.
std::string SonicConfigDb(const SwitchConfig& sw, const std::string& plan_name);

// One switch's Arista EOS configuration (`configure replace`): per port a description with the
// cable, MTU 9214, the breakout speed (<rate>g-<lanes>), RS-FEC at the PAM4 rates, /31 routed
// ports or the plane's VLAN, and on RoCE planes DSCP trust, PFC no-drop and ECN on the plane's
// priority; numbered eBGP to the fabric neighbours. Every line's form is one Arista's own generator
// (AVD) writes (tests/fixtures/eos). Throws for a port that is not EthernetN/M or text EOS cannot take.
std::string EosConfig(const SwitchConfig& sw, const std::string& plan_name);
// Writes DIR/<switch>.yaml (nvue) , .json (sonic) or .cfg (eos) per switch matching `glob` ("" = all), or one
// archive (DIR ending .tar).
size_t WriteSwitchConfigs(const SwitchConfigs& configs, const std::string& glob, const std::string& dir,
                          const std::string& os = "nvue");

}  // namespace railyard
