#include "facts/host_facts.h"

#include <stdexcept>

#include <fmt/format.h>

#include "util/csv.h"
#include "util/json_fields.h"

namespace railyard {

namespace {

// data/catalog/kept_counters.csv's counters: exact names, and prefix + suffix around a '*'.
const std::vector<std::string>& KeptCounters() {
  static const std::vector<std::string> kept = [] {
    std::vector<std::string> out;
    CsvTable t = ParseCsv(EmbeddedFileText("kept_counters.csv"), "kept_counters.csv");
    const int column = t.Column("counter");
    for (const CsvRow& r : t.rows) {
      if (column >= 0 && static_cast<size_t>(column) < r.fields.size() && !r.fields[column].empty())
        out.push_back(r.fields[column]);
    }
    return out;
  }();
  return kept;
}

}  // namespace

bool IsKeptCounter(std::string_view name) {
  for (const std::string& kept : KeptCounters()) {
    const size_t star = kept.find('*');
    if (star == std::string::npos ? name == kept
                                  : name.size() > kept.size() - 1 && name.starts_with(std::string_view(kept).substr(0, star)) &&
                                        name.ends_with(std::string_view(kept).substr(star + 1)))
      return true;
  }
  return false;
}

std::optional<uint64_t> KeptCounter(const NetdevFacts& n, std::string_view name) {
  if (!IsKeptCounter(name))
    throw std::logic_error(
        fmt::format("counter {} is read by a rule but not kept by collect: add it to data/catalog/kept_counters.csv", name));
  auto it = n.counters.find(std::string(name));
  if (it == n.counters.end()) return std::nullopt;
  return it->second;
}

// Every HostFacts field, once: JsonCodec<HostFacts> writes `railyard collect`'s document from these
// tables and reads it back (util/json_fields.h). kOptional marks a key added within railyard.facts/1:
// older documents lack it, and the member keeps its default.
constexpr Presence kAdded = Presence::kOptional;

template <>
struct JsonTable<ParseWarning> {
  static constexpr auto fields = std::make_tuple(Key("line", &ParseWarning::line), Key("message", &ParseWarning::message));
};

template <>
struct JsonTable<ModuleInfo> {
  static constexpr auto fields = std::make_tuple(
      Key("alarms_on", &ModuleInfo::alarms_on), Key("cable_length_m", &ModuleInfo::cable_length_m),
      Key("connector", &ModuleInfo::connector), Key("date_code", &ModuleInfo::date_code),
      Key("identifier", &ModuleInfo::identifier), Key("lengths", &ModuleInfo::lengths), Key("readable", &ModuleInfo::readable),
      Key("temperature_c", &ModuleInfo::temperature_c), Key("transceiver_types", &ModuleInfo::transceiver_types),
      Key("transmitter_technology", &ModuleInfo::transmitter_technology), Key("vendor_name", &ModuleInfo::vendor_name),
      Key("vendor_oui", &ModuleInfo::vendor_oui), Key("vendor_pn", &ModuleInfo::vendor_pn),
      Key("vendor_rev", &ModuleInfo::vendor_rev), Key("vendor_sn", &ModuleInfo::vendor_sn),
      Key("voltage_v", &ModuleInfo::voltage_v));
};

// PcieLink carries a derived "generation" (from the speed) for readers of the document; it is written,
// never read back.
template <>
struct JsonCodec<PcieLink> {
  struct Fields {
    static constexpr auto fields =
        std::make_tuple(Key("speed_downgraded", &PcieLink::speed_downgraded), Key("speed_gts", &PcieLink::speed_gts),
                        Key("speed_unknown", &PcieLink::speed_unknown), Key("width", &PcieLink::width),
                        Key("width_downgraded", &PcieLink::width_downgraded));
  };
  static nlohmann::json Write(const PcieLink& l) {
    nlohmann::json out = JsonTableCodec<PcieLink, Fields>::Write(l);
    out["generation"] = PcieGeneration(l.speed_gts);
    return out;
  }
  static void Read(simdjson::dom::element e, PcieLink& l) { JsonTableCodec<PcieLink, Fields>::Read(e, l); }
};

template <>
struct JsonCodec<PciFunction::VpdChecksum> {
  static nlohmann::json Write(PciFunction::VpdChecksum c) {
    switch (c) {
      case PciFunction::VpdChecksum::kGood:
        return "good";
      case PciFunction::VpdChecksum::kBad:
        return "bad";
      case PciFunction::VpdChecksum::kNone:
        break;
    }
    return "none";
  }
  static void Read(simdjson::dom::element e, PciFunction::VpdChecksum& out) {
    std::string c;
    JsonCodec<std::string>::Read(e, c);
    out = c == "good"  ? PciFunction::VpdChecksum::kGood
          : c == "bad" ? PciFunction::VpdChecksum::kBad
                       : PciFunction::VpdChecksum::kNone;
  }
};

template <>
struct JsonTable<PciFunction> {
  using P = PciFunction;
  static constexpr auto fields = std::make_tuple(
      Key("aspm", &P::aspm, kAdded), Key("bdf", &P::bdf), Key("class", &P::class_name), Key("description", &P::description),
      Key("device_id", &P::device_id), Key("driver", &P::driver), Key("has_vpd", &P::has_vpd),
      Key("kernel_modules", &P::kernel_modules, kAdded), Key("link_capability", &P::cap), Key("link_status", &P::sta),
      Key("numa_node", &P::numa_node), Key("sriov_num_vfs", &P::sriov_num_vfs, kAdded),
      Key("sriov_total_vfs", &P::sriov_total_vfs, kAdded), Key("subsystem", &P::subsystem), Key("vendor_id", &P::vendor_id),
      Key("vpd", &P::vpd), Key("vpd_checksum", &P::vpd_checksum), Key("vpd_product_name", &P::vpd_product_name));
};

template <>
struct JsonTable<TrafficClass> {
  static constexpr auto fields =
      std::make_tuple(Key("bandwidth_percent", &TrafficClass::bandwidth_percent), Key("priorities", &TrafficClass::priorities),
                      Key("rate_limit", &TrafficClass::rate_limit), Key("tc", &TrafficClass::tc), Key("tsa", &TrafficClass::tsa));
};

template <>
struct JsonTable<MlnxQos> {
  static constexpr auto fields = std::make_tuple(
      Key("cable_length_m", &MlnxQos::cable_length_m), Key("dcbx_mode", &MlnxQos::dcbx_mode),
      Key("dscp_to_priority", &MlnxQos::dscp_to_priority), Key("max_buffer_bytes", &MlnxQos::max_buffer_bytes),
      Key("pfc_buffer", &MlnxQos::pfc_buffer), Key("pfc_enabled", &MlnxQos::pfc_enabled),
      Key("receive_buffer_bytes", &MlnxQos::receive_buffer_bytes), Key("traffic_classes", &MlnxQos::traffic_classes),
      Key("trust", &MlnxQos::trust), Key("warnings", &MlnxQos::warnings));
};

template <>
struct JsonTable<EcnState> {
  static constexpr auto fields = std::make_tuple(Key("np_enabled", &EcnState::np_enabled),
                                                 Key("rp_enabled", &EcnState::rp_enabled), Key("warnings", &EcnState::warnings));
};

template <>
struct JsonTable<NetplanInterface> {
  using I = NetplanInterface;
  static constexpr auto fields = std::make_tuple(
      Key("addresses", &I::addresses), Key("dhcp4", &I::dhcp4), Key("dhcp6", &I::dhcp6), Key("line", &I::line),
      Key("link", &I::link), Key("match_mac", &I::match_mac), Key("members", &I::members), Key("mtu", &I::mtu),
      Key("name", &I::name), Key("optional", &I::optional), Key("parameters", &I::parameters), Key("renderer", &I::renderer),
      Key("section", &I::section), Key("set_name", &I::set_name), Key("vlan_id", &I::vlan_id));
};

template <>
struct JsonTable<NetplanConfig> {
  static constexpr auto fields =
      std::make_tuple(Key("interfaces", &NetplanConfig::interfaces), Key("renderer", &NetplanConfig::renderer),
                      Key("warnings", &NetplanConfig::warnings));
};

template <>
struct JsonTable<MstDevice> {
  static constexpr auto fields = std::make_tuple(
      Key("device_type", &MstDevice::device_type), Key("mst_path", &MstDevice::mst_path), Key("net", &MstDevice::net),
      Key("numa", &MstDevice::numa), Key("pci_address", &MstDevice::pci_address), Key("rdma", &MstDevice::rdma));
};

template <>
struct JsonTable<DevlinkDevice> {
  using D = DevlinkDevice;
  static constexpr auto fields =
      std::make_tuple(Key("board_serial", &D::board_serial), Key("driver", &D::driver), Key("line", &D::line),
                      Key("pci_address", &D::pci_address), Key("psid", &D::psid), Key("running_fw", &D::running_fw),
                      Key("serial_number", &D::serial_number), Key("stored_fw", &D::stored_fw));
};

template <>
struct JsonTable<FirmwareVersions> {
  static constexpr auto fields =
      std::make_tuple(Key("available", &FirmwareVersions::available), Key("current", &FirmwareVersions::current));
};

template <>
struct JsonTable<FwManagerDevice> {
  using D = FwManagerDevice;
  static constexpr auto fields = std::make_tuple(
      Key("base_guid", &D::base_guid), Key("base_mac", &D::base_mac), Key("description", &D::description),
      Key("device_type", &D::device_type), Key("part_number", &D::part_number), Key("pci_device_name", &D::pci_device_name),
      Key("port_macs", &D::port_macs), Key("psid", &D::psid), Key("status", &D::status), Key("versions", &D::versions));
};

template <>
struct JsonTable<FirmwareQuery> {
  using Q = FirmwareQuery;
  static constexpr auto fields =
      std::make_tuple(Key("base_guid", &Q::base_guid), Key("base_mac", &Q::base_mac), Key("description", &Q::description),
                      Key("fw_release_date", &Q::fw_release_date), Key("fw_version", &Q::fw_version), Key("guids", &Q::guids),
                      Key("image_type", &Q::image_type), Key("macs", &Q::macs), Key("orig_base_guid", &Q::orig_base_guid),
                      Key("orig_base_mac", &Q::orig_base_mac), Key("orig_psid", &Q::orig_psid),
                      Key("part_number", &Q::part_number), Key("product_version", &Q::product_version), Key("psid", &Q::psid),
                      Key("rom_info", &Q::rom_info), Key("running_fw_version", &Q::running_fw_version),
                      Key("security_attributes", &Q::security_attributes), Key("warnings", &Q::warnings));
};

template <>
struct JsonTable<NetdevFacts> {
  using N = NetdevFacts;
  static constexpr auto fields = std::make_tuple(
      Key("addresses", &N::addresses), Key("bus_info", &N::bus_info, kAdded), Key("carrier", &N::carrier, kAdded),
      Key("counters", &N::counters), Key("driver", &N::driver), Key("driver_origin", &N::driver_origin, kAdded),
      Key("driver_version", &N::driver_version, kAdded), Key("duplex", &N::duplex), Key("ecn", &N::ecn),
      Key("firmware_psid", &N::firmware_psid), Key("firmware_version", &N::firmware_version), Key("kind", &N::kind),
      Key("lanes", &N::lanes), Key("link_detected", &N::link_detected, kAdded),
      Key("link_detected_reason", &N::link_detected_reason), Key("lower", &N::lower), Key("mac", &N::mac),
      Key("master", &N::master), Key("module", &N::module), Key("mtu", &N::mtu), Key("name", &N::name),
      Key("operstate", &N::operstate), Key("partner_link_modes", &N::partner_link_modes, kAdded), Key("pci_bdf", &N::pci_bdf),
      Key("promiscuous", &N::promiscuous), Key("qos", &N::qos), Key("rx_queues", &N::rx_queues),
      Key("speed_mbps", &N::speed_mbps), Key("supported_fec_modes", &N::supported_fec_modes),
      Key("supported_link_modes", &N::supported_link_modes, kAdded), Key("tx_queues", &N::tx_queues),
      Key("usb_device", &N::usb_device, kAdded), Key("usb_id", &N::usb_id, kAdded),
      Key("usb_speed_from", &N::usb_speed_from, kAdded), Key("usb_speed_mbps", &N::usb_speed_mbps, kAdded),
      Key("vlan_id", &N::vlan_id));
};

template <>
struct JsonTable<BondMember> {
  using M = BondMember;
  static constexpr auto fields = std::make_tuple(
      Key("aggregator_id", &M::aggregator_id), Key("duplex", &M::duplex), Key("link_failure_count", &M::link_failure_count),
      Key("mii_status", &M::mii_status), Key("name", &M::name), Key("partner_mac", &M::partner_mac),
      Key("permanent_hw_addr", &M::permanent_hw_addr), Key("speed_mbps", &M::speed_mbps));
};

template <>
struct JsonTable<BondStatus> {
  using B = BondStatus;
  static constexpr auto fields = std::make_tuple(
      Key("active_aggregator_id", &B::active_aggregator_id), Key("currently_active", &B::currently_active),
      Key("lacp_rate", &B::lacp_rate), Key("members", &B::members), Key("mii_status", &B::mii_status), Key("mode", &B::mode),
      Key("partner_mac", &B::partner_mac), Key("transmit_hash_policy", &B::transmit_hash_policy));
};

template <>
struct JsonTable<IbstatPort> {
  using P = IbstatPort;
  static constexpr auto fields =
      std::make_tuple(Key("base_lid", &P::base_lid), Key("link_layer", &P::link_layer), Key("number", &P::number),
                      Key("physical_state", &P::physical_state), Key("port_guid", &P::port_guid), Key("rate", &P::rate),
                      Key("sm_lid", &P::sm_lid), Key("state", &P::state));
};

template <>
struct JsonTable<RdmaFacts> {
  static constexpr auto fields = std::make_tuple(KeyVia(
                                                     "ca_type", [](auto& r) -> auto& { return r.ca.ca_type; }),
                                                 KeyVia(
                                                     "device", [](auto& r) -> auto& { return r.ca.name; }),
                                                 KeyVia(
                                                     "firmware_version", [](auto& r) -> auto& { return r.ca.firmware_version; }),
                                                 Key("netdev", &RdmaFacts::netdev), Key("netdev_state", &RdmaFacts::netdev_state),
                                                 KeyVia(
                                                     "node_guid", [](auto& r) -> auto& { return r.ca.node_guid; }),
                                                 Key("pci_bdf", &RdmaFacts::pci_bdf),
                                                 KeyVia(
                                                     "ports", [](auto& r) -> auto& { return r.ca.ports; }));
};

// A link's device is the key it is filed under in "links" (set by the reader of HostFacts).
template <>
struct JsonTable<MlxlinkPort> {
  using L = MlxlinkPort;
  static constexpr auto fields = std::make_tuple(
      Key("cable_length", &L::cable_length), Key("cable_speeds", &L::cable_speeds, kAdded),
      Key("cable_type", &L::cable_type, kAdded), Key("effective_ber", &L::effective_ber),
      Key("effective_errors", &L::effective_errors), Key("enabled_speeds", &L::enabled_speeds, kAdded), Key("fec", &L::fec),
      Key("firmware_version", &L::firmware_version), Key("link_down_counter", &L::link_down_counter),
      Key("link_error_recovery", &L::link_error_recovery), Key("module_oui", &L::module_oui, kAdded),
      Key("module_part_number", &L::module_part_number), Key("module_serial", &L::module_serial),
      Key("module_temperature_c", &L::module_temperature_c), Key("module_vendor", &L::module_vendor),
      Key("physical_state", &L::physical_state), Key("raw_ber", &L::raw_ber), Key("raw_errors_per_lane", &L::raw_errors_per_lane),
      Key("recommendation", &L::recommendation), Key("rx_cdr_lol", &L::rx_cdr_lol, kAdded), Key("rx_los", &L::rx_los, kAdded),
      Key("speed", &L::speed), Key("state", &L::state), Key("status_opcode", &L::status_opcode),
      Key("symbol_ber", &L::symbol_ber), Key("symbol_errors", &L::symbol_errors), Key("tx_fault", &L::tx_fault, kAdded),
      Key("width", &L::width));
};

template <>
struct JsonCodec<KernelEventKind> {
  static nlohmann::json Write(KernelEventKind kind) { return ToString(kind); }
  static void Read(simdjson::dom::element e, KernelEventKind& out) {
    std::string name;
    JsonCodec<std::string>::Read(e, name);
    std::optional<KernelEventKind> kind = KernelEventKindFromString(name);
    if (!kind) throw JsonFieldError("", "unknown kernel event kind " + name);
    out = *kind;
  }
};

template <>
struct JsonTable<KernelEvent> {
  using E = KernelEvent;
  static constexpr auto fields = std::make_tuple(
      Key("device", &E::device), Key("driver", &E::driver), Key("kind", &E::kind), Key("line", &E::line),
      Key("message", &E::message), Key("time", &E::time, kAdded), Key("timestamp", &E::timestamp), Key("values", &E::values));
};

template <>
struct JsonTable<NmDevice> {
  using D = NmDevice;
  static constexpr auto fields =
      std::make_tuple(Key("carrier", &D::carrier, kAdded), Key("connection", &D::connection), Key("device", &D::device),
                      Key("hwaddr", &D::hwaddr), Key("mtu", &D::mtu), Key("state", &D::state), Key("state_code", &D::state_code),
                      Key("type", &D::type));
};

template <>
struct JsonTable<IfcfgFile> {
  static constexpr auto fields = std::make_tuple(Key("bonding_opts", &IfcfgFile::bonding_opts), Key("values", &IfcfgFile::values),
                                                 Key("warnings", &IfcfgFile::warnings));
};

template <>
struct JsonTable<BinaryVpd> {
  using V = BinaryVpd;
  static constexpr auto fields =
      std::make_tuple(Key("checksum_ok", &V::checksum_ok), Key("checksum_sum", &V::checksum_sum), Key("has_end", &V::has_end),
                      Key("has_rv", &V::has_rv), Key("product_name", &V::product_name), Key("read_only", &V::read_only),
                      Key("read_write", &V::read_write), Key("warnings", &V::warnings));
};

template <>
struct JsonTable<LldpNeighbor> {
  using N = LldpNeighbor;
  static constexpr auto fields =
      std::make_tuple(Key("local_port", &N::local_port), Key("pvid", &N::pvid, kAdded), Key("remote_chassis", &N::remote_chassis),
                      Key("remote_device", &N::remote_device), Key("remote_port", &N::remote_port));
};

template <>
struct JsonTable<DriverPackage> {
  using D = DriverPackage;
  static constexpr auto fields = std::make_tuple(Key("acceptance", &D::acceptance), Key("install_date", &D::install_date),
                                                 Key("name", &D::name), Key("vendor", &D::vendor), Key("version", &D::version));
};

template <>
struct JsonTable<UsbTreeNode> {
  using U = UsbTreeNode;
  static constexpr auto fields =
      std::make_tuple(Key("bus", &U::bus), Key("class", &U::class_name), Key("dev", &U::dev), Key("driver", &U::driver),
                      Key("interface", &U::interface), Key("port_path", &U::port_path), Key("speed_mbps", &U::speed_mbps),
                      Key("usb_id", &U::usb_id));
};

template <>
struct JsonTable<SourceStatus> {
  static constexpr auto fields =
      std::make_tuple(Key("detail", &SourceStatus::detail), Key("name", &SourceStatus::name),
                      Key("present", &SourceStatus::present), Key("warnings", &SourceStatus::warnings));
};

template <>
struct JsonTable<SystemIdentity> {
  using S = SystemIdentity;
  static constexpr auto fields =
      std::make_tuple(Key("bios_date", &S::bios_date), Key("bios_vendor", &S::bios_vendor), Key("bios_version", &S::bios_version),
                      Key("board", &S::board), Key("from", &S::from), Key("line", &S::line, kAdded), Key("product", &S::product),
                      Key("vendor", &S::vendor), Key("vendor_product", &S::vendor_product));
};

template <>
struct JsonTable<OsRelease> {
  static constexpr auto fields =
      std::make_tuple(Key("id", &OsRelease::id), Key("line", &OsRelease::line, kAdded),
                      Key("pretty_name", &OsRelease::pretty_name), Key("version_id", &OsRelease::version_id));
};

namespace {

// The document's "host" object: the host-wide facts of HostFacts.
struct HostSection {
  using H = HostFacts;
  static constexpr auto fields =
      std::make_tuple(Key("has_nvidia_nic", &H::has_nvidia_nic, kAdded), Key("hostname", &H::hostname), Key("kernel", &H::kernel),
                      Key("kernel_cmdline", &H::kernel_cmdline), Key("kernel_params", &H::kernel_params), Key("ofed", &H::ofed),
                      Key("os", &H::os, kAdded), Key("platform", &H::platform, kAdded), Key("system", &H::system, kAdded));
};

// The schema id: written as kFactsSchema, and a document naming any other is refused.
struct SchemaCodec {
  static nlohmann::json Write(const HostFacts&) { return kFactsSchema; }
  static void Read(simdjson::dom::element e, HostFacts&) {
    std::string_view schema;
    if (e.get(schema) || schema != kFactsSchema) throw JsonFieldError("", "not a HostFacts document");
  }
};

struct HostFactsDocument {
  using H = HostFacts;
  static constexpr auto self = [](auto& f) -> auto& { return f; };
  static constexpr auto fields = std::make_tuple(
      Key("bonds", &H::bonds), Key("devlink", &H::devlink, kAdded), Key("firmware", &H::firmware),
      Key("firmware_images", &H::firmware_images), KeyWith<JsonTableCodec<HostFacts, HostSection>>("host", self),
      Key("ifcfg", &H::ifcfg), Key("kernel_events", &H::kernel_events), Key("kernel_log_lines", &H::kernel_log_lines, kAdded),
      Key("links", &H::links), Key("lldp", &H::lldp, kAdded), Key("mst", &H::mst), Key("netdevs", &H::netdevs),
      Key("netplan", &H::netplan), Key("networkmanager", &H::networkmanager), Key("other_pci", &H::other_pci, kAdded),
      Key("packages", &H::packages, kAdded), Key("pci", &H::pci), Key("rdma", &H::rdma), KeyWith<SchemaCodec>("schema", self),
      Key("sources", &H::sources), Key("usb", &H::usb, kAdded), Key("vpd", &H::vpd));
};

using HostFactsCodec = JsonTableCodec<HostFacts, HostFactsDocument>;

}  // namespace

nlohmann::json ToJson(const HostFacts& f) { return HostFactsCodec::Write(f); }

namespace {

HostFacts FactsFromElement(simdjson::dom::element document) {
  HostFacts f;
  simdjson::dom::object o;
  std::string_view schema;
  if (document.get(o) || o["schema"].get(schema) || schema != kFactsSchema) {
    throw FactsDocumentError(FactsDocumentError::Kind::kOtherSchema,
                             fmt::format("not a HostFacts document: expected \"schema\": \"{}\"", kFactsSchema),
                             std::string(schema));
  }
  try {
    HostFactsCodec::Read(document, f);
  } catch (const JsonFieldError& e) {
    // "bad "netdevs" section: netdevs[3].mtu: expected an unsigned integer"
    const std::string& path = e.path();
    throw FactsDocumentError(
        FactsDocumentError::Kind::kBadField,
        fmt::format("HostFacts: bad \"{}\" section: {}", path.substr(0, path.find_first_of(".[")), e.what()));
  }
  for (auto& [device, port] : f.links) port.device = device;
  return f;
}

}  // namespace

static_assert(kFactsJsonPadding >= simdjson::SIMDJSON_PADDING);

HostFacts FactsFromPaddedJsonText(std::string_view text) {
  // One parser per thread, reused across the lines of an NDJSON file.
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element document;
  if (auto error = parser.parse(text.data(), text.size(), false).get(document)) {
    throw FactsDocumentError(FactsDocumentError::Kind::kNotJson, fmt::format("not JSON: {}", simdjson::error_message(error)));
  }
  return FactsFromElement(document);
}

HostFacts FactsFromJsonText(std::string_view text) {
  // Copied into a per-thread buffer with simdjson's padding after it, reused across lines.
  thread_local std::string buffer;
  buffer.reserve(text.size() + kFactsJsonPadding);
  buffer.assign(text.data(), text.size());
  return FactsFromPaddedJsonText(buffer);
}

HostFacts FactsFromJson(const nlohmann::json& j) {
  return FactsFromJsonText(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace railyard
