#include "parse/dmesg.h"

#include <charconv>

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
  }
  return "other";
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
  } else if (has("Link up") || has("Link down")) {
    e.kind = KernelEventKind::kLinkEvent;
    e.values["state"] = has("Link up") ? "up" : "down";
  }
}

}  // namespace

KernelLog ParseDmesg(std::string_view text) {
  KernelLog log;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    KernelEvent e;
    e.line = lines.number();
    if (t.starts_with("[")) {  // "[   12.925245] " timestamp
      size_t close = t.find(']');
      if (close == std::string_view::npos) continue;
      std::string_view ts = TrimView(t.substr(1, close - 1));
      double seconds = 0;
      if (std::from_chars(ts.data(), ts.data() + ts.size(), seconds).ec == std::errc()) e.timestamp = seconds;
      t = TrimView(t.substr(close + 1));
    }
    // "mlx5_core 0000:03:00.0: message" or "mlx5_core: probe of ... failed" or "pci 0000:01:01.2: ..."
    size_t colon = t.find(": ");
    if (colon == std::string_view::npos) continue;
    std::string_view head = t.substr(0, colon);
    std::string_view driver = head.substr(0, head.find(' '));
    if (driver != "mlx5_core" && driver != "mlx4_core" && driver != "mlx4_en" && driver != "pci") continue;
    e.driver = std::string(driver);
    if (head.size() > driver.size()) e.device = std::string(TrimView(head.substr(driver.size())));
    e.message = std::string(t.substr(colon + 2));
    if (driver == "pci" && e.message.find("15b3") == std::string::npos && e.message.find("unknown header") == std::string::npos) {
      continue;  // the PCI core about some other vendor's device
    }
    Classify(e);
    log.events.push_back(std::move(e));
  }
  return log;
}

}  // namespace railyard
