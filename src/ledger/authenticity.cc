#include "ledger/authenticity.h"

#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include "model/schemas.h"

#include "catalog/catalog.h"
#include "catalog/identity.h"

namespace railyard {
namespace {

const AuthenticityRule* Rule(std::string_view id) {
  for (const AuthenticityRule& r : AuthenticityRules()) {
    if (id == r.id) return &r;
  }
  return nullptr;
}

using Evidence = std::vector<std::pair<std::string, std::string>>;

// A finding of rule `id`, at the rule's severity and confidence.
AuthenticityFinding MakeFinding(const char* id, std::string serial, std::string object, std::string message, std::string fix,
                                Evidence evidence) {
  const AuthenticityRule* r = Rule(id);
  AuthenticityFinding f;
  f.finding.rule = id;
  f.finding.severity = r->severity;
  f.finding.host = std::move(serial);
  f.finding.object = std::move(object);
  f.finding.message = std::move(message);
  f.finding.fix = std::move(fix);
  f.finding.evidence = std::move(evidence);
  f.confidence = r->confidence;
  return f;
}

class Checker {
 public:
  Checker(const Asset& a, std::vector<AuthenticityFinding>& out) : a_(a), out_(out) {}
  std::string Get(const std::string& field) const {
    auto it = a_.fields.find(field);
    return it == a_.fields.end() ? std::string() : it->second;
  }
  void Report(const char* id, std::string message, std::string fix, Evidence evidence) {
    out_.push_back(MakeFinding(id, a_.serial, fmt::format("{} {}", a_.kind, Get("opn").empty() ? "(no OPN)" : Get("opn")),
                               std::move(message), std::move(fix), std::move(evidence)));
  }

 private:
  const Asset& a_;
  std::vector<AuthenticityFinding>& out_;
};

// "MCX75310AAS-NEAT" -> "MCX75310AAS-NEA": firmware and VPD drop the OPN's last character and add "_Ax".
std::string FirmwarePartCore(const std::string& part) {
  size_t u = part.find('_');
  return u == std::string::npos ? part : part.substr(0, u);
}

void CheckNic(const Asset& a, Checker& c) {
  const IdentityCatalog& ids = IdentityCatalog::Builtin();
  const std::string opn = c.Get("opn"), psid = c.Get("fw.psid"), device = c.Get("pci.device_id"), fw = c.Get("fw.version");
  if (c.Get("vpd.checksum") == "bad") {
    c.Report("vpd-checksum-invalid", "the VPD's RV checksum does not sum to zero: the VPD was edited after manufacture",
             "quarantine the card; compare its VPD with the label and the supplier's records", {{"vpd.checksum", "bad"}});
  }
  std::vector<std::string> why;
  // An OEM card's PN, V2 and V0 are the OEM's own (Lenovo's FRU and CSKU, HPE's MFG code, a product name in V0):
  // they are not NVIDIA's fields and say nothing about consistency. Its identity is checked through MODL instead.
  const std::string oem = c.Get("oem.vendor");
  if (oem.empty() && !c.Get("vpd.V2").empty() && !c.Get("vpd.PN").empty() && c.Get("vpd.V2") != c.Get("vpd.PN")) {
    why.push_back(fmt::format("PN {} but V2 {}", c.Get("vpd.PN"), c.Get("vpd.V2")));
  }
  if (!c.Get("vpd.VU").empty() && !a.serial.empty() && !c.Get("vpd.VU").starts_with(a.serial)) {
    why.push_back(fmt::format("VU {} does not start with the serial {}", c.Get("vpd.VU"), a.serial));
  }
  // MODL (in VA) is the PN's core without the leading M ("CX75310AA" in "MCX75310AAS-NEAT"); a BF2
  // showed MODL BF2M526A on PN MBF2M516A-…, so only ConnectX (MCX) cards are held to it.
  const std::string va = c.Get("vpd.VA"), pn = c.Get("vpd.PN");
  if (size_t m = va.find("MODL="); m != std::string::npos && pn.starts_with("MCX") && oem.empty()) {
    std::string modl = va.substr(m + 5, va.find(':', m) == std::string::npos ? std::string::npos : va.find(':', m) - m - 5);
    while (!modl.empty() && modl.back() == ' ') modl.pop_back();
    if (!modl.empty() && !pn.substr(1).starts_with(modl))
      why.push_back(fmt::format("VA's MODL {} is not the core of PN {}", modl, pn));
  }
  // V0 ("PCIeGen5 x16") names the PCIe link the card is built for: LnkCap must say the same.
  const std::string v0 = c.Get("vpd.V0"), cap = c.Get("pci.link_capability");
  if (size_t g = v0.find("Gen"); g != std::string::npos && !cap.empty() && v0.starts_with("PCIe") && oem.empty()) {
    static const std::map<char, std::string> kRate = {{'3', "8GT/s"}, {'4', "16GT/s"}, {'5', "32GT/s"}, {'6', "64GT/s"}};
    std::string width = v0.substr(v0.rfind(' ') + 1);
    auto rate = g + 3 < v0.size() ? kRate.find(v0[g + 3]) : kRate.end();
    if (rate != kRate.end() && cap != rate->second + " " + width) {
      why.push_back(fmt::format("V0 says {} but the card's PCIe capability is {}", v0, cap));
    }
  }
  const std::string fw_part = c.Get("fw.part_number");
  if (!fw_part.empty() && opn.size() > 1 && FirmwarePartCore(fw_part) != opn.substr(0, opn.size() - 1)) {
    why.push_back(fmt::format("the firmware's part number {} is not the OPN {} (expected {}_Ax)", fw_part, opn,
                              opn.substr(0, opn.size() - 1)));
  }
  if (!why.empty()) {
    c.Report(
        "vpd-fields-inconsistent", fmt::format("the card's identity fields disagree: {}", fmt::join(why, "; ")),
        "a re-labelled or re-flashed card: check it against the supplier's records before accepting it",
        {{"vpd.PN", c.Get("vpd.PN")}, {"vpd.V2", c.Get("vpd.V2")}, {"vpd.VU", c.Get("vpd.VU")}, {"fw.part_number", fw_part}});
  }
  const Catalog& catalog = Catalog::Builtin();
  const NicModel* nic = nullptr;
  if (std::optional<uint16_t> i = opn.empty() ? std::nullopt : catalog.FindNic(opn)) nic = &catalog.nics()[*i];
  if (nic && !psid.empty()) {
    const NicModel& m = *nic;
    const PsidIssuer* issuer = ids.IssuerOf(psid);
    if (!m.psid.empty() && m.psid != psid && !(issuer && issuer->kind == "oem")) {
      c.Report("psid-not-for-opn",
               fmt::format("PSID {} is not {}'s ({}, catalog confidence {})", psid, opn, m.psid, m.psid_confidence),
               "the card runs another board's firmware: reflash with the image for its own PSID or reject it",
               {{"fw.psid", psid}, {"catalog_psid", m.psid}});
    }
  }
  if (!c.Get("fw.orig_psid").empty() && c.Get("fw.orig_psid") != psid) {
    c.Report("psid-changed",
             fmt::format("flint shows Orig PSID {}: the card was cross-flashed to {}", c.Get("fw.orig_psid"), psid),
             "a re-flashed card: NVIDIA will not support it; reject it or return it to its original firmware",
             {{"fw.psid", psid}, {"fw.orig_psid", c.Get("fw.orig_psid")}});
  }
  const PsidIssuer* issuer = psid.empty() ? nullptr : ids.IssuerOf(psid);
  std::string mac = c.Get("fw.base_mac").empty() ? c.Get("mac") : c.Get("fw.base_mac");
  const OuiOwner* owner = mac.empty() ? nullptr : ids.OwnerOf(mac);
  // lspci's Subsystem line names the board's maker: an OEM's name under a retail PSID is the same story.
  const std::string subsystem = c.Get("pci.subsystem");
  std::string oem_subsystem;
  for (const char* maker : {"Hewlett Packard Enterprise", "Hewlett-Packard", "Dell", "Lenovo", "IBM", "Cisco"}) {
    if (subsystem.starts_with(maker)) oem_subsystem = maker;
  }
  if (issuer && issuer->kind == "retail" && owner && owner->kind != "oem" && !oem_subsystem.empty()) {
    c.Report("cross-flashed-oem",
             fmt::format("retail PSID {} on a board whose PCI subsystem is {}'s: an OEM card cross-flashed to retail firmware",
                         psid, oem_subsystem),
             "reject it, or keep it as the OEM card it is with the OEM's firmware",
             {{"fw.psid", psid}, {"pci.subsystem", subsystem}});
  }
  if (issuer && issuer->kind == "retail" && owner && owner->kind == "oem") {
    c.Report("cross-flashed-oem",
             fmt::format("retail PSID {} on a card whose MAC {} belongs to {}: an OEM card cross-flashed to retail firmware",
                         psid, mac, owner->organisation),
             "reject it, or keep it as the OEM card it is with the OEM's firmware",
             {{"fw.psid", psid}, {"mac", mac}, {"oui_owner", owner->organisation}});
  }
  if (issuer && issuer->kind == "oem") {
    c.Report("oem-card",
             fmt::format("PSID {} is {}'s: an OEM card, whose firmware comes from {}", psid, issuer->vendor, issuer->vendor),
             "fine if ordered as OEM; its firmware baseline is the OEM's, not NVIDIA's", {{"fw.psid", psid}});
  } else if (!oem.empty()) {
    c.Report("oem-card",
             fmt::format("the VPD is {}'s (FRU {}{}): an OEM card", oem, c.Get("oem.part_number"),
                         opn != c.Get("oem.part_number") ? ", NVIDIA model " + opn : ""),
             "fine if ordered as OEM; its firmware and support come from the OEM",
             {{"oem.vendor", oem}, {"oem.part_number", c.Get("oem.part_number")}, {"vpd.VA", c.Get("vpd.VA")}});
  }
  if (const DeviceFamily* rec = device.empty() ? nullptr : ids.FamilyByRecoveryId(device)) {
    c.Report("no-valid-firmware",
             fmt::format("PCI device ID {} is {}'s Flash-Recovery identity: the card runs no firmware", device, rec->family),
             "burn the card's firmware (flint -d <dev> -i <image> burn); a card that stays in recovery is RMA",
             {{"pci.device_id", device}});
  } else {
    const DeviceFamily* by_id = device.empty() ? nullptr : ids.FamilyByDeviceId(device);
    std::optional<int> major = FirmwareMajor(fw);
    std::string opn_family = nic ? nic->family : "";
    std::vector<std::string> disagree;
    if (by_id && major && by_id->fw_major != *major)
      disagree.push_back(fmt::format("device {} is {} but firmware {} is major {}", device, by_id->family, fw, *major));
    if (by_id && !opn_family.empty() && ids.FamilyByName(opn_family) &&
        ids.FamilyByName(opn_family)->pci_device_id != by_id->pci_device_id) {
      disagree.push_back(fmt::format("device {} is {} but OPN {} is {}", device, by_id->family, opn, opn_family));
    }
    if (!disagree.empty()) {
      c.Report("device-family-mismatch",
               fmt::format("the card's identities name different families: {}", fmt::join(disagree, "; ")),
               "a relabelled card or foreign firmware: reject it", {{"pci.device_id", device}, {"fw.version", fw}, {"opn", opn}});
    }
  }
  // OPN letters after the digits: S or C = secure boot (catalog.md §3).
  size_t dash = opn.find('-');
  if (dash != std::string::npos && dash >= 2 && (opn[dash - 1] == 'S' || opn[dash - 1] == 'C') && opn.starts_with("MCX") &&
      opn.substr(0, 4) >= "MCX6" && !c.Get("fw.security").empty() &&
      c.Get("fw.security").find("secure-fw") == std::string::npos) {
    c.Report("secure-boot-expected",
             fmt::format("OPN {} is a secure-boot card but the firmware reports '{}'", opn, c.Get("fw.security")),
             "a secure-boot card without secure firmware was tampered with or is not the OPN it claims",
             {{"fw.security", c.Get("fw.security")}});
  }
  const std::string sec = c.Get("fw.security");
  if (sec.find("dev") != std::string::npos || sec.find("debug") != std::string::npos) {
    c.Report("debug-firmware",
             fmt::format("firmware security attributes '{}': development or debug firmware on a production card", sec),
             "reject it: engineering samples and debug images are not supported in production", {{"fw.security", sec}});
  }
  if (!a.serial.empty() && opn.starts_with("MCX") && oem.empty() && !(a.serial.size() == 12 && a.serial.starts_with("MT"))) {
    c.Report("serial-format-anomaly", fmt::format("serial {} is not NVIDIA's 'MT' + 10 characters", a.serial),
             "OEM cards carry OEM serials; a retail OPN with another format deserves a look at the label",
             {{"serial", a.serial}});
  }
  // V3: a version-1 UUID stored in little-endian GUID order whose node is the base MAC (catalog.md §6, M).
  std::string v3 = HexDigits(c.Get("vpd.V3")), base = HexDigits(c.Get("fw.base_mac"));
  if (v3.size() == 32 && base.size() == 12 && v3.substr(20) != base) {
    c.Report("vpd-uuid-mac-mismatch", fmt::format("the VPD UUID's node {} is not the base MAC {}", v3.substr(20), base),
             "edited VPD or a swapped flash: compare with the label",
             {{"vpd.V3", c.Get("vpd.V3")}, {"fw.base_mac", c.Get("fw.base_mac")}});
  }
}

void CheckModule(const Asset& a, Checker& c) {
  // An EEPROM that reads back control characters or 0xff bytes in its identity fields is corrupt
  // or counterfeit-coded (the ASCII fields of SFF-8472/8636/CMIS are printable, space-padded).
  for (const char* f : {"module.vendor", "opn", "module.vendor_rev"}) {
    const std::string v = c.Get(f);
    bool garbage = std::any_of(v.begin(), v.end(), [](char ch) {
      return static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f;
    });
    if (garbage || (std::string_view(f) == "module.vendor" && v.empty() && !c.Get("module.identifier").empty())) {
      c.Report("module-eeprom-garbage",
               fmt::format("the module EEPROM's {} is {}: corrupt or non-compliant EEPROM", f,
                           v.empty() ? "empty" : "not printable text"),
               "reseat and read again (ethtool -m); a module whose EEPROM stays unreadable is rejected",
               {{f, v}, {"serial", a.serial}});
      return;  // the identity fields cannot be compared with anything
    }
  }
  const std::string vendor = c.Get("module.vendor"), oui = c.Get("module.vendor_oui"), pn = c.Get("opn");
  const OuiOwner* owner = oui.empty() ? nullptr : IdentityCatalog::Builtin().OwnerOf(oui);
  // ethtool -m prints the OUI in hex ("00:02:c9"); mlxlink names its owner ("Nvidia", "Mellanox", "Other").
  bool nvidia_oui = (owner && (owner->kind == "mellanox" || owner->kind == "nvidia")) || oui == "Nvidia" || oui == "NVIDIA" ||
                    oui == "Mellanox";
  bool nvidia_name = vendor.starts_with("NVIDIA") || vendor.starts_with("Mellanox");
  bool nvidia_pn = pn.starts_with("M") || pn.starts_with("980-") || pn.starts_with("930-");
  if (nvidia_oui && (!nvidia_name || !nvidia_pn)) {
    c.Report("module-vendor-inconsistent",
             fmt::format("the EEPROM's OUI {} is NVIDIA's but the vendor name is '{}' and the part number '{}'", oui, vendor, pn),
             "a third-party module coded as NVIDIA: reject it or treat it as third-party",
             {{"vendor_oui", oui}, {"vendor", vendor}, {"part_number", pn}});
  }
  // LinkX length codes: -N001 = 1 m, -N01A = 1.5 m, -V003E = 3 m (catalog.md §8).
  double coded = 0;
  if (size_t d = pn.rfind('-'); d != std::string::npos && pn.size() >= d + 5) {
    const std::string code = pn.substr(d + 2, 3);  // after the speed letter: "003" = 3 m, "01A" = 1.5 m
    auto digit = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; };
    if (digit(code[0]) && digit(code[1]) && (digit(code[2]) || code[2] == 'A')) {
      coded = code[2] == 'A' ? (code[0] - '0') * 10 + (code[1] - '0') + 0.5 : std::atoi(code.c_str());
    }
  }
  std::string eeprom = c.Get("module.length_m");
  if (coded > 0 && !eeprom.empty()) {
    double have = std::atof(eeprom.c_str());
    if (have > 0 && std::abs(have - coded) >= 1.0) {
      c.Report("cable-length-mismatch", fmt::format("part number {} codes {:g} m but the EEPROM says {:g} m", pn, coded, have),
               "a relabelled cable: measure it and check the supplier", {{"part_number", pn}, {"eeprom_length_m", eeprom}});
    }
  }
}

}  // namespace

const std::vector<AuthenticityRule>& AuthenticityRules() {
  static const std::vector<AuthenticityRule> rules = {
      {"vpd-checksum-invalid", Severity::kError, "H", "the VPD's RV byte sum is not zero"},
      {"vpd-fields-inconsistent", Severity::kError, "H", "PN vs V2, VU vs serial, firmware part number vs OPN disagree"},
      {"psid-not-for-opn", Severity::kError, "M", "the PSID is not the one the catalog knows for the OPN"},
      {"psid-changed", Severity::kError, "H", "flint shows an Orig PSID: the card was cross-flashed"},
      {"cross-flashed-oem", Severity::kError, "H", "retail MT_ PSID on a card with an OEM MAC OUI"},
      {"oem-card", Severity::kInfo, "H", "OEM PSID (Dell, HPE, Lenovo, Cisco, IBM) or OEM VPD map (VA LNV:/HP:/DELL: …)"},
      {"device-family-mismatch", Severity::kError, "H", "PCI device ID, firmware major and OPN family disagree"},
      {"no-valid-firmware", Severity::kError, "H", "Flash-Recovery PCI device ID: no firmware runs"},
      {"secure-boot-expected", Severity::kWarning, "M", "secure-boot OPN (S/C letter) without secure-fw"},
      {"debug-firmware", Severity::kError, "H", "dev/debug firmware security attributes"},
      {"duplicate-identity", Severity::kError, "H", "one MAC, GUID or serial on two assets"},
      {"serial-format-anomaly", Severity::kInfo, "L", "heuristic: serial not MT + 10 characters on a retail OPN"},
      {"vpd-uuid-mac-mismatch", Severity::kWarning, "M", "heuristic: VPD V3 UUID node is not the base MAC"},
      {"module-eeprom-garbage", Severity::kError, "H", "module EEPROM identity fields empty or not printable"},
      {"module-vendor-inconsistent", Severity::kError, "H", "NVIDIA OUI with a foreign vendor name or part number"},
      {"cable-length-mismatch", Severity::kWarning, "H", "EEPROM length differs from the part number's length code"},
      {"not-on-any-delivery", Severity::kWarning, "H", "seen on a host but on no receiving list the ledger holds"},
  };
  return rules;
}

std::vector<AuthenticityFinding> CheckAsset(const Asset& asset) {
  std::vector<AuthenticityFinding> out;
  Checker c(asset, out);
  if (asset.kind == "nic") CheckNic(asset, c);
  if (asset.kind == "cable" || asset.kind == "transceiver") CheckModule(asset, c);
  return out;
}

std::vector<AuthenticityFinding> CheckLedger(const LedgerStore& ledger) {
  std::vector<AuthenticityFinding> out;
  std::map<std::string, std::vector<std::string>> identities;  // "GUID x" -> serials
  ledger.ForEachAsset([&](const Asset& a) {
    std::vector<AuthenticityFinding> found = CheckAsset(a);
    out.insert(out.end(), found.begin(), found.end());
    if (auto also = a.fields.find("identity.also_seen"); also != a.fields.end() && !also->second.empty()) {
      auto where = a.fields.find("location");
      const std::string at = where == a.fields.end() ? "" : where->second;
      out.push_back(MakeFinding("duplicate-identity", a.serial, fmt::format("serial {}", a.serial),
                                fmt::format("serial {} was reported at {} and also at {}: serials are unique per card, so one is "
                                            "cloned or a capture was filed under the wrong host",
                                            a.serial, at.empty() ? "?" : at, also->second),
                                "check both hosts' cards against the labels and the supplier's records",
                                {{"location", at}, {"also_seen", also->second}}));
    }
    for (const char* field : {"fw.base_guid", "fw.base_mac", "mac"}) {
      auto it = a.fields.find(field);
      if (it == a.fields.end() || HexDigits(it->second).find_first_not_of('0') == std::string::npos) continue;
      std::string key = fmt::format("{} {}", std::string_view(field).ends_with("guid") ? "GUID" : "MAC", HexDigits(it->second));
      auto& serials = identities[key];
      if (serials.empty() || serials.back() != a.serial) serials.push_back(a.serial);
    }
  });
  // A PSID that changed in the ledger's history: the card was re-flashed to another board's firmware.
  std::map<std::string, std::vector<std::string>> psids;
  ledger.ForEachChange("fw.psid", [&](const std::string& serial, const std::string& psid) {
    auto& seen = psids[serial];
    if (seen.empty() || seen.back() != psid) seen.push_back(psid);
  });
  for (const auto& [serial, seen] : psids) {
    if (seen.size() < 2) continue;
    const std::string history = fmt::format("{}", fmt::join(seen, " -> "));
    out.push_back(MakeFinding(
        "psid-changed", serial, "nic",
        fmt::format("the ledger has seen this card with PSIDs {}: it was re-flashed to another board's firmware", history),
        "a re-flashed card: NVIDIA will not support it; reject it or return it to its original firmware",
        {{"psid_history", history}}));
  }
  // Provenance: a card, cable or module seen in the field (host facts, captures, tool outputs) that no receiving
  // list ever named came through no delivery the team tracked: bought elsewhere, swapped in, or mislabelled.
  // Judged only once the ledger holds a receiving list; otherwise every asset would be "not delivered".
  std::set<std::string> received;
  ledger.ForEachChange("state", [&](const std::string& serial, const std::string& state) {
    if (state == "received") received.insert(serial);
  });
  if (!received.empty()) {
    ledger.ForEachAsset([&](const Asset& a) {
      if (received.count(a.serial) || a.kind == "switch") return;
      auto where = a.fields.find("location");
      auto opn = a.fields.find("opn");
      std::string at = where == a.fields.end() ? std::string() : where->second;
      out.push_back(
          MakeFinding("not-on-any-delivery", a.serial, fmt::format("{} {}", a.kind, opn == a.fields.end() ? "" : opn->second),
                      fmt::format("{} {} was seen{} but is on none of the {} received assets' receiving lists: it came "
                                  "through no delivery this ledger tracks",
                                  a.kind, a.serial, at.empty() ? "" : " at " + at, received.size()),
                      "find its delivery (import that receiving list) or its origin; a card or cable from outside genuine "
                      "channels gets the full authenticity check and acceptance before it carries traffic",
                      {{"location", at}, {"received_assets", std::to_string(received.size())}}));
    });
  }
  for (const auto& [identity, serials] : identities) {
    if (serials.size() < 2) continue;
    for (const std::string& serial : serials) {
      out.push_back(MakeFinding("duplicate-identity", serial, identity,
                                fmt::format("{} is shared by {}: identities are unique per card, so at least one is cloned",
                                            identity, fmt::join(serials, ", ")),
                                "quarantine these cards and check each against the supplier's records",
                                {{"identity", identity}, {"assets", std::to_string(serials.size())}}));
    }
  }
  return out;
}

std::vector<Finding> AuthenticityFindings(const std::vector<AuthenticityFinding>& found) {
  std::vector<Finding> out;
  out.reserve(found.size());
  for (const AuthenticityFinding& f : found) {
    out.push_back(f.finding);
    out.back().evidence.emplace_back("confidence", f.confidence);
  }
  return out;
}

FindingsScope AuthenticityScope() {
  FindingsScope scope{"ledger check", {}, {}};
  for (const AuthenticityRule& r : AuthenticityRules()) scope.rules_run.emplace_back(r.id);
  return scope;
}

std::string AuthenticityJson(const std::vector<AuthenticityFinding>& found) {
  nlohmann::json out = {{"schema", kAuthenticitySchema}, {"findings", nlohmann::json::array()}};
  for (const AuthenticityFinding& f : found) {
    nlohmann::json item = FindingJson(f.finding);
    item.erase("host");  // the asset is named as its serial here
    item["serial"] = f.finding.host;
    item["confidence"] = f.confidence;
    out["findings"].push_back(std::move(item));
  }
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string AuthenticityRender(const std::vector<AuthenticityFinding>& found, FindingsFormat format) {
  if (format == FindingsFormat::kJson) return AuthenticityJson(found);
  std::string out = RenderFindings(AuthenticityFindings(found), AuthenticityScope(), format);
  if (format == FindingsFormat::kTable) out += fmt::format("{} findings\n", found.size());
  return out;
}

}  // namespace railyard
