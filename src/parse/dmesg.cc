#include "parse/dmesg.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "parse/key_value.h"
#include "parse/nic_drivers.h"
#include "util/lines.h"

namespace railyard {

std::string_view ToString(KernelEventKind kind) {
  switch (kind) {
    case KernelEventKind::kOther:
      return "other";
    case KernelEventKind::kFirmwareVersion:
      return "firmware-version";
    case KernelEventKind::kPcieBandwidth:
      return "pcie-bandwidth";
    case KernelEventKind::kPcieBandwidthLimited:
      return "pcie-bandwidth-limited";
    case KernelEventKind::kProbeFailed:
      return "probe-failed";
    case KernelEventKind::kLoadFailed:
      return "load-failed";
    case KernelEventKind::kFirmwareTimeout:
      return "firmware-timeout";
    case KernelEventKind::kSriovFailed:
      return "sriov-failed";
    case KernelEventKind::kUnknownHeaderType:
      return "unknown-header-type";
    case KernelEventKind::kCableEvent:
      return "cable-event";
    case KernelEventKind::kLinkEvent:
      return "link-event";
    case KernelEventKind::kFirmwareHealth:
      return "firmware-health";
    case KernelEventKind::kSlotPowerInsufficient:
      return "slot-power-insufficient";
    case KernelEventKind::kPcieError:
      return "pcie-error";
    case KernelEventKind::kFirmwareMissing:
      return "firmware-missing";
    case KernelEventKind::kNoSuitableFirmware:
      return "no-suitable-firmware";
    case KernelEventKind::kFirmwareLoaded:
      return "firmware-loaded";
    case KernelEventKind::kUnknownChip:
      return "unknown-chip";
    case KernelEventKind::kChipTimeout:
      return "chip-timeout";
    case KernelEventKind::kTxTimeout:
      return "tx-timeout";
    case KernelEventKind::kUsbEnumerated:
      return "usb-enumerated";
    case KernelEventKind::kUsbBelowTopSpeed:
      return "usb-below-top-speed";
    case KernelEventKind::kUsbDeviceId:
      return "usb-device-id";
    case KernelEventKind::kSymbolMismatch:
      return "symbol-mismatch";
  }
  return "other";
}

std::optional<KernelEventKind> KernelEventKindFromString(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(KernelEventKind::kSymbolMismatch); ++k) {
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
  // The word after `marker` up to the first of `stops` ("rtl_nic/rtl8125b-2.fw" after "load for ").
  auto word_after = [&](std::string_view marker, std::string_view stops = " ") {
    size_t at = m.find(marker);
    if (at == std::string_view::npos) return std::string();
    std::string_view rest = m.substr(at + marker.size());
    return std::string(rest.substr(0, rest.find_first_of(stops)));
  };
  if (m.starts_with("disagrees about version of symbol ") || (m.starts_with("Unknown symbol ") && has("(err "))) {
    e.kind = KernelEventKind::kSymbolMismatch;
    e.values["symbol"] = word_after(m.starts_with("Unknown") ? "Unknown symbol " : "of symbol ");
    e.values["disagrees"] = m.starts_with("disagrees") ? "yes" : "no";
  } else if (has("Direct firmware load for ") && has(" failed with error ")) {
    e.kind = KernelEventKind::kFirmwareMissing;
    e.values["file"] = word_after("Direct firmware load for ");
    e.values["error"] = word_after(" failed with error ");
  } else if (m.starts_with("firmware: failed to load ") || has("nable to load firmware ")) {
    // Debian's firmware_class "firmware: failed to load F (-2)"; r8169 "Unable to load firmware F (-2)";
    // r8152 and old r8169 "unable to load firmware patch F (-2)".
    e.kind = KernelEventKind::kFirmwareMissing;
    std::string file = m.starts_with("firmware: ") ? word_after("failed to load ")
                       : has("firmware patch ")    ? word_after("firmware patch ")
                                                   : word_after("load firmware ");
    e.values["file"] = file;
    e.values["error"] = word_after(" (", ")");
  } else if (has("request for firmware file '") && has("' failed")) {
    e.kind = KernelEventKind::kFirmwareMissing;
    e.values["file"] = word_after("request for firmware file '", "'");
  } else if (has("no suitable firmware found")) {
    e.kind = KernelEventKind::kNoSuitableFirmware;
  } else if (m.starts_with("minimum version required: ") || m.starts_with("maximum version supported: ")) {
    e.values[m.starts_with("minimum") ? "minimum" : "maximum"] = std::string(TrimView(m.substr(m.find(':') + 1)));
  } else if (m.starts_with("loaded firmware version ")) {
    e.kind = KernelEventKind::kFirmwareLoaded;
    std::vector<std::string_view> w = SplitWords(m.substr(24));
    if (!w.empty()) e.values["version"] = std::string(w[0]);
    if (w.size() >= 2 && w[1] != "op_mode") e.values["file"] = std::string(w[1]);
  } else if (m.starts_with("firmware: direct-loading firmware ")) {
    e.kind = KernelEventKind::kFirmwareLoaded;
    e.values["file"] = std::string(TrimView(m.substr(34)));
  } else if (has("unknown chip XID ")) {
    e.kind = KernelEventKind::kUnknownChip;
    e.values["xid"] = word_after("unknown chip XID ", " ,");
    if (has("error ")) e.values["error"] = word_after("error ", " :");
  } else if (m.starts_with("rtl_") && has("_cond == ") && has("(loop: ")) {
    e.kind = KernelEventKind::kChipTimeout;
    e.values["condition"] = std::string(m.substr(0, m.find(' ')));
  } else if (has("NETDEV WATCHDOG") && has("timed out")) {
    e.kind = KernelEventKind::kTxTimeout;
    e.values["queue"] = word_after("transmit queue ");
  } else if (has(" USB device number ") && (has("new ") || has("reset "))) {
    // "new high-speed USB device number 3 using xhci_hcd", "reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd"
    e.kind = KernelEventKind::kUsbEnumerated;
    bool reset = m.starts_with("reset ");
    e.values["reset"] = reset ? "yes" : "no";
    std::string_view speed = m.substr(reset ? 6 : 4);
    speed = speed.substr(0, speed.find(" USB device number "));
    e.values["speed"] = std::string(speed);
    e.values["mbps"] = speed.starts_with("low-speed")                         ? "1.5"
                       : speed.starts_with("full-speed")                      ? "12"
                       : speed.starts_with("high-speed")                      ? "480"
                       : speed.find("Plus Gen 2x2") != std::string_view::npos ? "20000"
                       : speed.find("Plus") != std::string_view::npos         ? "10000"
                       : speed.starts_with("SuperSpeed")                      ? "5000"
                                                                              : "";
    e.values["hcd"] = word_after(" using ");
  } else if (m.starts_with("not running at top speed")) {
    e.kind = KernelEventKind::kUsbBelowTopSpeed;
  } else if (m.starts_with("New USB device found, idVendor=")) {
    e.values["usb_id"] = word_after("idVendor=", ", ") + ":" + word_after("idProduct=", ", ");
    e.kind = KernelEventKind::kUsbDeviceId;
  } else if (m.starts_with("firmware version: ")) {
    e.kind = KernelEventKind::kFirmwareVersion;
    e.values["version"] = std::string(TrimView(m.substr(18)));
  } else if (has("available PCIe bandwidth")) {
    e.values["available_gbps"] = NumberBefore(m, " Gb/s available");
    if (has("limited by")) {
      e.kind = KernelEventKind::kPcieBandwidthLimited;
      size_t by = m.find("limited by ");
      size_t at = m.find(" at ", by);
      e.values["limited_by"] =
          std::string(m.substr(by + 11, at == std::string_view::npos ? std::string_view::npos : at - by - 11));
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
  } else if ((has("probe of ") || has("probe with driver ")) && has(" failed with error ")) {
    // "bnxt_en: probe of 0000:af:00.1 failed with error -1"; since Linux 6.x "igc 0001:03:00.0: probe with driver
    // igc failed with error -13".
    e.kind = KernelEventKind::kProbeFailed;
    if (size_t of = m.find("probe of "); of != std::string_view::npos && e.device.empty()) {
      std::string_view rest = m.substr(of + 9);
      e.device = std::string(rest.substr(0, rest.find(' ')));
    }
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
  } else if (has("Link up") || has("Link down") || m.starts_with("Link is Up") || m.starts_with("Link is Down") ||
             m.starts_with("NIC Link is Up") || m.starts_with("NIC Link is Down") || m == "link down" || m == "link up") {
    // mlx5 "Link up"; phylib and most Ethernet drivers "Link is Up - 1Gbps/Full - flow control off", "Link is Down";
    // Intel's e1000e/igb/ixgbe/i40e/ice "NIC Link is Up, 10 Gbps Full Duplex, ..." / "NIC Link is Down"; old r8169
    // "link down".
    e.kind = KernelEventKind::kLinkEvent;
    e.values["state"] = has("Link up") || has("Link is Up") || m == "link up" ? "up" : "down";
    if (m.starts_with("Link is Up - ")) e.values["speed"] = word_after("Link is Up - ");
    if (m.starts_with("NIC Link is Up")) {
      std::string_view rest = TrimView(m.substr(14));
      if (rest.starts_with(",")) rest = TrimView(rest.substr(1));
      e.values["speed"] = std::string(rest.substr(0, rest.find_first_of(",")));  // "10 Gbps Full Duplex"
    }
  }
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "Jan", "Feb" ... : the first word of a syslog / journalctl short line.
bool IsMonth(std::string_view s) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
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
  } else if (t.starts_with("kernel: ")) {  // a syslog/journal line whose time and host were cut away
    t = TrimView(t.substr(8));
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
  return driver == "pci" || driver == "pcieport" || driver == "usb" || FindNicDriver(driver) != nullptr;
}

// "2-1", "1-10.4", "2-1.1:2.0": a USB device or interface as the kernel names it.
bool IsUsbDevice(std::string_view s) {
  size_t dash = s.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 >= s.size()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != ':') return false;
  }
  return true;
}

// A serial-console capture's own prefix ("2024-11-18-_15:53:55_", "host login: ") before the kernel's
// "[   11.724874] ": the offset of that '[' within the first 64 bytes, or npos.
size_t EmbeddedTimestamp(std::string_view t) {
  for (size_t open = t.find('['); open != std::string_view::npos && open < 64; open = t.find('[', open + 1)) {
    size_t close = t.find(']', open);
    if (close == std::string_view::npos || close - open > 20) return std::string_view::npos;
    std::string_view ts = TrimView(t.substr(open + 1, close - open - 1));
    double seconds = 0;
    if (ts.find('.') != std::string_view::npos && WholeDouble(ts, seconds)) return open;
  }
  return std::string_view::npos;
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
    if (!shaped) {
      if (size_t at = EmbeddedTimestamp(t); at != std::string_view::npos && at > 0) {
        t = t.substr(at);
        shaped = StripKernelPrefix(t, e);
      }
    }
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
    std::string_view message = t.substr(colon + 2);
    if (head == "NETDEV WATCHDOG") {
      // The old watchdog line names no driver prefix: "NETDEV WATCHDOG: eth2 (r8125): transmit queue 0 timed out".
      size_t open = message.find(" ("), close = message.find("):");
      if (open == std::string_view::npos || close == std::string_view::npos || close < open) continue;
      e.driver = std::string(message.substr(open + 2, close - open - 2));
      e.values["netdev"] = std::string(message.substr(0, open));
      e.message = std::string(t);
      Classify(e);
      if (FindNicDriver(e.driver)) log.events.push_back(std::move(e));
      continue;
    }
    bool usb_device = head_words.size() == 2 && IsUsbDevice(head_words[1]);
    // A USB device bound to a device driver (r8152-cfgselector) has the USB core's enumeration lines under
    // that driver's name: keep them by their device name and message.
    bool usb_core =
        usb_device && (message.find(" USB device number ") != std::string_view::npos ||
                       message.starts_with("not running at top speed") || message.starts_with("New USB device found"));
    // Any module that disagrees with the running RDMA/NIC core's symbols (nv_peer_mem, ko2iblnd, mlx5_vdpa ...).
    bool rdma_symbol = head_words.size() == 1 &&
                       (message.starts_with("disagrees about version of symbol ") || message.starts_with("Unknown symbol ")) &&
                       [&] {
                         std::string_view sym = message.substr(message.rfind("symbol ") + 7);
                         while (sym.starts_with("_")) sym.remove_prefix(1);
                         return sym.starts_with("ib_") || sym.starts_with("rdma_") || sym.starts_with("mlx5_") ||
                                sym.starts_with("mlx4_") || sym.starts_with("mlxfw_") || sym.starts_with("uverbs_");
                       }();
    if (!OurDriver(driver) && !usb_core && !rdma_symbol) continue;
    if (driver == "usb" && !usb_core) continue;  // the USB core about hubs, descriptors, strings
    e.driver = std::string(driver);
    if (head_words.size() >= 2) e.device = std::string(head_words[1]);
    if (head_words.size() >= 3 && !head_words[2].starts_with("(") && !IsPciAddress(head_words[2])) {
      e.values["netdev"] = std::string(head_words[2]);
    }
    if (head_words.size() == 1 && message.find(": ") != std::string_view::npos && message.find(": ") <= 15 &&
        message.substr(0, message.find(": ")).find(' ') == std::string_view::npos) {
      // A vendor driver without a device: "r8125: eth1: Link is Up - 2.5Gbps/Full".
      e.values["netdev"] = std::string(message.substr(0, message.find(": ")));
      message = message.substr(message.find(": ") + 2);
    }
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
    log.warnings.push_back({1,
                            "no line has a kernel log's shape (dmesg, dmesg -T, journalctl -k, syslog); "
                            "nothing was read from this file"});
  }
  return log;
}

}  // namespace railyard
