#include "ledger/acceptance.h"
#include "util/file.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "catalog/catalog.h"
#include "catalog/identity.h"
#include "ledger/authenticity.h"
#include "parse/system_identity.h"
#include "util/csv.h"
#include "util/html.h"
#include "util/input_error.h"
#include "util/suggest.h"
#include "util/versions.h"
#include "util/yaml_strict.h"

namespace railyard {
namespace {

std::string Field(const Asset& a, const char* name) {
  auto it = a.fields.find(name);
  return it == a.fields.end() ? std::string() : it->second;
}

std::optional<double> Number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return std::nullopt;
  return v;
}

// The firmware family of a card: from its PCI device ID, else from its OPN in the catalog.
std::string FamilyOf(const Asset& a) {
  if (const DeviceFamily* f = IdentityCatalog::Builtin().FamilyByDeviceId(Field(a, "pci.device_id"))) return f->family;
  if (auto i = Catalog::Builtin().FindNic(Field(a, "opn"))) return Catalog::Builtin().nics()[*i].family;
  return "";
}

// `findings`: the asset's authenticity findings (CheckAsset's, or CheckLedger's for it, which add
// those only the whole ledger shows: shared identities, PSID history).
// The gates a card or module passes in order. Each returns true when it settles the verdict (where it
// stops, and why); false to go on to the next.
bool Stop(AcceptanceVerdict& v, const char* state, std::string reason) {
  v.to = state;
  v.reasons.push_back(std::move(reason));
  return true;
}

// 1. Identity: genuine, and known well enough to judge.
bool IdentityGate(const Asset& a, const std::vector<AuthenticityFinding>& findings, AcceptanceVerdict& v) {
  std::vector<std::string> bad;
  for (const AuthenticityFinding& f : findings) {
    if (f.finding.severity > Severity::kInfo) {
      bad.push_back(fmt::format("{}: {}", f.finding.rule, f.finding.message));
      for (const auto& e : f.finding.evidence) v.evidence.push_back(e);
    }
  }
  if (!bad.empty()) {
    v.to = "rejected";
    v.reasons = bad;
    return true;
  }
  if (a.kind == "nic" && (Field(a, "fw.psid").empty() || (Field(a, "vpd.PN").empty() && Field(a, "opn").empty()))) {
    return Stop(v, "received",
                "identity not yet read: import the card's lspci -vvv (VPD) and flint/mstflint q, or its host's facts");
  }
  if (a.kind != "nic" && (Field(a, "module.vendor").empty() || Field(a, "opn").empty())) {
    return Stop(v, "received", "identity not yet read: import the module's ethtool -m (or mlxlink -m) in the host's facts");
  }
  return false;
}

// 2. Firmware at the baseline (cards).
bool FirmwareGate(const Asset& a, const AcceptancePolicy& p, AcceptanceVerdict& v) {
  const std::string psid = Field(a, "fw.psid"), fw = Field(a, "fw.version"), family = FamilyOf(a);
  auto it = p.firmware_baseline.find(psid);
  if (it == p.firmware_baseline.end()) it = p.firmware_baseline.find(family);
  if (it == p.firmware_baseline.end()) {
    return Stop(v, "identity-checked",
                fmt::format("the policy has no firmware baseline for {} or {}", psid, family.empty() ? "its family" : family));
  }
  v.evidence.emplace_back("fw.version", fw);
  v.evidence.emplace_back("baseline", it->second);
  if (fw.empty() || CompareVersions(fw, it->second) < 0) {
    return Stop(v, "identity-checked",
                fmt::format("firmware {} is below the baseline {} for {}: update it, then re-import its flint q",
                            fw.empty() ? "(unknown)" : fw, it->second, it->first));
  }
  return false;
}

// The card's server, OS, kernel, driver stack and firmware, as the compatibility matrix asks them.
CompatQuery CompatQueryOf(const Asset& a, const SystemIdentity& server) {
  CompatQuery q;
  q.is_server = [server](std::string_view m) { return server.IsModel(m); };
  q.opn = Field(a, "opn").empty() ? Field(a, "vpd.PN") : Field(a, "opn");
  q.family = FamilyOf(a);
  q.bios = Field(a, "server.bios");
  std::string os = Field(a, "host.os");
  if (!os.empty()) {
    std::string id = os.substr(0, os.find(' ')), version = os.find(' ') == std::string::npos ? "" : os.substr(os.find(' ') + 1);
    q.os_matches = [id, version](std::string_view entry) { return OsEntryMatches(id, version, entry); };
    q.os_name = os;
  }
  q.kernel = Field(a, "host.kernel");
  if (!q.kernel.empty()) q.stack = DriverStackOf(Field(a, "host.ofed"));
  q.firmware = Field(a, "fw.version");
  return q;
}

// 3. In a server the compatibility matrix supports it in (where the policy has one and the card was
// seen in a host).
bool CompatibilityGate(const Asset& a, const AcceptancePolicy& p, AcceptanceVerdict& v) {
  if (p.compat.empty()) return false;
  SystemIdentity server;
  server.vendor = Field(a, "server.vendor");
  server.product = Field(a, "server.product");
  if (server.vendor.empty() && !server.product.empty())
    std::swap(server.product, server.vendor_product);  // the kernel's joined form
  if (server.product.empty() && server.vendor_product.empty()) {
    v.evidence.emplace_back("compatibility", "not checked: the card has not been seen in a server (import its host's facts)");
    return false;
  }
  const CompatQuery q = CompatQueryOf(a, server);
  CompatVerdict c = CheckCompat(p.compat, q);
  std::string where = fmt::format("{} ({})", server.Model(), Field(a, "location"));
  using K = CompatVerdict::Kind;
  switch (c.kind) {
    case K::kServerNotListed:
      v.evidence.emplace_back("compatibility",
                              fmt::format("not checked: {} says nothing about the {}", p.compat.file, server.Model()));
      return false;
    case K::kNicNotListed:
      return Stop(v, "firmware-aligned",
                  fmt::format("{} does not list the {} for the {} (it lists {}): move the card to a server that supports it",
                              p.compat.file, q.opn, where, fmt::join(c.listed_nics, ", ")));
    case K::kUnsupported:
      return Stop(v, "firmware-aligned",
                  fmt::format("{} line {} lists the {} in the {} as unsupported{}", p.compat.file, c.row->line, q.opn, where,
                              c.row->note.empty() ? "" : ": " + c.row->note));
    case K::kOutOfRange:
      return Stop(v, "firmware-aligned",
                  fmt::format("the {} in the {} is supported only as {} line {} says: {}", q.opn, where, p.compat.file,
                              c.row->line, fmt::join(c.mismatches, "; ")));
    default:
      v.evidence.emplace_back(
          "compatibility",
          fmt::format("{} line {}{}", p.compat.file, c.row->line,
                      c.unchecked.empty() ? "" : fmt::format(" (not checked: {})", fmt::join(c.unchecked, ", "))));
      return false;
  }
}

// 4a. A card's links: PCIe at its capability, each port mlxlink measured at the fastest speed both the
// port and its cable allow, and burn-in under sustained load (railyard burnin check --ledger): "pass:
// ...", "fail: ..." (a confirmed suspect), or "suspect ..." / "not judged ..." (retest after the next
// round).
bool CardLinkGate(const Asset& a, const AcceptancePolicy& p, AcceptanceVerdict& v) {
  if (p.require_pcie_at_capability) {
    const std::string cap = Field(a, "pci.link_capability"), sta = Field(a, "measured.pci_link_status");
    if (cap.empty() || sta.empty())
      return Stop(v, "firmware-aligned", "PCIe link not measured: import lspci -vvv (as root) from its host");
    v.evidence.emplace_back("pci.link_status", sta);
    if (cap != sta) {
      return Stop(
          v, "rejected",
          fmt::format("PCIe trained at {} but the card is capable of {}: reseat or check the slot, then re-test", sta, cap));
    }
  }
  for (const auto& [field, speed] : a.fields) {
    if (!field.starts_with("measured.link.")) continue;
    const std::string port = field.substr(std::string_view("measured.link.").size());
    const std::string capable = Field(a, ("capable.link." + port).c_str());
    v.evidence.emplace_back(field, speed);
    if (!capable.empty() && capable != speed) {
      return Stop(
          v, "rejected",
          fmt::format("{} runs at {} but the port and its cable support {}: check the peer port's speed and FEC, then re-test",
                      port, speed, capable));
    }
  }
  const std::string burnin = Field(a, "burnin.result");
  if (!burnin.empty()) v.evidence.emplace_back("burnin.result", burnin);
  if (burnin.starts_with("fail")) return Stop(v, "rejected", "burn-in " + burnin);
  if (!burnin.empty() && !burnin.starts_with("pass")) return Stop(v, "firmware-aligned", "burn-in " + burnin);
  if (burnin.empty() && p.require_burnin)
    return Stop(v, "firmware-aligned", "no burn-in result: run railyard burnin, then check it with --ledger");
  return false;
}

// 4b. A module's link: temperature and BER within the policy, BER counted over long enough.
bool ModuleLinkGate(const Asset& a, const AcceptancePolicy& p, AcceptanceVerdict& v) {
  std::optional<double> eff = Number(Field(a, "measured.effective_ber")), raw = Number(Field(a, "measured.raw_ber"));
  std::optional<double> window = Number(Field(a, "measured.ber_window_min")), temp = Number(Field(a, "measured.temperature_c"));
  std::vector<std::string> failed;
  if (temp && *temp >= p.max_module_temp_c)
    failed.push_back(fmt::format("module at {:.1f} °C, limit {:g} °C", *temp, p.max_module_temp_c));
  if (eff && *eff > p.max_effective_ber)
    failed.push_back(fmt::format("effective BER {:.1e} above {:.0e}", *eff, p.max_effective_ber));
  if (raw && *raw > p.max_raw_ber)
    failed.push_back(fmt::format("raw BER {:.1e} above {:.0e}: no margin to the FEC limit", *raw, p.max_raw_ber));
  for (const char* f : {"measured.effective_ber", "measured.raw_ber", "measured.ber_window_min", "measured.temperature_c"}) {
    if (!Field(a, f).empty()) v.evidence.emplace_back(f, Field(a, f));
  }
  if (!failed.empty()) {
    v.to = "rejected";
    v.reasons = failed;
    return true;
  }
  if (!eff) return Stop(v, "firmware-aligned", "BER not measured: import mlxlink -c of its port in the host's facts");
  if (!window || *window < p.min_ber_window_min) {
    return Stop(v, "firmware-aligned",
                fmt::format("BER counted over {} min, less than the policy's {:g} min: measure again later",
                            window ? fmt::format("{:g}", *window) : "an unknown number of", p.min_ber_window_min));
  }
  return false;
}

AcceptanceVerdict EvaluateWith(const Asset& a, const AcceptancePolicy& p, const std::vector<AuthenticityFinding>& findings) {
  AcceptanceVerdict v;
  v.serial = a.serial;
  v.kind = a.kind;
  v.opn = Field(a, "opn");
  v.batch = Field(a, "batch");
  v.from = Field(a, "state").empty() ? "received" : Field(a, "state");
  if (v.from == "rma") {
    v.to = "rma";
    v.reasons.push_back(Field(a, "state.reasons"));
    return v;
  }
  const bool nic = a.kind == "nic";
  const bool settled = IdentityGate(a, findings, v) || (nic && FirmwareGate(a, p, v)) || (nic && CompatibilityGate(a, p, v)) ||
                       (nic ? CardLinkGate(a, p, v) : ModuleLinkGate(a, p, v));
  // Every test passed: accepted once the technical lead signs the batch off (SignOffBatch).
  if (!settled) v.to = v.from == "accepted" ? "accepted" : "link-tested";
  return v;
}

}  // namespace

AcceptancePolicy ParseAcceptancePolicy(const std::string& yaml_text, const std::string& file) {
  AcceptancePolicy p;
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(file, e.mark.line + 1, e.mark.column + 1, "(syntax)", e.msg);
  }
  if (root.IsNull()) return p;
  if (!root.IsMap()) throw InputError(file, 1, 0, "", "the policy must be a mapping of keys");
  if (auto d = FindDuplicateKey(root)) {
    throw InputError(file, d->line, d->column, d->key,
                     fmt::format("appears twice (first at line {}): YAML would keep only one of them", d->first_line));
  }
  static const std::vector<std::string> kKeys = {"firmware_baseline",  "max_effective_ber", "max_raw_ber",
                                                 "min_ber_window_min", "max_module_temp_c", "require_pcie_at_capability",
                                                 "require_burnin",     "compatibility"};
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>("");
    const YAML::Node& v = kv.second;
    auto fail = [&](const std::string& why) {
      const YAML::Mark m = v.Mark();
      return InputError(file, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1, key, why);
    };
    auto finite = [&] {
      std::optional<double> x = FiniteNumber(v);
      if (!x) throw fail("expected a finite number (NaN or infinity would make the threshold pass everything)");
      return *x;
    };
    try {
      if (key == "firmware_baseline") {
        if (!v.IsMap()) throw fail("expected a mapping of PSID or family to version");
        for (const auto& b : v) p.firmware_baseline[b.first.as<std::string>()] = b.second.as<std::string>();
      } else if (key == "max_effective_ber")
        p.max_effective_ber = finite();
      else if (key == "max_raw_ber")
        p.max_raw_ber = finite();
      else if (key == "min_ber_window_min")
        p.min_ber_window_min = finite();
      else if (key == "max_module_temp_c")
        p.max_module_temp_c = finite();
      else if (key == "require_pcie_at_capability")
        p.require_pcie_at_capability = v.as<bool>();
      else if (key == "require_burnin")
        p.require_burnin = v.as<bool>();
      else if (key == "compatibility") {
        if (!v.IsScalar()) throw fail("expected a CSV file beside the policy");
        std::filesystem::path csv = std::filesystem::path(file).parent_path() / v.as<std::string>();
        std::optional<std::string> text = ReadFileIfReadable(csv.string());
        if (!text) throw fail(fmt::format("cannot read {}", csv.string()));
        p.compat = ParseCompatMatrix(*text, csv.string());  // its errors name the CSV's line and column
      } else {
        throw InputError(file, kv.first.Mark().line + 1, kv.first.Mark().column + 1, key, UnknownKeyMessage(key, kKeys));
      }
    } catch (const YAML::Exception&) {
      throw fail("wrong type");
    }
  }
  return p;
}

AcceptancePolicy LoadAcceptancePolicy(const std::string& path) {
  return ParseAcceptancePolicy(ReadWholeFile(path), ShownPath(path));
}

AcceptanceVerdict Evaluate(const Asset& asset, const AcceptancePolicy& policy) {
  return EvaluateWith(asset, policy, CheckAsset(asset));
}

std::vector<AcceptanceVerdict> RecordedVerdicts(const LedgerStore& ledger, const AcceptancePolicy& policy,
                                                const std::string& batch) {
  std::vector<AcceptanceVerdict> verdicts;
  ledger.ForEachAsset([&](const Asset& asset) {
    auto b = asset.fields.find("batch");
    if (!batch.empty() && (b == asset.fields.end() || b->second != batch)) return;
    AcceptanceVerdict v = Evaluate(asset, policy);
    auto state = asset.fields.find("state");
    v.to = state == asset.fields.end() ? "received" : state->second;
    if (auto r = asset.fields.find("state.reasons"); r != asset.fields.end() && r->second != "-")
      v.reasons = {r->second};
    else
      v.reasons.clear();
    verdicts.push_back(std::move(v));
  });
  if (verdicts.empty()) throw UsageError(fmt::format("no asset in batch '{}'", batch));
  return verdicts;
}

std::vector<AcceptanceVerdict> RunAcceptance(LedgerStore& ledger, const AcceptancePolicy& policy, const std::string& batch,
                                             const std::string& actor) {
  // One pass of the authenticity checks over the whole ledger: each asset's own findings plus
  // what only the ledger shows (a shared identity rejects both assets; so does a PSID history).
  std::map<std::string, std::vector<AuthenticityFinding>> findings;
  for (AuthenticityFinding& f : CheckLedger(ledger)) findings[f.finding.host].push_back(std::move(f));
  std::vector<AcceptanceVerdict> out;
  std::vector<AssetObservation> changes;
  ledger.ForEachAsset([&](const Asset& a) {
    if (!batch.empty() && Field(a, "batch") != batch) return;
    auto it = findings.find(a.serial);
    AcceptanceVerdict v = EvaluateWith(a, policy, it == findings.end() ? std::vector<AuthenticityFinding>{} : it->second);
    std::string reasons = fmt::format("{}", fmt::join(v.reasons, "; "));
    if (v.to != v.from ||
        (Field(a, "state.reasons") != (reasons.empty() ? "-" : reasons) && v.to != "rma" && v.to != "accepted")) {
      changes.push_back({a.serial, a.kind, {{"state", v.to}, {"state.reasons", reasons.empty() ? "-" : reasons}}, 0});
    }
    out.push_back(std::move(v));
  });
  if (!changes.empty()) ledger.Record(changes, actor, "railyard accept run");
  return out;
}

std::vector<std::string> SignOffBatch(LedgerStore& ledger, const std::string& batch, const std::string& actor) {
  std::vector<std::string> signed_off;
  std::vector<AssetObservation> changes;
  ledger.ForEachAsset([&](const Asset& a) {
    if (Field(a, "batch") != batch || Field(a, "state") != "link-tested") return;
    changes.push_back({a.serial, a.kind, {{"state", "accepted"}, {"state.reasons", "signed off by " + actor}}, 0});
    signed_off.push_back(a.serial);
  });
  if (!changes.empty()) ledger.Record(changes, actor, "railyard accept sign --batch " + batch);
  return signed_off;
}

std::string AcceptanceCsv(const std::vector<AcceptanceVerdict>& verdicts) {
  std::string out = "serial,kind,opn,batch,state,reasons\n";
  for (const AcceptanceVerdict& v : verdicts) {
    out += fmt::format("{},{},{},{},{},{}\n", CsvEscape(v.serial), CsvEscape(v.kind), CsvEscape(v.opn), CsvEscape(v.batch), v.to,
                       CsvEscape(fmt::format("{}", fmt::join(v.reasons, "; "))));
  }
  return out;
}

std::string AcceptanceHtml(const std::vector<AcceptanceVerdict>& verdicts, const std::string& batch,
                           const std::string& generated) {
  std::map<std::string, size_t> counts;
  for (const AcceptanceVerdict& v : verdicts) ++counts[v.to];
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Acceptance {}</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #bbb;padding:4px "
      "8px;"
      "text-align:left;vertical-align:top}}.rejected{{color:#a00}}.accepted{{color:#070}}</style></head><body>\n"
      "<h1>Acceptance report: batch {}</h1>\n<p>{} assets; generated {} by railyard accept "
      "report.</p>\n<table><tr><th>state</th><th>assets</th></tr>\n",
      HtmlEscape(batch.empty() ? "(all)" : batch), HtmlEscape(batch.empty() ? "(all)" : batch), verdicts.size(),
      HtmlEscape(generated));
  for (const char* s : kAcceptanceStates) {
    out += fmt::format("<tr><td class=\"{}\">{}</td><td>{}</td></tr>\n", s, s, counts[s]);
  }
  out += "</table>\n";
  auto section = [&](const char* state, const char* title) {
    if (!counts[state]) return;
    out += fmt::format("<h2>{}</h2>\n<table><tr><th>serial</th><th>kind</th><th>OPN</th><th>reasons</th><th>evidence</th></tr>\n",
                       title);
    for (const AcceptanceVerdict& v : verdicts) {
      if (v.to != state) continue;
      std::string evidence;
      for (const auto& [k, val] : v.evidence) evidence += fmt::format("{}: {}<br>", HtmlEscape(k), HtmlEscape(val));
      std::string reasons;
      for (const std::string& r : v.reasons) reasons += HtmlEscape(r) + "<br>";
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", HtmlEscape(v.serial),
                         HtmlEscape(v.kind), HtmlEscape(v.opn), reasons, evidence);
    }
    out += "</table>\n";
  };
  section("rejected", "Rejected");
  section("rma", "Returned (RMA)");
  for (const char* s : {"received", "identity-checked", "firmware-aligned", "link-tested"})
    section(s, fmt::format("Waiting: {}", s).c_str());
  out += "</body></html>\n";
  return out;
}

}  // namespace railyard
