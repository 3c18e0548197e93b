#include "facts/host_facts.h"

#include <stdexcept>

#include <fmt/format.h>

namespace railyard {

const std::vector<std::string> kKeptCounters = {
    "rx_discards_phy",   "tx_discards_phy",    "rx_out_of_buffer",  "rx_pause_ctrl_phy", "tx_pause_ctrl_phy",
    "rx_prio*_pause",    "tx_prio*_pause",     "rx_crc_errors_phy", "rx_symbol_err_phy", "rx_corrected_bits_phy",
    "link_down_events_phy", "rx_buffer_passed_thres_phy", "tx_queue_stopped", "tx_timeout", "rx_wqe_err"};

namespace {

using nlohmann::json;

json ModuleJson(const ModuleInfo& m) {
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  return {{"readable", m.readable},
          {"identifier", m.identifier},
          {"connector", m.connector},
          {"transmitter_technology", m.transmitter_technology},
          {"vendor_name", m.vendor_name},
          {"vendor_oui", m.vendor_oui},
          {"vendor_pn", m.vendor_pn},
          {"vendor_rev", m.vendor_rev},
          {"vendor_sn", m.vendor_sn},
          {"date_code", m.date_code},
          {"temperature_c", opt(m.temperature_c)},
          {"voltage_v", opt(m.voltage_v)},
          {"cable_length_m", opt(m.cable_length_m)},
          {"transceiver_types", m.transceiver_types},
          {"lengths", m.lengths},
          {"alarms_on", m.alarms_on}};
}

ModuleInfo ModuleFrom(const json& j) {
  auto opt = [&](const char* key) -> std::optional<double> {
    return j.at(key).is_null() ? std::nullopt : std::optional<double>(j.at(key).get<double>());
  };
  ModuleInfo m;
  m.readable = j.at("readable").get<bool>();
  m.identifier = j.at("identifier").get<std::string>();
  m.connector = j.at("connector").get<std::string>();
  m.transmitter_technology = j.at("transmitter_technology").get<std::string>();
  m.vendor_name = j.at("vendor_name").get<std::string>();
  m.vendor_oui = j.at("vendor_oui").get<std::string>();
  m.vendor_pn = j.at("vendor_pn").get<std::string>();
  m.vendor_rev = j.at("vendor_rev").get<std::string>();
  m.vendor_sn = j.at("vendor_sn").get<std::string>();
  m.date_code = j.at("date_code").get<std::string>();
  m.temperature_c = opt("temperature_c");
  m.voltage_v = opt("voltage_v");
  m.cable_length_m = opt("cable_length_m");
  m.transceiver_types = j.at("transceiver_types").get<std::vector<std::string>>();
  m.lengths = j.at("lengths").get<std::map<std::string, std::string>>();
  m.alarms_on = j.at("alarms_on").get<std::vector<std::string>>();
  return m;
}

json Optional(const std::optional<bool>& v) { return v ? json(*v) : json(nullptr); }
std::optional<bool> OptionalBool(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<bool>();
}

json LinkJson(const PcieLink& l) {
  return {{"speed_gts", l.speed_gts},
          {"generation", PcieGeneration(l.speed_gts)},
          {"speed_unknown", l.speed_unknown},
          {"width", l.width},
          {"speed_downgraded", l.speed_downgraded},
          {"width_downgraded", l.width_downgraded}};
}

PcieLink LinkFrom(const json& j) {
  PcieLink l;
  l.speed_gts = j.at("speed_gts").get<double>();
  l.speed_unknown = j.at("speed_unknown").get<bool>();
  l.width = j.at("width").get<int>();
  l.speed_downgraded = j.at("speed_downgraded").get<bool>();
  l.width_downgraded = j.at("width_downgraded").get<bool>();
  return l;
}

const char* ChecksumName(PciFunction::VpdChecksum c) {
  switch (c) {
    case PciFunction::VpdChecksum::kGood: return "good";
    case PciFunction::VpdChecksum::kBad: return "bad";
    case PciFunction::VpdChecksum::kNone: break;
  }
  return "none";
}

json WarningsJson(const std::vector<ParseWarning>& warnings) {
  json out = json::array();
  for (const ParseWarning& w : warnings) out.push_back({{"line", w.line}, {"message", w.message}});
  return out;
}

std::vector<ParseWarning> WarningsFrom(const json& j) {
  std::vector<ParseWarning> out;
  for (const json& w : j) out.push_back({w.at("line").get<int>(), w.at("message").get<std::string>()});
  return out;
}

json QosJson(const MlnxQos& q) {
  json tcs = json::array();
  for (const TrafficClass& t : q.traffic_classes) {
    tcs.push_back({{"tc", t.tc},
                   {"rate_limit", t.rate_limit},
                   {"tsa", t.tsa},
                   {"bandwidth_percent", t.bandwidth_percent ? json(*t.bandwidth_percent) : json(nullptr)},
                   {"priorities", t.priorities}});
  }
  return {{"dcbx_mode", q.dcbx_mode},
          {"trust", q.trust},
          {"dscp_to_priority", q.dscp_to_priority},
          {"receive_buffer_bytes", q.receive_buffer_bytes},
          {"max_buffer_bytes", q.max_buffer_bytes ? json(*q.max_buffer_bytes) : json(nullptr)},
          {"cable_length_m", q.cable_length_m ? json(*q.cable_length_m) : json(nullptr)},
          {"pfc_enabled", q.pfc_enabled},
          {"pfc_buffer", q.pfc_buffer},
          {"traffic_classes", tcs},
          {"warnings", WarningsJson(q.warnings)}};
}

MlnxQos QosFrom(const json& j) {
  MlnxQos q;
  q.dcbx_mode = j.at("dcbx_mode").get<std::string>();
  q.trust = j.at("trust").get<std::string>();
  q.dscp_to_priority = j.at("dscp_to_priority").get<std::array<int, 64>>();
  q.receive_buffer_bytes = j.at("receive_buffer_bytes").get<std::vector<uint64_t>>();
  if (!j.at("max_buffer_bytes").is_null()) q.max_buffer_bytes = j.at("max_buffer_bytes").get<uint64_t>();
  if (!j.at("cable_length_m").is_null()) q.cable_length_m = j.at("cable_length_m").get<int>();
  q.pfc_enabled = j.at("pfc_enabled").get<PerPriority>();
  q.pfc_buffer = j.at("pfc_buffer").get<PerPriority>();
  for (const json& t : j.at("traffic_classes")) {
    TrafficClass x;
    x.tc = t.at("tc").get<int>();
    x.rate_limit = t.at("rate_limit").get<std::string>();
    x.tsa = t.at("tsa").get<std::string>();
    if (!t.at("bandwidth_percent").is_null()) x.bandwidth_percent = t.at("bandwidth_percent").get<int>();
    x.priorities = t.at("priorities").get<std::vector<int>>();
    q.traffic_classes.push_back(std::move(x));
  }
  q.warnings = WarningsFrom(j.at("warnings"));
  return q;
}

json EcnJson(const EcnState& e) {
  return {{"np_enabled", e.np_enabled}, {"rp_enabled", e.rp_enabled}, {"warnings", WarningsJson(e.warnings)}};
}

EcnState EcnFrom(const json& j) {
  EcnState e;
  e.np_enabled = j.at("np_enabled").get<PerPriority>();
  e.rp_enabled = j.at("rp_enabled").get<PerPriority>();
  e.warnings = WarningsFrom(j.at("warnings"));
  return e;
}

json NetplanJson(const NetplanConfig& c) {
  json interfaces = json::array();
  auto opt = [](const std::optional<bool>& b) { return b ? json(*b) : json(nullptr); };
  for (const NetplanInterface& i : c.interfaces) {
    interfaces.push_back({{"name", i.name},
                          {"section", i.section},
                          {"line", i.line},
                          {"mtu", i.mtu ? json(*i.mtu) : json(nullptr)},
                          {"dhcp4", opt(i.dhcp4)},
                          {"dhcp6", opt(i.dhcp6)},
                          {"optional", opt(i.optional)},
                          {"addresses", i.addresses},
                          {"match_mac", i.match_mac},
                          {"set_name", i.set_name},
                          {"link", i.link},
                          {"vlan_id", i.vlan_id},
                          {"renderer", i.renderer},
                          {"members", i.members},
                          {"parameters", i.parameters}});
  }
  return {{"renderer", c.renderer}, {"interfaces", interfaces}, {"warnings", WarningsJson(c.warnings)}};
}

NetplanConfig NetplanFrom(const json& j) {
  NetplanConfig c;
  c.renderer = j.at("renderer").get<std::string>();
  auto opt = [](const json& v) { return v.is_null() ? std::nullopt : std::optional<bool>(v.get<bool>()); };
  for (const json& x : j.at("interfaces")) {
    NetplanInterface i;
    i.name = x.at("name").get<std::string>();
    i.section = x.at("section").get<std::string>();
    i.line = x.at("line").get<int>();
    if (!x.at("mtu").is_null()) i.mtu = x.at("mtu").get<uint32_t>();
    i.dhcp4 = opt(x.at("dhcp4"));
    i.dhcp6 = opt(x.at("dhcp6"));
    i.optional = opt(x.at("optional"));
    i.addresses = x.at("addresses").get<std::vector<std::string>>();
    i.match_mac = x.at("match_mac").get<std::string>();
    i.set_name = x.at("set_name").get<std::string>();
    i.link = x.at("link").get<std::string>();
    i.vlan_id = x.at("vlan_id").get<int>();
    i.renderer = x.at("renderer").get<std::string>();
    i.members = x.at("members").get<std::vector<std::string>>();
    i.parameters = x.at("parameters").get<std::map<std::string, std::string>>();
    c.interfaces.push_back(std::move(i));
  }
  c.warnings = WarningsFrom(j.at("warnings"));
  return c;
}

json MstJson(const MstDevice& d) {
  return {{"mst_path", d.mst_path}, {"pci_address", d.pci_address}, {"device_type", d.device_type},
          {"rdma", d.rdma},         {"net", d.net},                 {"numa", d.numa}};
}

MstDevice MstFrom(const json& j) {
  MstDevice d;
  d.mst_path = j.at("mst_path").get<std::string>();
  d.pci_address = j.at("pci_address").get<std::string>();
  d.device_type = j.at("device_type").get<std::string>();
  d.rdma = j.at("rdma").get<std::string>();
  d.net = j.at("net").get<std::string>();
  d.numa = j.at("numa").get<int>();
  return d;
}

json DevlinkJson(const DevlinkDevice& d) {
  return {{"pci_address", d.pci_address}, {"driver", d.driver},       {"serial_number", d.serial_number},
          {"board_serial", d.board_serial}, {"psid", d.psid},         {"running_fw", d.running_fw},
          {"stored_fw", d.stored_fw},       {"line", d.line}};
}

DevlinkDevice DevlinkFrom(const json& j) {
  DevlinkDevice d;
  d.pci_address = j.at("pci_address").get<std::string>();
  d.driver = j.at("driver").get<std::string>();
  d.serial_number = j.at("serial_number").get<std::string>();
  d.board_serial = j.at("board_serial").get<std::string>();
  d.psid = j.at("psid").get<std::string>();
  d.running_fw = j.at("running_fw").get<std::string>();
  d.stored_fw = j.at("stored_fw").get<std::string>();
  d.line = j.at("line").get<int>();
  return d;
}

json FwImageJson(const FwManagerDevice& d) {
  json versions = json::object();
  for (const auto& [kind, v] : d.versions) versions[kind] = {{"current", v.current}, {"available", v.available}};
  return {{"device_type", d.device_type}, {"part_number", d.part_number}, {"description", d.description},
          {"psid", d.psid},               {"pci_device_name", d.pci_device_name}, {"base_guid", d.base_guid},
          {"base_mac", d.base_mac},       {"port_macs", d.port_macs},       {"versions", versions},
          {"status", d.status}};
}

FwManagerDevice FwImageFrom(const json& j) {
  FwManagerDevice d;
  d.device_type = j.at("device_type").get<std::string>();
  d.part_number = j.at("part_number").get<std::string>();
  d.description = j.at("description").get<std::string>();
  d.psid = j.at("psid").get<std::string>();
  d.pci_device_name = j.at("pci_device_name").get<std::string>();
  d.base_guid = j.at("base_guid").get<std::string>();
  d.base_mac = j.at("base_mac").get<std::string>();
  d.port_macs = j.at("port_macs").get<std::vector<std::string>>();
  for (const auto& [kind, v] : j.at("versions").items()) {
    d.versions[kind] = {v.at("current").get<std::string>(), v.at("available").get<std::string>()};
  }
  d.status = j.at("status").get<std::string>();
  return d;
}

}  // namespace

json PciJson(const PciFunction& p) {
  return json{{"bdf", p.bdf},
              {"class", p.class_name},
              {"description", p.description},
              {"vendor_id", p.vendor_id},
              {"device_id", p.device_id},
              {"subsystem", p.subsystem},
              {"driver", p.driver},
              {"kernel_modules", p.kernel_modules},
              {"numa_node", p.numa_node},
              {"link_capability", LinkJson(p.cap)},
              {"link_status", LinkJson(p.sta)},
              {"aspm", p.aspm},
              {"sriov_total_vfs", p.sriov_total_vfs},
              {"sriov_num_vfs", p.sriov_num_vfs},
              {"has_vpd", p.has_vpd},
              {"vpd_product_name", p.vpd_product_name},
              {"vpd", p.vpd},
              {"vpd_checksum", ChecksumName(p.vpd_checksum)}};
}

PciFunction PciFrom(const json& p) {
  PciFunction x;
  x.bdf = p.at("bdf").get<std::string>();
  x.class_name = p.at("class").get<std::string>();
  x.description = p.at("description").get<std::string>();
  x.vendor_id = p.at("vendor_id").get<std::string>();
  x.device_id = p.at("device_id").get<std::string>();
  x.subsystem = p.at("subsystem").get<std::string>();
  x.driver = p.at("driver").get<std::string>();
  x.kernel_modules = p.value("kernel_modules", std::vector<std::string>());  // added within facts/1
  x.numa_node = p.at("numa_node").get<int>();
  x.cap = LinkFrom(p.at("link_capability"));
  x.sta = LinkFrom(p.at("link_status"));
  // Added within railyard.facts/1: absent in older documents.
  x.aspm = p.value("aspm", "");
  x.sriov_total_vfs = p.value("sriov_total_vfs", -1);
  x.sriov_num_vfs = p.value("sriov_num_vfs", -1);
  x.has_vpd = p.at("has_vpd").get<bool>();
  x.vpd_product_name = p.at("vpd_product_name").get<std::string>();
  x.vpd = p.at("vpd").get<std::map<std::string, std::string>>();
  std::string c = p.at("vpd_checksum").get<std::string>();
  x.vpd_checksum = c == "good" ? PciFunction::VpdChecksum::kGood
                   : c == "bad" ? PciFunction::VpdChecksum::kBad
                                : PciFunction::VpdChecksum::kNone;
  return x;
}

json ToJson(const HostFacts& f) {
  json lldp = json::array();
  for (const LldpNeighbor& n : f.lldp) {
    lldp.push_back({{"local_port", n.local_port}, {"remote_device", n.remote_device}, {"remote_port", n.remote_port},
                    {"remote_chassis", n.remote_chassis}, {"pvid", n.pvid}});
  }
  json pci = json::array();
  for (const PciFunction& p : f.pci) pci.push_back(PciJson(p));
  json other_pci = json::array();
  for (const PciFunction& p : f.other_pci) other_pci.push_back(PciJson(p));
  json firmware = json::object();
  for (const auto& [bdf, q] : f.firmware) {
    firmware[bdf] = {{"image_type", q.image_type},
                     {"fw_version", q.fw_version},
                     {"running_fw_version", q.running_fw_version},
                     {"fw_release_date", q.fw_release_date},
                     {"product_version", q.product_version},
                     {"rom_info", q.rom_info},
                     {"base_guid", q.base_guid},
                     {"guids", q.guids},
                     {"orig_base_guid", q.orig_base_guid},
                     {"base_mac", q.base_mac},
                     {"macs", q.macs},
                     {"orig_base_mac", q.orig_base_mac},
                     {"psid", q.psid},
                     {"orig_psid", q.orig_psid},
                     {"security_attributes", q.security_attributes},
                     {"part_number", q.part_number},
                     {"description", q.description},
                     {"warnings", WarningsJson(q.warnings)}};
  }
  json netdevs = json::array();
  for (const NetdevFacts& n : f.netdevs) {
    netdevs.push_back({{"name", n.name},
                       {"kind", n.kind},
                       {"mtu", n.mtu},
                       {"operstate", n.operstate},
                       {"carrier", Optional(n.carrier)},
                       {"mac", n.mac},
                       {"speed_mbps", n.speed_mbps},
                       {"duplex", n.duplex},
                       {"promiscuous", n.promiscuous},
                       {"master", n.master},
                       {"pci_bdf", n.pci_bdf},
                       {"lower", n.lower},
                       {"vlan_id", n.vlan_id},
                       {"tx_queues", n.tx_queues},
                       {"rx_queues", n.rx_queues},
                       {"addresses", n.addresses},
                       {"driver", n.driver},
                       {"driver_version", n.driver_version},
                       {"driver_origin", n.driver_origin},
                       {"firmware_version", n.firmware_version},
                       {"firmware_psid", n.firmware_psid},
                       {"link_detected", Optional(n.link_detected)},
                       {"link_detected_reason", n.link_detected_reason},
                       {"supported_fec_modes", n.supported_fec_modes},
                       {"supported_link_modes", n.supported_link_modes},
                       {"partner_link_modes", n.partner_link_modes},
                       {"lanes", n.lanes},
                       {"bus_info", n.bus_info},
                       {"usb_device", n.usb_device},
                       {"usb_speed_mbps", n.usb_speed_mbps},
                       {"usb_speed_from", n.usb_speed_from},
                       {"usb_id", n.usb_id},
                       {"module", n.module ? ModuleJson(*n.module) : json(nullptr)},
                       {"counters", n.counters},
                       {"qos", n.qos ? QosJson(*n.qos) : json(nullptr)},
                       {"ecn", n.ecn ? EcnJson(*n.ecn) : json(nullptr)}});
  }
  json bonds = json::object();
  for (const auto& [name, b] : f.bonds) {
    json members = json::array();
    for (const BondMember& m : b.members) {
      members.push_back({{"name", m.name},
                         {"mii_status", m.mii_status},
                         {"speed_mbps", m.speed_mbps},
                         {"duplex", m.duplex},
                         {"link_failure_count", m.link_failure_count},
                         {"permanent_hw_addr", m.permanent_hw_addr},
                         {"aggregator_id", m.aggregator_id},
                         {"partner_mac", m.partner_mac}});
    }
    bonds[name] = {{"mode", b.mode},
                   {"mii_status", b.mii_status},
                   {"transmit_hash_policy", b.transmit_hash_policy},
                   {"currently_active", b.currently_active},
                   {"lacp_rate", b.lacp_rate},
                   {"active_aggregator_id", b.active_aggregator_id},
                   {"partner_mac", b.partner_mac},
                   {"members", members}};
  }
  json rdma = json::array();
  for (const RdmaFacts& r : f.rdma) {
    json ports = json::array();
    for (const IbstatPort& p : r.ca.ports) {
      ports.push_back({{"number", p.number},
                       {"state", p.state},
                       {"physical_state", p.physical_state},
                       {"rate", p.rate},
                       {"base_lid", p.base_lid},
                       {"sm_lid", p.sm_lid},
                       {"port_guid", p.port_guid},
                       {"link_layer", p.link_layer}});
    }
    rdma.push_back({{"device", r.ca.name},
                    {"ca_type", r.ca.ca_type},
                    {"firmware_version", r.ca.firmware_version},
                    {"node_guid", r.ca.node_guid},
                    {"ports", ports},
                    {"netdev", r.netdev},
                    {"netdev_state", r.netdev_state},
                    {"pci_bdf", r.pci_bdf}});
  }
  json links = json::object();
  auto opt = [](const auto& v) { return v ? json(*v) : json(nullptr); };
  for (const auto& [device, p] : f.links) {
    links[device] = {{"state", p.state},
                     {"physical_state", p.physical_state},
                     {"speed", p.speed},
                     {"width", p.width},
                     {"fec", p.fec},
                     {"enabled_speeds", p.enabled_speeds},
                     {"cable_speeds", p.cable_speeds},
                     {"status_opcode", opt(p.status_opcode)},
                     {"recommendation", p.recommendation},
                     {"firmware_version", p.firmware_version},
                     {"raw_ber", opt(p.raw_ber)},
                     {"effective_ber", opt(p.effective_ber)},
                     {"symbol_ber", opt(p.symbol_ber)},
                     {"symbol_errors", opt(p.symbol_errors)},
                     {"effective_errors", opt(p.effective_errors)},
                     {"raw_errors_per_lane", p.raw_errors_per_lane},
                     {"link_down_counter", opt(p.link_down_counter)},
                     {"link_error_recovery", opt(p.link_error_recovery)},
                     {"module_temperature_c", opt(p.module_temperature_c)},
                     {"module_vendor", p.module_vendor},
                     {"module_part_number", p.module_part_number},
                     {"module_serial", p.module_serial},
                     {"cable_length", p.cable_length},
                     {"module_oui", p.module_oui},
                     {"cable_type", p.cable_type},
                     {"rx_los", p.rx_los},
                     {"rx_cdr_lol", p.rx_cdr_lol},
                     {"tx_fault", p.tx_fault}};
  }
  json kernel = json::array();
  for (const KernelEvent& e : f.kernel_events) {
    kernel.push_back({{"timestamp", e.timestamp},
                      {"time", e.time},
                      {"driver", e.driver},
                      {"device", e.device},
                      {"kind", ToString(e.kind)},
                      {"message", e.message},
                      {"values", e.values},
                      {"line", e.line}});
  }
  json nm = json::array();
  for (const NmDevice& d : f.networkmanager) {
    nm.push_back({{"device", d.device},
                  {"type", d.type},
                  {"state", d.state},
                  {"state_code", d.state_code},
                  {"connection", d.connection},
                  {"mtu", d.mtu},
                  {"hwaddr", d.hwaddr},
                  {"carrier", Optional(d.carrier)}});
  }
  json mst = json::array();
  for (const MstDevice& d : f.mst) mst.push_back(MstJson(d));
  json images = json::array();
  for (const FwManagerDevice& d : f.firmware_images) images.push_back(FwImageJson(d));
  json netplan = json::object();
  for (const auto& [name, c] : f.netplan) netplan[name] = NetplanJson(c);
  json ifcfg = json::object();
  for (const auto& [name, file] : f.ifcfg) {
    ifcfg[name] = {{"values", file.values}, {"bonding_opts", file.bonding_opts}, {"warnings", WarningsJson(file.warnings)}};
  }
  json vpd = json::object();
  for (const auto& [bdf, v] : f.vpd) {
    vpd[bdf] = {{"product_name", v.product_name},
                {"read_only", v.read_only},
                {"read_write", v.read_write},
                {"has_rv", v.has_rv},
                {"checksum_ok", v.checksum_ok},
                {"checksum_sum", v.checksum_sum},
                {"has_end", v.has_end},
                {"warnings", WarningsJson(v.warnings)}};
  }
  json sources = json::array();
  for (const SourceStatus& s : f.sources) {
    sources.push_back({{"name", s.name}, {"present", s.present}, {"detail", s.detail}, {"warnings", s.warnings}});
  }
  return {{"schema", kFactsSchema},
          {"host",
           {{"platform", f.platform},
            {"hostname", f.hostname},
            {"kernel", f.kernel},
            {"ofed", f.ofed},
            {"system", {{"vendor", f.system.vendor}, {"product", f.system.product}, {"board", f.system.board},
                        {"bios_vendor", f.system.bios_vendor}, {"bios_version", f.system.bios_version},
                        {"bios_date", f.system.bios_date}, {"vendor_product", f.system.vendor_product},
                        {"from", f.system.from}, {"line", f.system.line}}},
            {"os", {{"id", f.os.id}, {"version_id", f.os.version_id}, {"pretty_name", f.os.pretty_name}, {"line", f.os.line}}},
            {"kernel_cmdline", f.kernel_cmdline},
            {"kernel_params", f.kernel_params},
            {"has_nvidia_nic", f.has_nvidia_nic ? json(*f.has_nvidia_nic) : json(nullptr)}}},
          {"pci", pci},
          {"other_pci", other_pci},
          {"packages", [&] {
             json out = json::array();
             for (const DriverPackage& d : f.packages) {
               out.push_back({{"name", d.name}, {"version", d.version}, {"vendor", d.vendor},
                              {"acceptance", d.acceptance}, {"install_date", d.install_date}});
             }
             return out;
           }()},
          {"usb", [&] {
             json out = json::array();
             for (const UsbTreeNode& u : f.usb) {
               out.push_back({{"bus", u.bus}, {"port_path", u.port_path}, {"dev", u.dev}, {"interface", u.interface},
                              {"class", u.class_name}, {"driver", u.driver}, {"speed_mbps", u.speed_mbps}, {"usb_id", u.usb_id}});
             }
             return out;
           }()},
          {"firmware", firmware},
          {"netdevs", netdevs},
          {"bonds", bonds},
          {"rdma", rdma},
          {"links", links},
          {"kernel_events", kernel},
          {"kernel_log_lines", f.kernel_log_lines},
          {"networkmanager", nm},
          {"ifcfg", ifcfg},
          {"netplan", netplan},
          {"mst", mst},
          {"firmware_images", images},
          {"devlink", [&] {
             json out = json::array();
             for (const DevlinkDevice& d : f.devlink) out.push_back(DevlinkJson(d));
             return out;
           }()},
          {"lldp", lldp},
          {"vpd", vpd},
          {"sources", sources}};
}

HostFacts FactsFromJson(const json& j) {
  if (!j.is_object() || j.value("schema", "") != kFactsSchema) {
    throw std::runtime_error(fmt::format("not a HostFacts document: expected \"schema\": \"{}\"", kFactsSchema));
  }
  HostFacts f;
  std::string where = "host";
  try {
    const json& host = j.at("host");
    f.hostname = host.at("hostname").get<std::string>();
    f.platform = host.value("platform", std::string("linux"));  // added within facts/1
    f.kernel = host.at("kernel").get<std::string>();
    f.ofed = host.at("ofed").get<std::string>();
    if (host.contains("system")) {  // added within facts/1
      const json& s = host.at("system");
      f.system.vendor = s.at("vendor").get<std::string>();
      f.system.product = s.at("product").get<std::string>();
      f.system.board = s.at("board").get<std::string>();
      f.system.bios_vendor = s.at("bios_vendor").get<std::string>();
      f.system.bios_version = s.at("bios_version").get<std::string>();
      f.system.bios_date = s.at("bios_date").get<std::string>();
      f.system.vendor_product = s.at("vendor_product").get<std::string>();
      f.system.from = s.at("from").get<std::string>();
      f.system.line = s.value("line", 0);
    }
    if (host.contains("os")) {  // added within facts/1
      const json& o = host.at("os");
      f.os.id = o.at("id").get<std::string>();
      f.os.version_id = o.at("version_id").get<std::string>();
      f.os.pretty_name = o.at("pretty_name").get<std::string>();
      f.os.line = o.value("line", 0);
    }
    f.kernel_cmdline = host.at("kernel_cmdline").get<std::string>();
    f.kernel_params = host.at("kernel_params").get<std::map<std::string, std::string>>();
    where = "pci";
    for (const json& p : j.at("pci")) f.pci.push_back(PciFrom(p));
    where = "other_pci";  // added within facts/1: absent in older documents
    for (const json& p : j.value("other_pci", json::array())) f.other_pci.push_back(PciFrom(p));
    where = "packages";  // added within facts/1
    for (const json& d : j.value("packages", json::array())) {
      f.packages.push_back({d.at("name").get<std::string>(), d.at("version").get<std::string>(), d.at("vendor").get<std::string>(),
                            d.at("acceptance").get<std::string>(), d.at("install_date").get<std::string>()});
    }
    where = "usb";  // added within facts/1
    for (const json& u : j.value("usb", json::array())) {
      UsbTreeNode x;
      x.bus = u.at("bus").get<int>();
      x.port_path = u.at("port_path").get<std::string>();
      x.dev = u.at("dev").get<int>();
      x.interface = u.at("interface").get<int>();
      x.class_name = u.at("class").get<std::string>();
      x.driver = u.at("driver").get<std::string>();
      x.speed_mbps = u.at("speed_mbps").get<double>();
      x.usb_id = u.at("usb_id").get<std::string>();
      f.usb.push_back(std::move(x));
    }
    where = "firmware";
    for (const auto& [bdf, q] : j.at("firmware").items()) {
      FirmwareQuery x;
      x.image_type = q.at("image_type").get<std::string>();
      x.fw_version = q.at("fw_version").get<std::string>();
      x.running_fw_version = q.at("running_fw_version").get<std::string>();
      x.fw_release_date = q.at("fw_release_date").get<std::string>();
      x.product_version = q.at("product_version").get<std::string>();
      x.rom_info = q.at("rom_info").get<std::vector<std::string>>();
      x.base_guid = q.at("base_guid").get<std::string>();
      x.guids = q.at("guids").get<int>();
      x.orig_base_guid = q.at("orig_base_guid").get<std::string>();
      x.base_mac = q.at("base_mac").get<std::string>();
      x.macs = q.at("macs").get<int>();
      x.orig_base_mac = q.at("orig_base_mac").get<std::string>();
      x.psid = q.at("psid").get<std::string>();
      x.orig_psid = q.at("orig_psid").get<std::string>();
      x.security_attributes = q.at("security_attributes").get<std::string>();
      x.part_number = q.at("part_number").get<std::string>();
      x.description = q.at("description").get<std::string>();
      x.warnings = WarningsFrom(q.at("warnings"));
      f.firmware[bdf] = std::move(x);
    }
    where = "netdevs";
    for (const json& n : j.at("netdevs")) {
      NetdevFacts x;
      x.name = n.at("name").get<std::string>();
      x.kind = n.at("kind").get<std::string>();
      x.mtu = n.at("mtu").get<uint32_t>();
      x.operstate = n.at("operstate").get<std::string>();
      x.carrier = OptionalBool(n, "carrier");
      x.mac = n.at("mac").get<std::string>();
      x.speed_mbps = n.at("speed_mbps").get<uint32_t>();
      x.duplex = n.at("duplex").get<std::string>();
      x.promiscuous = n.at("promiscuous").get<bool>();
      x.master = n.at("master").get<std::string>();
      x.pci_bdf = n.at("pci_bdf").get<std::string>();
      x.lower = n.at("lower").get<std::string>();
      x.vlan_id = n.at("vlan_id").get<int>();
      x.tx_queues = n.at("tx_queues").get<int>();
      x.rx_queues = n.at("rx_queues").get<int>();
      x.addresses = n.at("addresses").get<std::vector<std::string>>();
      x.driver = n.at("driver").get<std::string>();
      x.driver_version = n.value("driver_version", std::string());  // added within facts/1
      x.driver_origin = n.value("driver_origin", std::string());
      x.firmware_version = n.at("firmware_version").get<std::string>();
      x.firmware_psid = n.at("firmware_psid").get<std::string>();
      x.link_detected = OptionalBool(n, "link_detected");
      x.link_detected_reason = n.at("link_detected_reason").get<std::string>();
      x.supported_fec_modes = n.at("supported_fec_modes").get<std::vector<std::string>>();
      x.lanes = n.at("lanes").get<int>();
      // Added within facts/1 (nodes beyond ConnectX): absent in older documents.
      x.supported_link_modes = n.value("supported_link_modes", std::vector<std::string>());
      x.partner_link_modes = n.value("partner_link_modes", std::vector<std::string>());
      x.bus_info = n.value("bus_info", std::string());
      x.usb_device = n.value("usb_device", std::string());
      x.usb_speed_mbps = n.value("usb_speed_mbps", 0.0);
      x.usb_speed_from = n.value("usb_speed_from", std::string());
      x.usb_id = n.value("usb_id", std::string());
      if (!n.at("module").is_null()) x.module = ModuleFrom(n.at("module"));
      x.counters = n.at("counters").get<std::map<std::string, uint64_t>>();
      if (!n.at("qos").is_null()) x.qos = QosFrom(n.at("qos"));
      if (!n.at("ecn").is_null()) x.ecn = EcnFrom(n.at("ecn"));
      f.netdevs.push_back(std::move(x));
    }
    where = "bonds";
    for (const auto& [name, b] : j.at("bonds").items()) {
      BondStatus x;
      x.mode = b.at("mode").get<std::string>();
      x.mii_status = b.at("mii_status").get<std::string>();
      x.transmit_hash_policy = b.at("transmit_hash_policy").get<std::string>();
      x.currently_active = b.at("currently_active").get<std::string>();
      x.lacp_rate = b.at("lacp_rate").get<std::string>();
      x.active_aggregator_id = b.at("active_aggregator_id").get<int>();
      x.partner_mac = b.at("partner_mac").get<std::string>();
      for (const json& m : b.at("members")) {
        BondMember y;
        y.name = m.at("name").get<std::string>();
        y.mii_status = m.at("mii_status").get<std::string>();
        y.speed_mbps = m.at("speed_mbps").get<uint32_t>();
        y.duplex = m.at("duplex").get<std::string>();
        y.link_failure_count = m.at("link_failure_count").get<int>();
        y.permanent_hw_addr = m.at("permanent_hw_addr").get<std::string>();
        y.aggregator_id = m.at("aggregator_id").get<int>();
        y.partner_mac = m.at("partner_mac").get<std::string>();
        x.members.push_back(std::move(y));
      }
      f.bonds[name] = std::move(x);
    }
    where = "rdma";
    for (const json& r : j.at("rdma")) {
      RdmaFacts x;
      x.ca.name = r.at("device").get<std::string>();
      x.ca.ca_type = r.at("ca_type").get<std::string>();
      x.ca.firmware_version = r.at("firmware_version").get<std::string>();
      x.ca.node_guid = r.at("node_guid").get<std::string>();
      for (const json& p : r.at("ports")) {
        IbstatPort y;
        y.number = p.at("number").get<int>();
        y.state = p.at("state").get<std::string>();
        y.physical_state = p.at("physical_state").get<std::string>();
        y.rate = p.at("rate").get<uint32_t>();
        y.base_lid = p.at("base_lid").get<int>();
        y.sm_lid = p.at("sm_lid").get<int>();
        y.port_guid = p.at("port_guid").get<std::string>();
        y.link_layer = p.at("link_layer").get<std::string>();
        x.ca.ports.push_back(std::move(y));
      }
      x.netdev = r.at("netdev").get<std::string>();
      x.netdev_state = r.at("netdev_state").get<std::string>();
      x.pci_bdf = r.at("pci_bdf").get<std::string>();
      f.rdma.push_back(std::move(x));
    }
    where = "links";
    for (const auto& [device, l] : j.at("links").items()) {
      MlxlinkPort p;
      p.device = device;
      p.state = l.at("state").get<std::string>();
      p.physical_state = l.at("physical_state").get<std::string>();
      p.speed = l.at("speed").get<std::string>();
      p.width = l.at("width").get<std::string>();
      p.fec = l.at("fec").get<std::string>();
      if (!l.at("status_opcode").is_null()) p.status_opcode = l.at("status_opcode").get<int>();
      p.recommendation = l.at("recommendation").get<std::string>();
      p.firmware_version = l.at("firmware_version").get<std::string>();
      if (!l.at("raw_ber").is_null()) p.raw_ber = l.at("raw_ber").get<double>();
      if (!l.at("effective_ber").is_null()) p.effective_ber = l.at("effective_ber").get<double>();
      if (!l.at("symbol_ber").is_null()) p.symbol_ber = l.at("symbol_ber").get<double>();
      if (!l.at("symbol_errors").is_null()) p.symbol_errors = l.at("symbol_errors").get<uint64_t>();
      if (!l.at("effective_errors").is_null()) p.effective_errors = l.at("effective_errors").get<uint64_t>();
      p.raw_errors_per_lane = l.at("raw_errors_per_lane").get<std::vector<uint64_t>>();
      if (!l.at("link_down_counter").is_null()) p.link_down_counter = l.at("link_down_counter").get<uint64_t>();
      if (!l.at("link_error_recovery").is_null()) p.link_error_recovery = l.at("link_error_recovery").get<uint64_t>();
      if (!l.at("module_temperature_c").is_null()) p.module_temperature_c = l.at("module_temperature_c").get<double>();
      p.module_vendor = l.at("module_vendor").get<std::string>();
      p.module_part_number = l.at("module_part_number").get<std::string>();
      p.module_serial = l.at("module_serial").get<std::string>();
      p.cable_length = l.at("cable_length").get<std::string>();
      p.module_oui = l.value("module_oui", std::string());  // added within facts/1
      p.cable_type = l.value("cable_type", std::string());
      p.rx_los = l.value("rx_los", std::vector<int>{});
      p.rx_cdr_lol = l.value("rx_cdr_lol", std::vector<int>{});
      p.tx_fault = l.value("tx_fault", std::vector<int>{});
      p.enabled_speeds = l.value("enabled_speeds", std::vector<std::string>{});  // added within facts/1
      p.cable_speeds = l.value("cable_speeds", std::vector<std::string>{});
      f.links[device] = std::move(p);
    }
    where = "kernel_events";
    for (const json& e : j.at("kernel_events")) {
      KernelEvent x;
      x.timestamp = e.at("timestamp").get<double>();
      x.driver = e.at("driver").get<std::string>();
      x.device = e.at("device").get<std::string>();
      x.time = e.value("time", std::string());  // added within facts/1
      auto kind = KernelEventKindFromString(e.at("kind").get<std::string>());
      if (!kind) throw std::runtime_error("unknown kernel event kind " + e.at("kind").get<std::string>());
      x.kind = *kind;
      x.message = e.at("message").get<std::string>();
      x.values = e.at("values").get<std::map<std::string, std::string>>();
      x.line = e.at("line").get<int>();
      f.kernel_events.push_back(std::move(x));
    }
    where = "networkmanager";
    for (const json& d : j.at("networkmanager")) {
      NmDevice x;
      x.device = d.at("device").get<std::string>();
      x.type = d.at("type").get<std::string>();
      x.state = d.at("state").get<std::string>();
      x.state_code = d.at("state_code").get<int>();
      x.connection = d.at("connection").get<std::string>();
      x.mtu = d.at("mtu").get<uint32_t>();
      x.hwaddr = d.at("hwaddr").get<std::string>();
      x.carrier = OptionalBool(d, "carrier");
      f.networkmanager.push_back(std::move(x));
    }
    where = "ifcfg";
    for (const auto& [name, file] : j.at("ifcfg").items()) {
      IfcfgFile x;
      x.values = file.at("values").get<std::map<std::string, std::string>>();
      x.bonding_opts = file.at("bonding_opts").get<std::map<std::string, std::string>>();
      x.warnings = WarningsFrom(file.at("warnings"));
      f.ifcfg[name] = std::move(x);
    }
    where = "mst";
    for (const json& d : j.at("mst")) f.mst.push_back(MstFrom(d));
    where = "firmware_images";
    for (const json& d : j.at("firmware_images")) f.firmware_images.push_back(FwImageFrom(d));
    where = "devlink";  // added within facts/1
    for (const json& d : j.value("devlink", json::array())) f.devlink.push_back(DevlinkFrom(d));
    where = "lldp";  // added within facts/1: absent in older documents
    for (const json& n : j.value("lldp", json::array())) {
      f.lldp.push_back({n.at("local_port").get<std::string>(), n.at("remote_device").get<std::string>(),
                        n.at("remote_port").get<std::string>(), n.at("remote_chassis").get<std::string>(), n.value("pvid", -1)});
    }
    where = "netplan";
    for (const auto& [name, c] : j.at("netplan").items()) f.netplan[name] = NetplanFrom(c);
    where = "vpd";
    for (const auto& [bdf, v] : j.at("vpd").items()) {
      BinaryVpd x;
      x.product_name = v.at("product_name").get<std::string>();
      x.read_only = v.at("read_only").get<std::map<std::string, std::string>>();
      x.read_write = v.at("read_write").get<std::map<std::string, std::string>>();
      x.has_rv = v.at("has_rv").get<bool>();
      x.checksum_ok = v.at("checksum_ok").get<bool>();
      x.checksum_sum = v.at("checksum_sum").get<uint8_t>();
      x.has_end = v.at("has_end").get<bool>();
      x.warnings = WarningsFrom(v.at("warnings"));
      f.vpd[bdf] = std::move(x);
    }
    f.kernel_log_lines = j.value("kernel_log_lines", 0);  // added within facts/1
    where = "host.has_nvidia_nic";  // added within facts/1: absent (unknown) in older documents
    if (const json& h = j.at("host"); h.contains("has_nvidia_nic") && !h.at("has_nvidia_nic").is_null()) {
      f.has_nvidia_nic = h.at("has_nvidia_nic").get<bool>();
    }
    where = "sources";
    for (const json& s : j.at("sources")) {
      f.sources.push_back({s.at("name").get<std::string>(), s.at("present").get<bool>(),
                           s.at("detail").get<std::string>(), s.at("warnings").get<std::vector<std::string>>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("HostFacts: bad \"{}\" section: {}", where, e.what()));
  }
  return f;
}

}  // namespace railyard
