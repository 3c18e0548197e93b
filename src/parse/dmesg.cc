#include "parse/dmesg.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {

std::string_view ToString(KernelEventKind kind) {
  switch (kind) {
    case KernelEventKind::kOther: return "other";
    case KernelEventKind::kFirmwareVersion: return "firmware-version";
    case KernelEventKind::kPcieBandwidth: return "pcie-bandwidth";
    case KernelEventKind::kPcieBandwidthLimited: return "pcie-bandwidth-limited";
    case KernelEventKind::kProbeFailed: return "probe-failed";
    case KernelEventKind::kLoadFailed: return "load-failed";
    case KernelEventKind::kFirmwareTimeout: return "firmware-timeout";
    case KernelEventKind::kSriovFailed: return "sriov-failed";
    case KernelEventKind::kUnknownHeaderType: return "unknown-header-type";
    case KernelEventKind::kCableEvent: return "cable-event";
    case KernelEventKind::kLinkEvent: return "link-event";
    case KernelEventKind::kFirmwareHealth: return "firmware-health";
    case KernelEventKind::kSlotPowerInsufficient: return "slot-power-insufficient";
    case KernelEventKind::kPcieError: return "pcie-error";
  }
  return "other";
}

std::optional<KernelEventKind> KernelEventKindFromString(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(KernelEventKind::kPcieError); ++k) {
    if (ToString(static_cast<KernelEventKind>(k)) == name) return static_cast<KernelEventKind>(k);
  }
  return std::nullopt;
}

namespace {

// The number right before `marker` ("63.008 Gb/s" before " Gb/s").
std::string NumberBefore(std::string_view text, std::string_view marker) {
  size_t at = text.find(marker);
  if (at == std::string_view::npos) return {};
  size_t start = at;
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
  return std::string(text.substr(start, at - start));
}

void Classify(KernelEvent& e) {
  std::string_view m = e.message;
  auto has = [&](std::string_view s) { return m.find(s) != std::string_view::npos; };
  if (m.starts_with("firmware version: ")) {
    e.kind = KernelEventKind::kFirmwareVersion;
    e.values["version"] = std::string(TrimView(m.substr(18)));
  } else if (has("available PCIe bandwidth")) {
    e.values["available_gbps"] = NumberBefore(m, " Gb/s available");
    if (has("limited by")) {
      e.kind = KernelEventKind::kPcieBandwidthLimited;
      size_t by = m.find("limited by ");
      size_t at = m.find(" at ", by);
      e.values["limited_by"] = std::string(m.substr(by + 11, at == std::string_view::npos ? std::string_view::npos : at - by - 11));
      if (at != std::string_view::npos) {
        std::string_view rest = m.substr(at + 4);
        e.values["limiting_device"] = std::string(rest.substr(0, rest.find(' ')));
      }
      size_t capable = m.find("capable of ");
      if (capable != std::string_view::npos) e.values["capable_gbps"] = NumberBefore(m.substr(capable), " Gb/s");
    } else {
      e.kind = KernelEventKind::kPcieBandwidth;
      size_t open = m.find('(');
      if (open != std::string_view::npos) e.values["link"] = std::string(m.substr(open + 1, m.find(')', open) - open - 1));
    }
  } else if (has("probe of ") && has(" failed with error ")) {
    e.kind = KernelEventKind::kProbeFailed;
    size_t of = m.find("probe of ");
    std::string_view rest = m.substr(of + 9);
    if (e.device.empty()) e.device = std::string(rest.substr(0, rest.find(' ')));
    e.values["error"] = std::string(TrimView(m.substr(m.find(" failed with error ") + 19)));
  } else if (has("load_one failed with error code ")) {
    e.kind = KernelEventKind::kLoadFailed;
    e.values["error"] = std::string(TrimView(m.substr(m.find("error code ") + 11)));
  } else if (has("pre-initializing state")) {
    e.kind = KernelEventKind::kFirmwareTimeout;
  } else if (has("pci_enable_sriov failed")) {
    e.kind = KernelEventKind::kSriovFailed;
    e.values["error"] = std::string(TrimView(m.substr(m.rfind(':') + 1)));
  } else if (has("unknown header type")) {
    e.kind = KernelEventKind::kUnknownHeaderType;
  } else if (has("Port module event")) {
    e.kind = KernelEventKind::kCableEvent;
    e.values["event"] = std::string(TrimView(m.substr(m.rfind(',') + 1)));
  } else if (has("health compromised") || has("Health issue observed") || has("firmware internal error") ||
             has("FW internal error") || (has("Fatal error") && has("detected")) || has("system error event triggered") ||
             has("Fatal error event")) {
    e.kind = KernelEventKind::kFirmwareHealth;
  } else if (has("insufficient power on the PCIe slot")) {
    e.kind = KernelEventKind::kSlotPowerInsufficient;
    e.values["watts"] = NumberBefore(m, "W)");
  } else if (has("PCIe Bus Error") || has("AER: ") || has("DPC: ")) {
    e.kind = KernelEventKind::kPcieError;
    size_t sev = m.find("severity=");
    if (sev != std::string_view::npos) {
      std::string_view rest = m.substr(sev + 9);
      e.values["severity"] = std::string(rest.substr(0, rest.find_first_of(",(")));
    } else if (has("Corrected error")) {
      e.values["severity"] = "Corrected";
    } else if (has("Uncorrect") || has("uncorrect") || has("containment")) {
      e.values["severity"] = "Uncorrected";
    }
  } else if (has("Link up") || has("Link down")) {
    e.kind = KernelEventKind::kLinkEvent;
    e.values["state"] = has("Link up") ? "up" : "down";
  }
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "Jan", "Feb" ... : the first word of a syslog / journalctl short line.
bool IsMonth(std::string_view s) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  return std::find(std::begin(kMonths), std::end(kMonths), s) != std::end(kMonths);
}

// "Mon Nov 30 14:15:29 2026": dmesg -T's wall clock.
bool IsWeekdayDate(std::string_view s) {
  static constexpr std::string_view kDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  std::vector<std::string_view> w = SplitWords(s);
  return w.size() == 5 && std::find(std::begin(kDays), std::end(kDays), w[0]) != std::end(kDays) && IsMonth(w[1]) &&
         w[3].size() == 8 && w[3][2] == ':';
}

// "2024-05-27T15:47:45+0000", "2024-05-27T15:47:45.123456+02:00": journalctl -o short-iso[-precise], rsyslog.
bool IsIsoTime(std::string_view s) {
  return s.size() >= 19 && IsDigits(s.substr(0, 4)) && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':';
}

// Strips the prefixes the kernel log is saved with, leaving "driver device: message". Sets the
// timestamps it finds; returns false when the line has none of the kernel log's shapes.
bool StripKernelPrefix(std::string_view& t, KernelEvent& e) {
  bool shaped = false;
  if (t.size() >= 3 && t[0] == '<' && t.find('>') != std::string_view::npos && t.find('>') <= 4 &&
      IsDigits(t.substr(1, t.find('>') - 1))) {  // "<6>[    2.6] ..." (dmesg -r, pstore)
    t = t.substr(t.find('>') + 1);
  }
  std::vector<std::string_view> words = SplitWords(t.substr(0, std::min<size_t>(t.size(), 96)));
  // syslog / journalctl: "May 27 15:47:45[.123456] host kernel: ..." or "2024-05-27T15:47:45+0000 host kernel: ..."
  size_t kernel = t.find(" kernel: ");
  if (kernel != std::string_view::npos && kernel < 96 && !words.empty() &&
      (IsIsoTime(words[0]) || (words.size() >= 3 && IsMonth(words[0]) && IsDigits(words[1])))) {
    std::string_view head = t.substr(0, kernel);
    e.time = std::string(IsIsoTime(words[0]) ? words[0] : head.substr(0, head.rfind(' ')));
    t = TrimView(t.substr(kernel + 9));
    shaped = true;
  } else if (!words.empty() && IsIsoTime(words[0])) {  // dmesg --time-format iso: "2026-11-30T14:15:29,000000+00:00 ..."
    e.time = std::string(words[0]);
    t = TrimView(t.substr(words[0].size()));
    shaped = true;
  }
  if (t.starts_with("[")) {  // "[   12.925245] " seconds since boot, or dmesg -T's "[Mon May 27 15:47:45 2024] "
    size_t close = t.find(']');
    if (close == std::string_view::npos) return shaped;
    std::string_view ts = TrimView(t.substr(1, close - 1));
    double seconds = 0;
    auto [end, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), seconds);
    if (ec == std::errc() && end == ts.data() + ts.size() && ts.find('.') != std::string_view::npos) {
      e.timestamp = seconds;  // the kernel always prints microseconds: "[1]" is some other tool's index
    } else if (ts.size() >= 20 && ts.size() <= 32 && IsWeekdayDate(ts)) {
      e.time = std::string(ts);
    } else {
      return shaped;
    }
    t = TrimView(t.substr(close + 1));
    shaped = true;
  }
  return shaped;
}

// "mlx5_core", "mlx5_ib", "mlx4_en", "pci", "pcieport": the writers whose lines concern the NIC.
bool OurDriver(std::string_view driver) {
  return driver == "mlx5_core" || driver == "mlx4_core" || driver == "mlx4_en" || driver == "mlx5_ib" || driver == "mlx4_ib" ||
         driver == "pci" || driver == "pcieport";
}

bool IsPciAddress(std::string_view s) {
  // "0000:03:00.0" or "03:00.0"
  return s.size() >= 7 && s[s.size() - 2] == '.' && s[s.size() - 5] == ':' && std::isxdigit(static_cast<unsigned char>(s[0]));
}

}  // namespace

KernelLog ParseDmesg(std::string_view text) {
  KernelLog log;
  LineReader lines(text);
  std::string_view line;
  int non_empty = 0;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    ++non_empty;
    KernelEvent e;
    e.line = lines.number();
    bool shaped = StripKernelPrefix(t, e);
    // "mlx5_core 0000:03:00.0: message", "mlx5_core 0000:03:00.0 ens1f0np0: Link up",
    // "mlx5_core: probe of ... failed", "pci 0000:01:01.2: ...", "pcieport 0004:00:00.0: AER: ..."
    size_t colon = t.find(": ");
    if (colon == std::string_view::npos) {
      if (shaped) ++log.kernel_lines;
      continue;
    }
    std::string_view head = t.substr(0, colon);
    std::vector<std::string_view> head_words = SplitWords(head);
    std::string_view driver = head_words.empty() ? std::string_view() : head_words[0];
    bool driver_shaped = head_words.size() >= 2 && IsPciAddress(head_words[1]);
    if (shaped || driver_shaped) ++log.kernel_lines;
    if (!OurDriver(driver)) continue;
    e.driver = std::string(driver);
    if (head_words.size() >= 2) e.device = std::string(head_words[1]);
    if (head_words.size() >= 3) e.values["netdev"] = std::string(head_words[2]);
    std::string_view message = t.substr(colon + 2);
    // "(mlx5_pcie_event:301:(pid 10): PCIe slot ...": the function, line and pid the driver prints first.
    size_t pid = message.find("(pid ");
    if (pid != std::string_view::npos && pid < 64 && message.find("): ", pid) != std::string_view::npos &&
        message.substr(0, pid).find(' ') == std::string_view::npos) {
      e.values["function"] = std::string(message.substr(0, message.find(':')));
      message = message.substr(message.find("): ", pid) + 3);
    }
    e.message = std::string(message);
    if (driver == "pci" && e.message.find("15b3") == std::string::npos && e.message.find("unknown header") == std::string::npos) {
      continue;  // the PCI core about some other vendor's device
    }
    Classify(e);
    if (driver == "pcieport" && e.kind != KernelEventKind::kPcieError) continue;  // only its AER/DPC reports
    log.events.push_back(std::move(e));
  }
  if (non_empty > 0 && log.kernel_lines == 0) {
    log.warnings.push_back({1, "no line has a kernel log's shape (dmesg, dmesg -T, journalctl -k, syslog); "
                               "nothing was read from this file"});
  }
  return log;
}

}  // namespace railyard
