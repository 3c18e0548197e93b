// libFuzzer target for one tool-output parser, chosen by the environment (RAILYARD_FUZZ_PARSER=name,
// as fuzz/run_parsers.sh does): any bytes must parse to a result with warnings, never crash, hang,
// leak or throw. One binary for all parsers: one compile and one link instead of nineteen.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "burnin/burnin_plan.h"
#include "catalog/compatibility.h"
#include "config/host_config.h"
#include "config/switch_config.h"
#include "doctor/switch_rules.h"
#include "facts/ib_switch_facts.h"
#include "facts/switch_facts.h"
#include "parse/bonding.h"
#include "parse/dmesg.h"
#include "parse/esxcli.h"
#include "parse/ethtool.h"
#include "parse/flint.h"
#include "parse/ib_counters.h"
#include "parse/iblinkinfo.h"
#include "parse/ibnetdiscover.h"
#include "parse/ibstat.h"
#include "parse/iproute.h"
#include "parse/lldpctl.h"
#include "parse/lspci.h"
#include "parse/lsusb.h"
#include "parse/mellanox_tools.h"
#include "parse/mlxlink.h"
#include "parse/module.h"
#include "parse/nccl_tests.h"
#include "parse/netconfig.h"
#include "parse/perftest.h"
#include "parse/qos.h"
#include "parse/running_config.h"
#include "parse/switch_lldp.h"
#include "parse/switch_modules.h"
#include "parse/switch_ports.h"
#include "parse/switch_qos.h"
#include "parse/system_identity.h"
#include "parse/vpd.h"
#include "planfile/names.h"
#include "planfile/planned.h"

namespace {

std::string parser;  // set once, before the first input

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static const std::set<std::string> known = {"lspci",     "flint",       "ethtool",    "bonding",       "ibnetdiscover",
                                              "lldpctl",   "switch_lldp", "ib_fabric",  "mlxlink",       "burnin",
                                              "ibstat",    "dmesg",       "other_nics", "iproute",       "qos",
                                              "netconfig", "module",      "vpd",        "mellanox_tools"};
  const char* name = std::getenv("RAILYARD_FUZZ_PARSER");
  if (name != nullptr && std::string_view(name) == "list") {  // the list run_parsers.sh walks: one home for it
    for (const std::string& k : known) std::printf("%s\n", k.c_str());
    std::exit(0);
  }
  if (name == nullptr || !known.contains(name)) {
    std::fprintf(stderr, "parser_fuzz: set RAILYARD_FUZZ_PARSER to one of:");
    for (const std::string& k : known) std::fprintf(stderr, " %s", k.c_str());
    std::fprintf(stderr, "\n");
    std::exit(2);
  }
  parser = name;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (parser == "lspci")
    railyard::ParseLspci(text);
  else if (parser == "flint")
    railyard::ParseFlintQuery(text);
  else if (parser == "ethtool") {
    railyard::ParseEthtoolSettings(text);
    railyard::ParseEthtoolDriver(text);
  } else if (parser == "bonding")
    railyard::ParseBonding(text);
  else if (parser == "ibnetdiscover") {
    railyard::ParseIbnetdiscover(text, "fuzz");
    // verify's own readers: plan.json and --names rows. They refuse bad input with runtime_error, nothing else.
    try {
      railyard::ParsePlannedFabric(text, "fuzz");
    } catch (const std::runtime_error&) {
    }
    try {  // config hosts reads the same plan.json, and what it reads goes into files
      railyard::HostConfigs configs = railyard::ParseHostConfigs(text, "fuzz");
      for (const auto& [host, ports] : configs.ports) {
        (void)railyard::NetplanYaml(host, ports, configs.plan_name);
        (void)railyard::MultiRailSysctl(host, ports);
      }
    } catch (const std::runtime_error&) {
    }
    try {  // and config switches
      railyard::SwitchConfigs configs = railyard::ParseSwitchConfigs(text, "fuzz");
      for (const railyard::SwitchConfig& sw : configs.switches) {
        (void)railyard::NvueYaml(sw, configs.plan_name);
        try {
          (void)railyard::SonicConfigDb(sw, configs.plan_name);
        } catch (const std::runtime_error&) {
        }
      }
    } catch (const std::runtime_error&) {
    }
    // plan.index: refused with a reason (never thrown, never a link naming a row that is not there).
    {
      railyard::PlannedFabric indexed;
      std::string why;
      if (railyard::ParsePlanIndex(text, "fuzz", indexed, why)) {
        for (const railyard::PlannedLink& l : indexed.links) {
          if (l.a_device >= indexed.devices.size() || l.z_device >= indexed.devices.size() ||
              l.a_port_id >= indexed.port_names.size() || l.z_port_id >= indexed.port_names.size()) {
            __builtin_trap();
          }
        }
      } else if (why.empty()) {
        __builtin_trap();
      }
    }
    static const railyard::PlannedFabric plan = [] {
      railyard::PlannedFabric p;
      p.devices = {{"leaf01", "switch", "leaf", "compute", "r1", 1, 1, 40, 1}, {"gpu001", "node", "", "", "r1", 1, 1, 1, 0}};
      p.device_index = {{"leaf01", 0}, {"gpu001", 1}};
      return p;
    }();
    railyard::NameResolver names(plan);
    try {
      names.LoadMapText(text, "fuzz");
    } catch (const std::runtime_error&) {
    }
  } else if (parser == "lldpctl") {
    railyard::ParseLldpctlJson(text, "host", "fuzz");
    railyard::ParseLldpctlKeyValue(text, "host", "fuzz");
    railyard::ParseLldpctlPlain(text, "host", "fuzz");
    railyard::ParseLldpctlXml(text, "host", "fuzz");
  } else if (parser == "switch_lldp") {
    railyard::ParseSwitchLldpTable(text, "switch", "fuzz");
    railyard::ParseEosInterfacesStatus(text);
    railyard::ParseSonicInterfacesStatus(text);
    railyard::ParseNvueInterfaceJson(text);
    railyard::ParseEosSwitchport(text);
    railyard::ParseSonicVlanBrief(text);
    railyard::ParseEosCountersErrors(text);
    railyard::ParseEosTransceiver(text);
    railyard::ParseSonicTransceiverPresence(text);
    railyard::ParseSonicTransceiverEeprom(text);
    railyard::ParseNvueQosRoce(text);
    railyard::ParseSonicCounters(text);
    {
      std::string error;
      const railyard::ConfigEntries entries = railyard::EosConfigEntries(text);
      railyard::ConfigDrift(entries, railyard::SonicConfigEntries(text, error));
      railyard::ConfigDrift(railyard::NvueConfigEntries(text, error), entries);
    }
    railyard::ParseEosQosInterfaces(text);
    (void)railyard::VlanListHas(text, 100);
    try {  // doctor reads switch facts documents: refused with runtime_error, nothing else
      railyard::ParseSwitchFactsJson(text, "fuzz");
    } catch (const std::runtime_error&) {
    }
  } else if (parser == "ib_fabric") {
    railyard::IblinkinfoPorts links = railyard::ParseIblinkinfoPorts(text);
    std::vector<railyard::IbCountersFile> counters = {{railyard::ParseIbqueryerrors(text), "q"},
                                                      {railyard::ParsePerfquery(text), "p"}};
    std::vector<railyard::SwitchFactsWarning> warnings;
    for (const railyard::SwitchFacts& sw : railyard::IbSwitchFacts(links, "fuzz", counters, warnings)) {
      railyard::RunSwitchRules(sw, railyard::DoctorPolicy{}, nullptr);
      railyard::ParseSwitchFactsJson(railyard::SwitchFactsJson(sw), "fuzz");  // what collect writes, doctor reads
    }
  } else if (parser == "mlxlink")
    railyard::ParseMlxlink(text);
  else if (parser == "burnin") {
    railyard::ParsePerftest(text);
    railyard::ParsePerftestJson(text, true);
    railyard::ParseNcclTests(text);
    railyard::ParseNcclTestsJson(text);
    try {  // burnin check reads the plan it wrote: refused with runtime_error, nothing else
      railyard::ParseBurninPlan(text, "fuzz");
    } catch (const std::runtime_error&) {
    }
  } else if (parser == "ibstat") {
    railyard::ParseIbstat(text);
    railyard::ParseIbdev2netdev(text);
    railyard::ParseRdmaLink(text);
  } else if (parser == "dmesg")
    railyard::ParseDmesg(text);
  else if (parser == "other_nics") {
    // Nodes beyond ConnectX: lsusb -t, ibv_devinfo, and the four esxcli outputs.
    railyard::ParseLsusbTree(text);
    railyard::ParseIbvDevinfo(text);
    railyard::ParseEsxcliNicList(text);
    railyard::ParseEsxcliNicGet(text);
    railyard::ParseEsxcliVibList(text);
    railyard::ParseEsxcliPciList(text);
    // The server and OS identity (compatibility matrix), and the matrix itself.
    railyard::ParseDmidecode(text);
    railyard::ParseOsRelease(text);
    for (size_t at = 0, n = 0; at < text.size() && n < 64; ++n) {
      size_t eol = text.find('\n', at);
      railyard::ParseKernelDmiLine(std::string_view(text).substr(at, eol == std::string::npos ? std::string::npos : eol - at));
      if (eol == std::string::npos) break;
      at = eol + 1;
    }
    try {
      railyard::ParseCompatMatrix(text, "fuzz.csv");
    } catch (const std::runtime_error&) {
      // a bad matrix is an input error, by design
    }
  } else if (parser == "iproute") {
    railyard::ParseIpLinkText(text);
    railyard::ParseIpLinkJson(text);
    railyard::ParseIpAddrJson(text);
  } else if (parser == "qos") {
    railyard::ParseMlnxQos(text);
    railyard::ParseEcnGrep(text);
  } else if (parser == "netconfig") {
    railyard::ParseNetplan(text);
    railyard::ParseNmcli(text);
    railyard::ParseIfcfg(text);
  } else if (parser == "module") {
    railyard::LanesOf(railyard::ParseEthtoolModule(text));
    railyard::ParseEthtoolStats(text);
  } else if (parser == "vpd") {
    railyard::IdentityOf(railyard::ParseBinaryVpd(text).read_only);
    railyard::IdentityOf(railyard::ParseMstvpd(text).read_only);
  } else if (parser == "mellanox_tools") {
    railyard::ParseMlxfwmanager(text);
    railyard::ParseMstStatus(text);
    railyard::ParseDevlinkDevInfo(text);
    railyard::ParseIbstatus(text);
    railyard::ParseIblinkinfo(text, "fuzz");
  } else
    __builtin_trap();  // a name in `known` with no branch here
  return 0;
}
