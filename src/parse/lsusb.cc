#include "parse/lsusb.h"

#include <charconv>
#include <map>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

// "480M", "1.5M", "5000M", "20000M/x2" -> Mbit/s; 0 when not a speed.
double Speed(std::string_view s) {
  s = TrimView(s);
  size_t m = s.find('M');
  if (m == 0 || m == std::string_view::npos) return 0;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + m, v);
  return ec == std::errc() && p == s.data() + m ? v : 0;
}

// The fields after "Port N: " of a tree line: "Dev 4, If 0, Class=Vendor Specific Class, Driver=r8152, 480M".
bool ReadFields(std::string_view rest, UsbTreeNode& n) {
  bool speed = false;
  size_t start = 0;
  while (start <= rest.size()) {
    size_t comma = rest.find(", ", start);
    std::string_view f = TrimView(rest.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (f.starts_with("Dev "))
      n.dev = LeadingInt(f.substr(4));
    else if (f.starts_with("If "))
      n.interface = LeadingInt(f.substr(3));
    else if (f.starts_with("Class="))
      n.class_name = std::string(f.substr(6));
    else if (f.starts_with("Driver="))
      n.driver = std::string(f.substr(7));
    else if (double v = Speed(f); v > 0) {
      n.speed_mbps = v;
      speed = true;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 2;
  }
  return speed;
}

}  // namespace

UsbTree ParseLsusbTree(std::string_view text) {
  UsbTree tree;
  LineReader lines(text);
  std::string_view raw;
  struct Level {
    size_t column;
    std::string port;
  };
  std::vector<Level> stack;  // the ports above the current line, by the column of their "|__"
  int bus = 0;
  std::string pending;  // a tree line a mail client wrapped before its speed
  int pending_line = 0;
  size_t pending_column = 0;
  std::map<std::pair<int, int>, std::string> ids;  // (bus, dev) -> vvvv:pppp from plain lsusb lines
  auto finish = [&](std::string_view line, int number, size_t column) {
    size_t port_at = line.find("Port ");
    size_t colon = line.find(": ", port_at);
    UsbTreeNode n;
    n.bus = bus;
    n.line = number;
    std::string port(TrimView(line.substr(port_at + 5, colon - port_at - 5)));
    while (!stack.empty() && stack.back().column >= column) stack.pop_back();
    std::string path;
    for (const Level& l : stack) path += std::to_string(LeadingInt(l.port)) + ".";
    n.port_path = path + std::to_string(LeadingInt(port));
    stack.push_back({column, port});
    if (!ReadFields(line.substr(colon + 2), n)) {
      tree.warnings.push_back({number, "a device line without its speed (\"480M\", \"5000M\")"});
    }
    tree.nodes.push_back(std::move(n));
  };
  while (lines.Next(raw)) {
    std::string_view line = raw;
    while (line.starts_with(">")) line = line.substr(line.starts_with("> ") ? 2 : 1);  // mail quoting
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (!pending.empty()) {
      if (t.find("|__") == std::string_view::npos && !t.starts_with("/:")) {  // the wrapped rest
        std::string joined = pending + std::string(t);
        pending.clear();
        finish(joined, pending_line, pending_column);
        continue;
      }
      finish(pending, pending_line, pending_column);
      pending.clear();
    }
    if (t.starts_with("/:")) {
      // "/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/6p, 5000M"
      size_t b = t.find("Bus ");
      size_t dot = t.find('.', b);
      size_t colon = t.find(": ", dot == std::string_view::npos ? b : dot);
      if (b == std::string_view::npos || dot == std::string_view::npos || colon == std::string_view::npos) {
        tree.warnings.push_back({lines.number(), "a root-hub line without \"Bus N.Port N:\""});
        continue;
      }
      bus = LeadingInt(t.substr(b + 4, dot - b - 4));
      stack.clear();
      UsbTreeNode n;
      n.bus = bus;
      n.line = lines.number();
      ReadFields(t.substr(colon + 2), n);
      tree.nodes.push_back(std::move(n));
      continue;
    }
    if (size_t arrow = line.find("|__"); arrow != std::string_view::npos) {
      if (bus == 0) {
        tree.warnings.push_back({lines.number(), "a device line before any \"/:  Bus\" root hub"});
        continue;
      }
      std::string_view rest = line.substr(arrow + 3);
      if (TrimView(rest).find("Port ") != 0 || rest.find(": ") == std::string_view::npos) {
        tree.warnings.push_back({lines.number(), "a tree line without \"Port N:\""});
        continue;
      }
      if (Speed(SplitWords(rest).empty() ? "" : SplitWords(rest).back()) == 0 && !TrimView(rest).ends_with("M")) {
        pending = std::string(line);
        pending_line = lines.number();
        pending_column = arrow;
        continue;
      }
      finish(line, lines.number(), arrow);
      continue;
    }
    if (t.starts_with("ID ") && !tree.nodes.empty()) {  // lsusb -tv: "ID 0bda:8153 Realtek Semiconductor Corp. ..."
      std::vector<std::string_view> w = SplitWords(t);
      if (w.size() >= 2) tree.nodes.back().usb_id = std::string(w[1]);
      continue;
    }
    if (t.starts_with("Bus ") && t.find(" Device ") != std::string_view::npos && t.find(": ID ") != std::string_view::npos) {
      std::vector<std::string_view> w = SplitWords(t);  // "Bus 004 Device 004: ID 0bda:8153 Realtek ..."
      if (w.size() >= 6) ids[{LeadingInt(w[1]), LeadingInt(w[3])}] = std::string(w[5]);
      continue;
    }
    tree.warnings.push_back({lines.number(), "not a line of lsusb -t or lsusb; skipped"});
  }
  if (!pending.empty()) finish(pending, pending_line, pending_column);
  for (UsbTreeNode& n : tree.nodes) {
    if (auto it = ids.find({n.bus, n.dev}); it != ids.end() && n.usb_id.empty()) n.usb_id = it->second;
  }
  if (tree.nodes.empty() && !TrimView(text).empty()) {
    tree.warnings.push_back({1, "no \"/:  Bus\" line: not lsusb -t output"});
  }
  return tree;
}

}  // namespace railyard
