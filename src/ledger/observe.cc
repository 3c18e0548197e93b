#include "ledger/observe.h"
#include "util/file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/catalog.h"
#include "catalog/identity.h"
#include "facts/collect.h"
#include "facts/facts_files.h"
#include "model/pci_address.h"
#include "parse/flint.h"
#include "parse/lspci.h"
#include "parse/mellanox_tools.h"
#include "parse/module.h"
#include "parse/vpd.h"
#include "util/content_hash.h"
#include "util/csv.h"
#include "util/input_error.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/version.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const std::string& path) {
  std::optional<std::string> text = ReadFileIfReadable(path);
  if (!text) throw InputError(fmt::format("{}: cannot read", path));
  return std::move(*text);
}

// A value as the ledger keeps it: without surrounding blanks (util/text.h).
std::string Trim(std::string_view s) { return std::string(TrimSpace(s)); }

void Put(AssetObservation& o, const std::string& field, const std::string& value) {
  std::string v = Trim(value);
  if (!v.empty()) o.fields[field] = v;
}

// The OPN of a card from its VPD: PN on NVIDIA-branded cards; on OEM cards (Lenovo, HPE ...) the NVIDIA
// model in VA's MODL, with the OEM and its FRU number kept beside it (oem.vendor, oem.part_number).
void PutCardIdentity(AssetObservation& o, const std::map<std::string, std::string>& vpd) {
  VpdIdentity id = IdentityOf(vpd);
  if (id.oem.empty()) {
    Put(o, "opn", id.part);
    return;
  }
  Put(o, "oem.vendor", id.oem);
  Put(o, "oem.part_number", id.part);
  Put(o, "opn", id.model.empty() ? id.part : id.model);
}

// The kind an OPN names: MCX/MBF/900- adapters, MCP/MCA/MFA/MFS/MFP cables, MMA/MMS optics.
std::string KindOfOpn(std::string_view opn) {
  if (opn.starts_with("MCP") || opn.starts_with("MCA") || opn.starts_with("MFA") || opn.starts_with("MFS") ||
      opn.starts_with("MFP")) {
    return "cable";
  }
  if (opn.starts_with("MMA") || opn.starts_with("MMS")) return "transceiver";
  if (opn.starts_with("MQM") || opn.starts_with("MSN") || opn.starts_with("SN")) return "switch";
  return "nic";
}

void AddFirmware(AssetObservation& o, const FirmwareQuery& q) {
  Put(o, "fw.version", q.fw_version);                  // the image burned in flash
  Put(o, "fw.running_version", q.running_fw_version);  // only shown while a reset is pending
  Put(o, "fw.psid", q.psid);
  Put(o, "fw.orig_psid", q.orig_psid);
  Put(o, "fw.base_guid", q.base_guid);
  Put(o, "fw.orig_base_guid", q.orig_base_guid);
  Put(o, "fw.base_mac", q.base_mac);
  Put(o, "fw.orig_base_mac", q.orig_base_mac);
  Put(o, "fw.security", q.security_attributes);
  Put(o, "fw.part_number", q.part_number);
  Put(o, "fw.image_type", q.image_type);
}

void AddFwManager(AssetObservation& o, const FwManagerDevice& d) {
  Put(o, "fw.psid", d.psid);
  Put(o, "fw.part_number", d.part_number);
  Put(o, "fw.base_guid", d.base_guid);
  Put(o, "fw.base_mac", d.base_mac);
  if (auto fw = d.versions.find("FW"); fw != d.versions.end()) {
    Put(o, "fw.version", fw->second.current);
    Put(o, "fw.available", fw->second.available);
  }
  if (RunningFirmware(d) != FlashedFirmware(d)) Put(o, "fw.running_version", RunningFirmware(d));
  Put(o, "fw.status", d.status);
}

void AddModule(std::vector<AssetObservation>& out, const ModuleInfo& m, const std::string& location) {
  std::string serial = Trim(m.vendor_sn);
  if (!m.readable || serial.empty()) return;
  AssetObservation o;
  o.serial = serial;
  bool copper =
      m.transmitter_technology.find("opper") != std::string::npos || m.connector.find("No separable") != std::string::npos;
  o.kind = copper ? "cable" : "transceiver";
  Put(o, "opn", m.vendor_pn);
  Put(o, "module.vendor", m.vendor_name);
  Put(o, "module.vendor_oui", m.vendor_oui);
  Put(o, "module.vendor_rev", m.vendor_rev);
  Put(o, "module.date_code", m.date_code);
  Put(o, "module.identifier", m.identifier);
  if (m.cable_length_m) Put(o, "module.length_m", fmt::format("{:g}", *m.cable_length_m));
  if (m.temperature_c) Put(o, "measured.temperature_c", fmt::format("{:.1f}", *m.temperature_c));
  if (!location.empty() && location.front() != ' ') Put(o, "location", location);
  out.push_back(std::move(o));
}

// A ledger CSV: the header may only name `columns` and must name `required`; errors name the
// file, the line and the column.
CsvTable ReadLedgerCsv(const std::string& text, const std::string& path, const std::vector<std::string>& columns,
                       const std::vector<std::string>& required, const char* what) {
  CsvTable t;
  t = ParseCsv(text, path);
  for (const std::string& h : t.header) {
    if (std::find(columns.begin(), columns.end(), h) == columns.end()) {
      std::string hint = ClosestMatch(h, columns);
      throw InputError(
          fmt::format("{}:1: {}: unknown column{}", path, h, hint.empty() ? "" : fmt::format(" (did you mean {}?)", hint)));
    }
  }
  for (const std::string& r : required) {
    if (t.Column(r) < 0) throw InputError(fmt::format("{}:1: {} needs the columns {}", path, what, fmt::join(required, " and ")));
  }
  return t;
}

}  // namespace

std::vector<AssetObservation> ObservationsFromReceivingCsv(const std::string& text, const std::string& path,
                                                           const ImportOptions& options) {
  CsvTable t = ReadLedgerCsv(text, path, {"serial", "opn", "kind", "batch", "po", "location", "note"}, {"serial", "opn"},
                             "a receiving list");
  const Catalog& catalog = Catalog::Builtin();
  std::vector<AssetObservation> out;
  for (const CsvRow& r : t.rows) {
    auto col = [&](const char* name) {
      int i = t.Column(name);
      return i < 0 ? std::string() : Trim(r.fields[static_cast<size_t>(i)]);
    };
    AssetObservation o;
    o.line = r.line;
    o.serial = col("serial");
    if (o.serial.empty()) throw InputError(fmt::format("{}:{}: serial: empty", path, r.line));
    std::string opn = col("opn");
    if (opn.empty()) throw InputError(fmt::format("{}:{}: opn: empty", path, r.line));
    if (!options.allow_unknown_opn && !catalog.FindNic(opn) && !catalog.FindCable(opn) && !catalog.FindSwitch(opn)) {
      std::vector<std::string> known;
      for (const NicModel& n : catalog.nics()) known.push_back(n.opn);
      for (const CableItem& c : catalog.cables()) known.push_back(c.opn);
      std::string hint = ClosestMatch(opn, known);
      throw InputError(fmt::format("{}:{}: opn: {} is not in railyard's catalog{} (--allow-unknown-opn accepts it)", path, r.line,
                                   opn, hint.empty() ? "" : fmt::format("; did you mean {}?", hint)));
    }
    o.kind = col("kind").empty() ? KindOfOpn(opn) : col("kind");
    if (o.kind != "nic" && o.kind != "cable" && o.kind != "transceiver" && o.kind != "switch") {
      throw InputError(fmt::format("{}:{}: kind: '{}' is not nic, cable, transceiver or switch", path, r.line, o.kind));
    }
    Put(o, "opn", opn);
    Put(o, "batch", col("batch").empty() ? options.batch : col("batch"));
    Put(o, "po", col("po"));
    Put(o, "location", col("location"));
    Put(o, "note", col("note"));
    o.fields["state"] = "received";
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<AssetObservation> ObservationsFromLabelAudit(const std::string& text, const std::string& path,
                                                         const LedgerStore& ledger) {
  CsvTable t = ReadLedgerCsv(text, path, {"serial", "label", "device", "port", "note"}, {"serial", "label"}, "a label audit");
  std::vector<AssetObservation> out;
  for (const CsvRow& r : t.rows) {
    auto col = [&](const char* name) {
      int i = t.Column(name);
      return i < 0 ? std::string() : Trim(r.fields[static_cast<size_t>(i)]);
    };
    AssetObservation o;
    o.line = r.line;
    o.serial = col("serial");
    if (o.serial.empty()) throw InputError(fmt::format("{}:{}: serial: empty", path, r.line));
    std::optional<Asset> known = ledger.Get(o.serial);
    if (!known)
      throw InputError(
          fmt::format("{}:{}: serial: {} is not in the ledger: import its receiving list first", path, r.line, o.serial));
    o.kind = known->kind;
    if (col("label").empty()) throw InputError(fmt::format("{}:{}: label: empty", path, r.line));
    Put(o, "label", col("label"));
    Put(o, "label.device", col("device"));
    Put(o, "label.port", col("port"));
    Put(o, "label.note", col("note"));
    out.push_back(std::move(o));
  }
  return out;
}

namespace {

std::vector<AssetObservation> FromLspci(const std::string& text, const std::string& host) {
  HostFacts f;
  f.hostname = host;
  f.pci = ParseLspci(text).functions;
  return ObservationsFromFacts(f);
}

// Cards by firmware identity (base GUID and base MAC, as hex digits) -> serial: flint and
// mlxfwmanager outputs name no serial, so they attach to the card the ledger knows by these.
std::map<std::string, std::string> SerialsByFirmwareIdentity(const LedgerStore& ledger) {
  std::map<std::string, std::string> out;
  ledger.ForEachAsset([&](const Asset& a) {
    for (const char* f : {"fw.base_guid", "fw.base_mac"}) {
      if (auto it = a.fields.find(f); it != a.fields.end() && !HexDigits(it->second).empty())
        out.emplace(HexDigits(it->second), a.serial);
    }
  });
  return out;
}

std::string SerialOf(const std::map<std::string, std::string>& by_identity, const std::string& guid, const std::string& mac) {
  for (const std::string& id : {guid, mac}) {
    if (auto it = by_identity.find(HexDigits(id)); !id.empty() && it != by_identity.end()) return it->second;
  }
  return "";
}

std::vector<AssetObservation> FromFlint(const std::string& text, const std::string& path, const LedgerStore& ledger) {
  FirmwareQuery q = ParseFlintQuery(text);
  if (q.base_guid.empty() && q.base_mac.empty())
    throw InputError(fmt::format("{}: no Base GUID or Base MAC: not a flint query?", path));
  std::string serial = SerialOf(SerialsByFirmwareIdentity(ledger), q.base_guid, q.base_mac);
  if (serial.empty()) {
    throw InputError(
        fmt::format("{}: no card in the ledger has base GUID {} / MAC {}: import the host's facts (or lspci VPD) "
                    "first, so the serial is known",
                    path, q.base_guid, q.base_mac));
  }
  AssetObservation o;
  o.serial = serial;
  o.kind = "nic";
  AddFirmware(o, q);
  return {o};
}

// mlxfwmanager/mlxup queries name no serial either: each device attaches by base GUID or MAC.
std::vector<AssetObservation> FromFwManager(const std::string& text, const std::string& path, const LedgerStore& ledger) {
  FwManagerReport report = ParseMlxfwmanager(text);
  if (report.devices.empty()) throw InputError(fmt::format("{}: no device in this mlxfwmanager/mlxup output", path));
  const std::map<std::string, std::string> by_identity = SerialsByFirmwareIdentity(ledger);
  std::vector<AssetObservation> out;
  for (const FwManagerDevice& d : report.devices) {
    std::string serial = SerialOf(by_identity, d.base_guid, d.base_mac);
    if (serial.empty()) {
      throw InputError(
          fmt::format("{}: {} ({}, base MAC {}): no card in the ledger has this GUID or MAC: import the host's facts "
                      "(or lspci VPD and flint q) first",
                      path, d.pci_device_name, d.part_number, d.base_mac));
    }
    AssetObservation o;
    o.serial = serial;
    o.kind = "nic";
    AddFwManager(o, d);
    out.push_back(std::move(o));
  }
  return out;
}

// Facts of many hosts, one observation at a time (ForEachFacts reads a line or a file at a time).
std::function<void(const ObservationSink&)> FactsProducer(const std::string& path) {
  return [path](const ObservationSink& sink) {
    ForEachFacts({path}, [&](HostFacts&& f) {
      for (const AssetObservation& o : ObservationsFromFacts(f)) sink(o);
    });
  };
}

// The same, a document (a line of NDJSON) at a time, each with the digest of its bytes; a document
// whose digest the importer knows is not parsed unless the importer asks after all.
std::function<void(const KnownDigest&, const DocumentSink&)> FactsDocumentProducer(const std::string& path) {
  return [path](const KnownDigest& known, const DocumentSink& sink) {
    ForEachFactsDocument(path, known, [&](FactsDocument&& d) {
      StreamDocument document;
      document.line = d.line;
      document.digest = d.digest;
      if (d.facts) {
        document.observations = ObservationsFromFacts(*d.facts);
      } else {
        document.known = true;
        document.read_again = [text = std::move(d.text)] { return ObservationsFromFacts(FactsFromJsonText(text)); };
      }
      sink(std::move(document));
    });
  };
}

// mstvpd / mlxvpd: "ID:      <product>" and "SN:      <serial>" lines.
bool LooksLikeMstvpd(std::string_view text) {
  return (text.starts_with("ID:") || text.find("\nID:") != std::string_view::npos) &&
         text.find("\nSN:") != std::string_view::npos;
}

std::vector<AssetObservation> FromMstvpd(const std::string& text, const std::string& path) {
  BinaryVpd v = ParseMstvpd(text);
  auto sn = v.read_only.find("SN");
  if (sn == v.read_only.end() || Trim(sn->second).empty()) {
    throw InputError(fmt::format("{}: this mstvpd output has no SN keyword: the card cannot be named", path));
  }
  AssetObservation o;
  o.serial = Trim(sn->second);
  o.kind = "nic";
  o.line = 1;
  PutCardIdentity(o, v.read_only);
  for (const auto& [k, val] : v.read_only) Put(o, "vpd." + k, val);
  Put(o, "vpd.product_name", v.product_name);
  return {o};
}

bool LooksLikeLspci(std::string_view text) {
  return text.find("LnkCap") != std::string_view::npos || text.find("Vital Product Data") != std::string_view::npos ||
         text.find("[SN] Serial number") != std::string_view::npos;
}

}  // namespace

namespace {
// A document's fingerprint: the 64-bit content hash of its bytes (util/content_hash.h, several GB/s;
// the FNV-1a it replaced ran at a byte a step and cost more than a whole re-import) and its size.
// Ledgers whose imports were fingerprinted with FNV ("fnv1a64:") read such a file once more, and find
// nothing changed.
struct Fingerprinter {
  ContentHash hash;
  void Add(std::string_view bytes) { hash.Update(bytes); }
  std::string Text() const { return fmt::format("h64:{:016x}:{}", hash.Digest(), hash.size()); }
};

// A file's fingerprint, read in 1 MiB pieces: a 160 MB NDJSON is never held whole.
std::string FileFingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read", path));
  Fingerprinter f;
  std::string buf(1 << 20, '\0');
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
    f.Add(std::string_view(buf.data(), static_cast<size_t>(in.gcount())));
  }
  return f.Text();
}
// A directory's fingerprint: its files' names and fingerprints, in name order.
std::string DirectoryFingerprint(const std::string& path) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(path)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  Fingerprinter f;
  for (const fs::path& p : files) {
    f.Add(p.filename().string());
    f.Add(FileFingerprint(p.string()));
  }
  return f.Text();
}
}  // namespace

std::string Fingerprint(std::string_view bytes) {
  Fingerprinter f;
  f.Add(bytes);
  return f.Text();
}

std::vector<AssetObservation> ObservationsFromFacts(const HostFacts& f) {
  std::vector<AssetObservation> out;
  std::set<std::string> cards;
  for (const PciFunction& p : f.pci) {
    // Every function of a card carries the card's VPD: the first one with a serial speaks for it.
    std::map<std::string, std::string> vpd = p.vpd;
    std::string checksum = p.vpd_checksum == PciFunction::VpdChecksum::kGood  ? "good"
                           : p.vpd_checksum == PciFunction::VpdChecksum::kBad ? "bad"
                                                                              : "";
    std::string product = p.vpd_product_name;
    for (const auto& [bdf, v] : f.vpd) {
      if (!SamePciAddress(bdf, p.bdf)) continue;
      for (const auto& [k, val] : v.read_only) vpd.emplace(k, val);
      if (v.has_rv) checksum = v.checksum_ok ? "good" : "bad";
      if (product.empty()) product = v.product_name;
    }
    auto sn = vpd.find("SN");
    if (sn == vpd.end() || Trim(sn->second).empty() || !cards.insert(Trim(sn->second)).second) continue;
    AssetObservation o;
    o.serial = Trim(sn->second);
    o.kind = "nic";
    o.line = p.line;
    PutCardIdentity(o, vpd);
    for (const auto& [k, val] : vpd) Put(o, "vpd." + k, val);
    Put(o, "vpd.checksum", checksum);
    Put(o, "vpd.product_name", product);
    Put(o, "pci.device_id", p.device_id);
    Put(o, "pci.description", p.description);
    Put(o, "pci.subsystem", p.subsystem);
    if (p.cap.width) Put(o, "pci.link_capability", fmt::format("{:g}GT/s x{}", p.cap.speed_gts, p.cap.width));
    if (p.sta.width) Put(o, "measured.pci_link_status", fmt::format("{:g}GT/s x{}", p.sta.speed_gts, p.sta.width));
    if (!f.hostname.empty()) Put(o, "location", f.hostname + " " + p.bdf);  // a bare lspci names no host
    // The server it sits in, for the compatibility matrix (acceptance policy `compatibility:`).
    Put(o, "server.vendor", f.system.vendor);
    Put(o, "server.product", f.system.product.empty() ? f.system.vendor_product : f.system.product);
    Put(o, "server.bios", f.system.bios_version);
    if (!f.os.empty()) Put(o, "host.os", f.os.id + " " + f.os.version_id);
    Put(o, "host.kernel", f.kernel);
    Put(o, "host.ofed", f.ofed);
    for (const auto& [bdf, q] : f.firmware) {
      if (SamePciAddress(bdf, p.bdf)) AddFirmware(o, q);
    }
    // mlxfwmanager/mlxup name a card by PCI address or by its /dev/mst path (mst status maps those).
    for (const FwManagerDevice& d : f.firmware_images) {
      bool same = SamePciAddress(d.pci_device_name, p.bdf);
      for (const MstDevice& m : f.mst) same = same || (m.mst_path == d.pci_device_name && SamePciAddress(m.pci_address, p.bdf));
      if (!same) continue;
      AssetObservation fw;
      AddFwManager(fw, d);
      for (auto& [k, v] : fw.fields) o.fields.emplace(k, v);  // flint's view wins where both speak
    }
    // The card's ports as mlxlink saw them: the speed they run at, and the fastest both the port
    // and its cable allow (acceptance wants them equal).
    for (const RdmaFacts& r : f.rdma) {
      auto l = f.links.find(r.ca.name);
      if (!SamePciAddress(r.pci_bdf, p.bdf) || l == f.links.end() || l->second.state != "Active") continue;
      std::string speed = l->second.speed;
      if (speed.starts_with("IB-")) speed = speed.substr(3);
      Put(o, "measured.link." + r.ca.name, speed);
      Put(o, "capable.link." + r.ca.name, MlxlinkSpeedHeadroom(l->second).best_name);
    }
    for (const NetdevFacts& n : f.netdevs) {
      if (!SamePciAddress(n.pci_bdf, p.bdf)) continue;
      // ethtool -i shows the running firmware: the flashed one where no flash tool spoke, else the running one
      // when it differs from flash (a reset pending).
      std::string running = n.firmware_version.substr(0, n.firmware_version.find(' '));
      if (!o.fields.count("fw.version"))
        Put(o, "fw.version", running);
      else if (!running.empty() && running != o.fields["fw.version"] && !o.fields.count("fw.running_version"))
        Put(o, "fw.running_version", running);
      if (!o.fields.count("fw.psid")) Put(o, "fw.psid", n.firmware_psid);
      Put(o, "mac", n.mac);
    }
    out.push_back(std::move(o));
  }
  for (const NetdevFacts& n : f.netdevs) {
    if (n.module) AddModule(out, *n.module, f.hostname + " " + n.name);
  }
  for (const auto& [device, l] : f.links) {
    std::string serial = Trim(l.module_serial);
    if (serial.empty()) continue;
    AssetObservation o;
    o.serial = serial;
    // A module is never a NIC. mlxlink's cable type says what it is (a DAC, ACC or AOC is a cable; an "Optical
    // Module" a transceiver) whatever its part number; the OPN decides where the type is not printed.
    const std::string& type = l.cable_type;
    bool cable = type.find("copper") != std::string::npos || type.find("Active optical cable") != std::string::npos ||
                 type.find("AOC") != std::string::npos;
    bool optic = type.find("Optical Module") != std::string::npos || type.find("transceiver") != std::string::npos;
    o.kind = cable ? "cable" : optic ? "transceiver" : KindOfOpn(l.module_part_number) == "cable" ? "cable" : "transceiver";
    Put(o, "opn", l.module_part_number);
    Put(o, "module.vendor", l.module_vendor);
    Put(o, "module.vendor_oui", l.module_oui);
    Put(o, "module.cable_type", l.cable_type);
    Put(o, "module.length", l.cable_length);
    if (l.effective_ber) Put(o, "measured.effective_ber", fmt::format("{:.1e}", *l.effective_ber));
    if (l.raw_ber) Put(o, "measured.raw_ber", fmt::format("{:.1e}", *l.raw_ber));
    if (l.module_temperature_c) Put(o, "measured.temperature_c", fmt::format("{:.1f}", *l.module_temperature_c));
    Put(o, "measured.speed", l.speed);
    // mlxlink -c: the BER counters' window ("Time Since Last Clear [Min]", catalog.md §9).
    if (auto it = l.fields.find("Time Since Last Clear [Min]"); it != l.fields.end())
      Put(o, "measured.ber_window_min", it->second);
    Put(o, "location", f.hostname + " " + device);
    out.push_back(std::move(o));
  }
  // Two views of one module (ethtool -m and mlxlink) merge into one observation.
  std::map<std::string, size_t> first;
  std::vector<AssetObservation> merged;
  for (AssetObservation& o : out) {
    auto [it, fresh] = first.emplace(o.serial, merged.size());
    if (fresh) {
      merged.push_back(std::move(o));
    } else {
      for (auto& [k, v] : o.fields) merged[it->second].fields.emplace(k, v);
    }
  }
  return merged;
}

ImportStream OpenImport(const std::string& path, const ImportOptions& options, const LedgerStore& ledger) {
  ImportStream doc;
  doc.source = path;
  std::string format = options.format;
  // A directory is a capture (collect --from's layout) unless it holds only facts documents.
  bool facts_dir = false;
  if (fs::is_directory(path) && format.empty()) {
    bool capture = false, json = false;
    for (const auto& e : fs::directory_iterator(path)) {
      std::string name = e.path().filename().string();
      json = json || name.ends_with(".json") || name.ends_with(".ndjson");
      capture =
          capture || name == "hostname.txt" || name == "lspci-vvv.txt" || name.starts_with("flint-q-") || name == "ip-d-link.txt";
    }
    facts_dir = json && !capture;
  }
  std::vector<AssetObservation> observations;  // the small documents, read now
  // The fingerprint is the content read in a given way: the same file read as another format (--as) or
  // stamped with another batch is another import.
  const std::string how = fmt::format("|as={}|batch={}", options.format, options.batch);
  if (fs::is_directory(path)) {
    if (format.empty()) format = facts_dir ? "facts" : "capture";
    doc.fingerprint = DirectoryFingerprint(path) + how;
  } else {
    doc.fingerprint = FileFingerprint(path) + how;
    if (format.empty() && (path.ends_with(".json") || path.ends_with(".ndjson"))) format = "facts";
  }
  doc.already_imported = ledger.ImportedBefore(doc.fingerprint);
  if (!doc.already_imported.empty()) {
    doc.format = format.empty() ? "document" : format;
    doc.produce = [](const ObservationSink&) {};
    return doc;
  }
  if (format == "facts") {
    doc.repeats_are_conflicts = false;  // many hosts: a serial twice is a finding, not an input error
    doc.produce = FactsProducer(path);
    if (fs::is_regular_file(path)) {
      // A file of many hosts' facts is read in proportion to what changed since the last import of it.
      doc.produce_documents = FactsDocumentProducer(path);
      doc.reader = "facts " + VersionLine();
    }
  } else if (format == "capture") {
    if (!fs::is_directory(path)) throw InputError(fmt::format("{}: a capture is a directory", path));
    HostFacts facts = BuildHostFacts(ReadCaptureDir(path));
    observations = ObservationsFromFacts(facts);
    // A flint query of a card this capture's lspci does not show (no lspci, or no VPD): attach it by the
    // card's firmware identity or by where the ledger last saw a card (host and PCI address).
    std::map<std::string, std::string> by_identity, by_location;
    for (const auto& [bdf, q] : facts.firmware) {
      bool covered = false;
      for (const PciFunction& p : facts.pci) covered |= SamePciAddress(p.bdf, bdf) && p.vpd.count("SN");
      for (const auto& [vbdf, v] : facts.vpd) covered |= SamePciAddress(vbdf, bdf) && v.read_only.count("SN");
      if (covered) continue;
      if (by_identity.empty() && by_location.empty()) {
        by_identity = SerialsByFirmwareIdentity(ledger);
        ledger.ForEachAsset([&](const Asset& a) {
          if (auto l = a.fields.find("location"); l != a.fields.end()) by_location.emplace(l->second, a.serial);
        });
      }
      std::string serial = SerialOf(by_identity, q.base_guid, q.base_mac);
      for (const auto& [where, s] : by_location) {
        if (!serial.empty()) break;
        size_t space = where.rfind(' ');
        if (space != std::string::npos && where.substr(0, space) == facts.hostname &&
            SamePciAddress(where.substr(space + 1), bdf))
          serial = s;
      }
      if (serial.empty()) {
        throw InputError(
            fmt::format("{}: flint-q-{}: this capture has no lspci VPD for the card at {} (so no serial), and no card in "
                        "the ledger has its base GUID {} / MAC {} or was seen at {} {}: add lspci-vvv.txt (run as root, "
                        "VPD needs it) or import the card first",
                        path, bdf, bdf, q.base_guid, q.base_mac, facts.hostname.empty() ? "?" : facts.hostname, bdf));
      }
      AssetObservation o;
      o.serial = serial;
      o.kind = "nic";
      AddFirmware(o, q);
      observations.push_back(std::move(o));
    }
  } else {
    std::string text = ReadFile(path);
    if (format.empty()) {
      // A CSV with a label column and no OPN is a scanned label audit; otherwise a receiving list.
      std::string header = text.substr(0, text.find('\n'));
      if (path.ends_with(".csv") && header.find("label") != std::string::npos && header.find("opn") == std::string::npos)
        format = "label-audit";
      else if (path.ends_with(".csv"))
        format = "receiving-csv";
      else if (text.find("PCI Device Name") != std::string::npos || text.find("<Devices>") != std::string::npos)
        format = "mlxfwmanager";
      else if (text.find("PSID:") != std::string::npos && text.find("FW Version") != std::string::npos)
        format = "flint";
      else if (text.find("Vendor SN") != std::string::npos || text.find("Vendor name") != std::string::npos)
        format = "ethtool-m";
      else if (LooksLikeLspci(text))
        format = "lspci";
      else if (LooksLikeMstvpd(text))
        format = "mstvpd";
      else
        throw InputError(
            fmt::format("{}: cannot tell what this document is: give --as "
                        "receiving-csv|label-audit|facts|capture|lspci|flint|mlxfwmanager|ethtool-m|mstvpd",
                        path));
    }
    if (format == "receiving-csv")
      observations = ObservationsFromReceivingCsv(text, path, options);
    else if (format == "label-audit")
      observations = ObservationsFromLabelAudit(text, path, ledger);
    else if (format == "lspci")
      observations = FromLspci(text, "");
    else if (format == "flint")
      observations = FromFlint(text, path, ledger);
    else if (format == "mlxfwmanager")
      observations = FromFwManager(text, path, ledger);
    else if (format == "ethtool-m")
      AddModule(observations, ParseEthtoolModule(text), "");
    else if (format == "mstvpd")
      observations = FromMstvpd(text, path);
    else
      throw InputError(fmt::format("{}: unknown format '{}'", path, format));
  }
  doc.format = format;
  if (!doc.produce) {
    doc.produce = [observations = std::move(observations)](const ObservationSink& sink) {
      for (const AssetObservation& o : observations) sink(o);
    };
  }
  if (!options.batch.empty()) {
    // Every asset of the document carries the batch given on the command line.
    doc.produce = [inner = std::move(doc.produce), batch = options.batch](const ObservationSink& sink) {
      inner([&](const AssetObservation& o) {
        AssetObservation with = o;
        with.fields.emplace("batch", batch);
        sink(with);
      });
    };
    if (doc.produce_documents) {
      doc.reader += "|batch=" + options.batch;
      doc.produce_documents = [inner = std::move(doc.produce_documents), batch = options.batch](const KnownDigest& known,
                                                                                                const DocumentSink& sink) {
        auto stamp = [batch](std::vector<AssetObservation> stamped) {
          for (AssetObservation& o : stamped) o.fields.emplace("batch", batch);
          return stamped;
        };
        inner(known, [&](StreamDocument&& document) {
          document.observations = stamp(std::move(document.observations));
          if (document.read_again)
            document.read_again = [again = std::move(document.read_again), stamp] { return stamp(again()); };
          sink(std::move(document));
        });
      };
    }
  }
  return doc;
}

ImportDocument ReadImportDocument(const std::string& path, const ImportOptions& options, const LedgerStore& ledger) {
  ImportStream stream = OpenImport(path, options, ledger);
  ImportDocument doc;
  doc.source = stream.source;
  doc.format = stream.format;
  doc.fingerprint = stream.fingerprint;
  doc.already_imported = stream.already_imported;
  doc.repeats_are_conflicts = stream.repeats_are_conflicts;
  stream.produce([&](const AssetObservation& o) { doc.observations.push_back(o); });
  return doc;
}

}  // namespace railyard
