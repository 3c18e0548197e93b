#include "catalog/compatibility.h"
#include "util/input_error.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/identity.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/versions.h"

namespace railyard {
namespace {

std::vector<std::string> SplitList(std::string_view v) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= v.size()) {
    size_t end = v.find(';', start);
    if (end == std::string_view::npos) end = v.size();
    std::string item(TrimSpace(v.substr(start, end - start)));
    if (!item.empty()) out.push_back(item);
    start = end + 1;
  }
  return out;
}

// "MCX75310AAS-NEA_Ax" -> "MCX75310AAS-NEA"; upper case.
std::string BareOpn(std::string_view pn) {
  std::string s(TrimSpace(pn));
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (size_t u = s.rfind("_A"); u != std::string::npos && u + 3 >= s.size()) s.resize(u);
  return s;
}

}  // namespace

bool SameOpn(std::string_view part_number, std::string_view opn) {
  std::string a = BareOpn(part_number), b = BareOpn(opn);
  if (a.empty() || b.empty()) return false;
  if (a == b) return true;
  // NVIDIA's firmware part number drops the OPN's last letter (the temperature/packaging grade): NEA vs NEAT.
  auto one_shorter = [](const std::string& s, const std::string& l) {
    return l.size() == s.size() + 1 && l.starts_with(s) && s.find('-') != std::string::npos;
  };
  return one_shorter(a, b) || one_shorter(b, a);
}

DriverStack DriverStackOf(std::string_view have) {
  std::string s(TrimSpace(have));
  if (s.empty()) return {"inbox", ""};
  std::string stack = s.starts_with("MLNX_OFED") ? "mlnx_ofed" : s.starts_with("OFED-internal") ? "doca_ofed" : "";
  if (stack.empty()) return {"", ""};  // something else (rdma-core's own version, a distro OFED): not classified
  // "MLNX_OFED_LINUX-24.10-3.2.5.0:" / "OFED-internal-24.07-0.3.5.0.110" -> "24.10" / "24.07"
  std::string rest = s.substr(s.find('-') + 1);
  if (stack == "doca_ofed") rest = rest.substr(rest.find('-') + 1);
  return {stack, rest.substr(0, rest.find('-'))};
}

std::optional<DriverStack> ParseDriverStack(std::string_view text) {
  std::vector<std::string_view> words = SplitWords(text);
  if (words.empty() || words.size() > 2) return std::nullopt;
  std::string stack = Lower(words[0]);
  if (stack != "inbox" && stack != "mlnx_ofed" && stack != "doca_ofed") return std::nullopt;
  if (stack == "inbox" && words.size() == 2) return std::nullopt;
  return DriverStack{stack, words.size() == 2 ? std::string(words[1]) : ""};
}

std::optional<DriverStackLimit> UnsupportedStack(std::string_view family, const DriverStack& s) {
  static const CsvTable table = ParseCsv(EmbeddedFile("driver_stacks.csv"), "driver_stacks.csv");
  for (const CsvRow& row : table.rows) {
    auto col = [&](const char* name) { return row.fields[static_cast<size_t>(table.Column(name))]; };
    if (col("family") != family || col("stack") != s.stack) continue;
    std::string last = col("last");
    if (last != "none" && (s.train.empty() || CompareVersions(s.train, last) <= 0)) continue;
    return DriverStackLimit{std::string(family), s.stack, last, col("why"), col("source"), col("confidence")};
  }
  return std::nullopt;
}

CompatMatrix ParseCompatMatrix(std::string_view text, const std::string& file) {
  CsvTable t = ParseCsv(text, file);
  CompatMatrix m;
  m.file = file;
  static const std::vector<std::string> kColumns = {"server",    "nic",    "bios_min", "os",     "kernel", "stack", "stack_min",
                                                    "stack_max", "fw_min", "fw_max",   "status", "note",   "source"};
  for (size_t i = 0; i < t.header.size(); ++i) {
    if (std::find(kColumns.begin(), kColumns.end(), t.header[i]) == kColumns.end()) {
      std::string close = ClosestMatch(t.header[i], kColumns);
      throw InputError(file, 1, 0, fmt::format("column {} ({})", i + 1, t.header[i]),
                       fmt::format("unknown column{}", close.empty() ? "" : fmt::format("; did you mean '{}'?", close)));
    }
  }
  for (const char* required : {"server", "nic"}) {
    if (t.Column(required) < 0) throw InputError(file, 1, 0, "", fmt::format("the header has no '{}' column", required));
  }
  for (const CsvRow& row : t.rows) {
    auto col = [&](const char* name) -> std::string {
      int c = t.Column(name);
      return c < 0 ? "" : std::string(TrimSpace(row.fields[static_cast<size_t>(c)]));
    };
    auto fail = [&](const char* name, const std::string& message) {
      throw InputError(file, row.line, 0, fmt::format("column {} ({})", t.Column(name) + 1, name), message);
    };
    CompatEntry e;
    e.line = row.line;
    e.server = col("server");
    e.nic = col("nic");
    if (e.server.empty()) fail("server", "empty: name the server model as dmidecode prints it, or * for any");
    if (e.nic.empty()) fail("nic", "empty: name an OPN (MCX75310AAS-NEAT) or a family (ConnectX-7)");
    e.nic_is_family = IdentityCatalog::Builtin().FamilyByName(e.nic) != nullptr;
    e.bios_min = col("bios_min");
    e.os = SplitList(col("os"));
    e.kernels = SplitList(col("kernel"));
    e.stack = Lower(col("stack"));
    if (!e.stack.empty() && e.stack != "inbox" && e.stack != "mlnx_ofed" && e.stack != "doca_ofed") {
      fail("stack", fmt::format("'{}' is not inbox, mlnx_ofed or doca_ofed", e.stack));
    }
    e.stack_min = col("stack_min");
    e.stack_max = col("stack_max");
    if ((!e.stack_min.empty() || !e.stack_max.empty()) && (e.stack.empty() || e.stack == "inbox")) {
      fail("stack_min", "a version range needs stack mlnx_ofed or doca_ofed");
    }
    e.fw_min = col("fw_min");
    e.fw_max = col("fw_max");
    if (!e.fw_min.empty() && !e.fw_max.empty() && CompareVersions(e.fw_min, e.fw_max) > 0) {
      fail("fw_max", fmt::format("{} is below fw_min {}", e.fw_max, e.fw_min));
    }
    std::string status = Lower(col("status"));
    if (!status.empty() && status != "supported" && status != "unsupported") {
      fail("status", fmt::format("'{}' is not supported or unsupported", status));
    }
    e.supported = status != "unsupported";
    e.note = col("note");
    e.source = col("source");
    m.entries.push_back(std::move(e));
  }
  return m;
}

CompatMatrix LoadCompatMatrix(const std::string& path) { return ParseCompatMatrix(ReadWholeFile(path), path); }

CompatVerdict CheckCompat(const CompatMatrix& matrix, const CompatQuery& q) {
  CompatVerdict v;
  auto nic_matches = [&](const CompatEntry& e) {
    return e.nic_is_family ? Lower(e.nic) == Lower(q.family) && !q.family.empty() : SameOpn(q.opn, e.nic);
  };
  std::vector<const CompatEntry*> server_rows, pair_rows;
  for (const CompatEntry& e : matrix.entries) {
    bool server = e.server == "*" || (q.is_server && q.is_server(e.server));
    if (!server) continue;
    if (e.server != "*") server_rows.push_back(&e);
    if (nic_matches(e)) pair_rows.push_back(&e);
  }
  if (pair_rows.empty()) {
    if (server_rows.empty()) return v;  // kServerNotListed
    v.kind = CompatVerdict::Kind::kNicNotListed;
    std::set<std::string> seen;
    for (const CompatEntry* e : server_rows) {
      if (e->supported && seen.insert(e->nic).second) v.listed_nics.push_back(e->nic);
    }
    return v;
  }
  // An explicit "unsupported" row for this exact pair decides.
  for (const CompatEntry* e : pair_rows) {
    if (!e->supported) {
      v.kind = CompatVerdict::Kind::kUnsupported;
      v.row = e;
      return v;
    }
  }
  size_t best = SIZE_MAX;
  for (const CompatEntry* e : pair_rows) {
    std::vector<std::string> miss;
    std::set<std::string> unchecked;
    if (!e->bios_min.empty()) {
      if (q.bios.empty())
        unchecked.insert("BIOS");
      else if (CompareVersions(q.bios, e->bios_min) < 0)
        miss.push_back(fmt::format("BIOS {} is below {}", q.bios, e->bios_min));
    }
    if (!e->os.empty()) {
      if (!q.os_matches) {
        unchecked.insert("OS");
      } else if (std::none_of(e->os.begin(), e->os.end(), [&](const std::string& o) { return q.os_matches(o); })) {
        miss.push_back(fmt::format("OS {} is not among {}", q.os_name, fmt::join(e->os, ", ")));
      }
    }
    if (!e->kernels.empty()) {
      if (q.kernel.empty()) {
        unchecked.insert("kernel");
      } else if (std::none_of(e->kernels.begin(), e->kernels.end(),
                              [&](const std::string& k) { return fnmatch(k.c_str(), q.kernel.c_str(), 0) == 0; })) {
        miss.push_back(fmt::format("kernel {} matches none of {}", q.kernel, fmt::join(e->kernels, ", ")));
      }
    }
    if (!e->stack.empty()) {
      if (q.stack.stack.empty()) {
        unchecked.insert("driver stack");
      } else if (q.stack.stack != e->stack) {
        miss.push_back(fmt::format("driver stack {} is not {}", q.stack.stack, e->stack));
      } else if (!q.stack.train.empty()) {
        if (!e->stack_min.empty() && CompareVersions(q.stack.train, e->stack_min) < 0) {
          miss.push_back(fmt::format("{} {} is below {}", e->stack, q.stack.train, e->stack_min));
        }
        if (!e->stack_max.empty() && CompareVersions(q.stack.train, e->stack_max) > 0) {
          miss.push_back(fmt::format("{} {} is above {}", e->stack, q.stack.train, e->stack_max));
        }
      }
    }
    if (!e->fw_min.empty() || !e->fw_max.empty()) {
      if (q.firmware.empty()) {
        unchecked.insert("firmware");
      } else {
        if (!e->fw_min.empty() && CompareVersions(q.firmware, e->fw_min) < 0) {
          miss.push_back(fmt::format("firmware {} is below {}", q.firmware, e->fw_min));
        }
        if (!e->fw_max.empty() && CompareVersions(q.firmware, e->fw_max) > 0) {
          miss.push_back(fmt::format("firmware {} is above {}", q.firmware, e->fw_max));
        }
      }
    }
    if (miss.size() < best) {
      best = miss.size();
      v.row = e;
      v.mismatches = std::move(miss);
      v.unchecked.assign(unchecked.begin(), unchecked.end());
    }
    if (best == 0) break;
  }
  v.kind = best == 0 ? CompatVerdict::Kind::kSupported : CompatVerdict::Kind::kOutOfRange;
  return v;
}

}  // namespace railyard
