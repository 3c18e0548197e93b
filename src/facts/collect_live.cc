// The live half of `railyard collect`: sysfs and procfs read directly, tools run when installed.
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "facts/capture_slots.h"
#include "facts/collect.h"
#include "parse/ibstat.h"
#include "util/file.h"
#include "util/run.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string ReadTrimmed(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line;
}

uint32_t ReadNumber(const fs::path& path) {
  std::string text = ReadTrimmed(path);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && v > 0 ? static_cast<uint32_t>(v) : 0;  // "-1" speed = unknown
}

std::string LinkTarget(const fs::path& link) {
  std::error_code ec;
  fs::path target = fs::read_symlink(link, ec);
  return ec ? std::string() : target.filename().string();
}

int LeadingNumber(const std::string& s) {
  size_t i = s.find_first_not_of(" \t");
  int v = -1;
  if (i != std::string::npos) std::from_chars(s.data() + i, s.data() + s.size(), v);
  return v;
}

bool LooksLikePciAddress(const std::string& s) {
  return s.size() >= 7 && s.find(':') != std::string::npos && s.find('.') != std::string::npos;
}

// The collection's record of what it read and what it could not: every source, present or not.
class SourceLog {
 public:
  explicit SourceLog(CollectInputs& in) : in_(in) {}
  void operator()(const std::string& name, bool present, const std::string& detail) {
    in_.sources.push_back({name, present, detail, {}});
  }

 private:
  CollectInputs& in_;
};

// A USB adapter: `device` is its USB interface ("2-1:1.0"); the USB device above it says the speed its
// link enumerated at (Mbit/s: 480 is USB 2.0) and its ids.
void ReadUsbParent(const fs::path& dir, NetdevSnapshot& s) {
  std::error_code ec;
  fs::path usb = fs::canonical(dir / "device", ec).parent_path();
  if (ec || !fs::exists(usb / "speed") || !fs::exists(usb / "idVendor")) return;
  s.usb_device = usb.filename().string();
  s.usb_speed_mbps = std::strtod(ReadTrimmed(usb / "speed").c_str(), nullptr);
  s.usb_id = ReadTrimmed(usb / "idVendor") + ":" + ReadTrimmed(usb / "idProduct");
}

// What kind of device a netdev is, from its sysfs entries: the same words a capture's `ip -d link` gives.
std::string NetdevKind(const fs::path& dir, const NetdevSnapshot& s) {
  if (s.name == "lo") return "loopback";
  if (fs::exists(dir / "bonding")) return "bond";
  if (fs::exists(dir / "bridge")) return "bridge";
  if (ReadFileIfReadable((dir / "uevent").string()).value_or("").find("DEVTYPE=vlan") != std::string::npos) return "vlan";
  if (!s.pci_bdf.empty() || !s.usb_device.empty()) return "physical";
  return "other";  // refined to veth from `ethtool -i` when available
}

// One network interface: /sys/class/net/<if>/...
NetdevSnapshot ReadNetdev(const fs::path& dir, const LiveOptions& o) {
  NetdevSnapshot s;
  s.name = dir.filename().string();
  s.mtu = ReadNumber(dir / "mtu");
  s.operstate = ReadTrimmed(dir / "operstate");
  std::string carrier = ReadTrimmed(dir / "carrier");  // unreadable while the device is down
  if (carrier == "1") s.carrier = true;
  if (carrier == "0") s.carrier = false;
  s.mac = ReadTrimmed(dir / "address");
  s.speed_mbps = ReadNumber(dir / "speed");
  s.duplex = ReadTrimmed(dir / "duplex");
  std::string flags = ReadTrimmed(dir / "flags");
  unsigned long bits = flags.empty() ? 0 : std::strtoul(flags.c_str(), nullptr, 16);
  s.promiscuous = (bits & 0x100) != 0;  // IFF_PROMISC
  s.master = LinkTarget(dir / "master");
  std::string device = LinkTarget(dir / "device");
  if (LooksLikePciAddress(device)) s.pci_bdf = device;
  if (device.find(':') != std::string::npos && s.pci_bdf.empty()) ReadUsbParent(dir, s);
  s.kind = NetdevKind(dir, s);
  std::error_code ec;
  for (const auto& q : fs::directory_iterator(dir / "queues", ec)) {
    std::string qn = q.path().filename().string();
    if (qn.starts_with("tx-")) ++s.tx_queues;
    if (qn.starts_with("rx-")) ++s.rx_queues;
  }
  if (s.kind == "vlan") {
    // /proc/net/vlan/<if>: "bond1.4003  VID: 4003\t REORDER_HDR: 1 ..."
    std::string first = ReadTrimmed(fs::path(o.procfs) / "net" / "vlan" / s.name);
    if (size_t at = first.find("VID:"); at != std::string::npos) s.vlan_id = LeadingNumber(first.substr(at + 4));
  }
  return s;
}

// Every interface, in name order, with its lower device: iflink names the ifindex of the device this one
// sits on (VLAN, macvlan, veth peer); equal to its own ifindex for a device that sits on nothing.
std::vector<fs::path> ReadNetdevs(const LiveOptions& o, CollectInputs& in, SourceLog& note) {
  const fs::path net = fs::path(o.sysfs) / "class" / "net";
  std::error_code ec;
  std::vector<fs::path> ifaces;
  for (const auto& entry : fs::directory_iterator(net, ec)) ifaces.push_back(entry.path());
  std::sort(ifaces.begin(), ifaces.end());
  note("/sys/class/net", !ec, ec ? ec.message() : net.string());
  for (const fs::path& dir : ifaces) in.netdevs.push_back(ReadNetdev(dir, o));
  std::vector<std::string> own(ifaces.size());
  std::map<std::string, std::string> by_index;
  for (size_t i = 0; i < ifaces.size(); ++i) {
    own[i] = ReadTrimmed(ifaces[i] / "ifindex");
    by_index[own[i]] = ifaces[i].filename().string();
  }
  for (size_t i = 0; i < ifaces.size(); ++i) {
    std::string link = ReadTrimmed(ifaces[i] / "iflink");
    if (!link.empty() && link != own[i] && by_index.count(link)) in.netdevs[i].lower = by_index[link];
  }
  return ifaces;
}

// Addresses: getifaddrs (no tool needed); link-local ones are omitted as in captures.
void ReadAddresses(CollectInputs& in, SourceLog& note) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) {
    note("getifaddrs", false, "failed");
    return;
  }
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || (a->ifa_addr->sa_family != AF_INET && a->ifa_addr->sa_family != AF_INET6)) continue;
    bool v6 = a->ifa_addr->sa_family == AF_INET6;
    if (v6 && IN6_IS_ADDR_LINKLOCAL(&reinterpret_cast<sockaddr_in6*>(a->ifa_addr)->sin6_addr)) continue;
    char host[NI_MAXHOST];
    socklen_t len = v6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
    if (getnameinfo(a->ifa_addr, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) continue;
    int prefix = 0;
    if (a->ifa_netmask) {
      const auto* bytes = v6 ? reinterpret_cast<const unsigned char*>(&reinterpret_cast<sockaddr_in6*>(a->ifa_netmask)->sin6_addr)
                             : reinterpret_cast<const unsigned char*>(&reinterpret_cast<sockaddr_in*>(a->ifa_netmask)->sin_addr);
      for (int b = 0; b < (v6 ? 16 : 4); ++b) prefix += __builtin_popcount(bytes[b]);
    }
    std::string text = host;
    if (size_t pct = text.find('%'); pct != std::string::npos) text.resize(pct);
    for (NetdevSnapshot& n : in.netdevs) {
      if (n.name == a->ifa_name) n.addresses.push_back(fmt::format("{}/{}", text, prefix));
    }
  }
  freeifaddrs(list);
  note("getifaddrs", true, "addresses");
}

// RoCE ECN switches (mlx5): ecn/roce_np|roce_rp/enable/<priority>, as "PATH:VALUE" lines so a live read and
// a captured `grep -H` share one parser.
void ReadEcnKnobs(const std::vector<fs::path>& ifaces, CollectInputs& in) {
  for (const fs::path& dir : ifaces) {
    std::string lines;
    for (const char* point : {"roce_np", "roce_rp"}) {
      for (int prio = 0; prio < 8; ++prio) {
        fs::path knob = dir / "ecn" / point / "enable" / std::to_string(prio);
        std::string value = ReadTrimmed(knob);
        if (!value.empty()) lines += knob.string() + ":" + value + "\n";
      }
    }
    if (!lines.empty()) in.ecn[dir.filename().string()] = lines;
  }
}

// The server's identity, its OS and kernel command line: /sys/class/dmi/id is world-readable for these
// attributes (dmidecode needs root).
void ReadHostIdentity(const LiveOptions& o, CollectInputs& in, SourceLog& note) {
  std::string dmi;
  for (const char* key : {"sys_vendor", "product_name", "board_name", "bios_vendor", "bios_version", "bios_date"}) {
    fs::path p = fs::path(o.sysfs) / "class" / "dmi" / "id" / key;
    std::string value = ReadTrimmed(p);
    if (!value.empty()) dmi += p.string() + ":" + value + "\n";
  }
  if (!dmi.empty()) in.dmidecode = dmi;
  note("dmidecode", !dmi.empty(),
       !dmi.empty() ? (fs::path(o.sysfs) / "class/dmi/id").string() : "no /sys/class/dmi/id (not x86/ARM SMBIOS)");
  if (auto text = ReadFileIfReadable(o.os_release)) {
    in.os_release = std::move(*text);
    note("os-release", true, o.os_release);
  } else {
    note("os-release", false, o.os_release + " unreadable");
  }
  const std::string cmdline = (fs::path(o.procfs) / "cmdline").string();
  if (auto text = ReadFileIfReadable(cmdline)) {
    in.cmdline = text->substr(0, text->find('\n'));
    note("/proc/cmdline", true, cmdline);
  } else {
    note("/proc/cmdline", false, "unreadable");
  }
}

// Each file of DIR whose name `wanted` accepts, into `into` by name; an unreadable one is recorded as such.
void ReadFilesOf(const fs::path& dir, const std::function<bool(const std::string&)>& wanted,
                 std::map<std::string, std::string>& into, SourceLog& note, const std::string& unreadable) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::string name = path.filename().string();
    if (!wanted(name)) continue;
    if (auto text = ReadFileIfReadable(path.string())) {
      into[name] = std::move(*text);
      note(path.string(), true, path.string());
    } else {
      note(path.string(), false, unreadable);
    }
  }
}

// Bonds: /proc/net/bonding/<bond>.
void ReadBonding(const LiveOptions& o, CollectInputs& in, SourceLog& note) {
  ReadFilesOf(
      fs::path(o.procfs) / "net" / "bonding", [](const std::string&) { return true; }, in.bonding, note, "unreadable");
}

// RHEL ifcfg files and Ubuntu netplan files (root-only readable on recent releases: recorded when unreadable).
void ReadNetworkConfiguration(const LiveOptions& o, CollectInputs& in, SourceLog& note) {
  ReadFilesOf(
      o.network_scripts, [](const std::string& name) { return name.starts_with("ifcfg-") && name != "ifcfg-lo"; }, in.ifcfg, note,
      "unreadable");
  ReadFilesOf(
      o.netplan_dir, [](const std::string& name) { return name.ends_with(".yaml") || name.ends_with(".yml"); }, in.netplan, note,
      "unreadable (netplan files are root-only)");
}

// VPD of the Mellanox/NVIDIA functions, straight from sysfs (root can read it).
void ReadVpd(const LiveOptions& o, CollectInputs& in, SourceLog& note) {
  const fs::path pci = fs::path(o.sysfs) / "bus" / "pci" / "devices";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(pci, ec)) {
    if (ReadTrimmed(entry.path() / "vendor") != "0x15b3") continue;
    std::optional<std::string> bytes = ReadFileIfReadable((entry.path() / "vpd").string());
    std::string name = entry.path().filename().string();
    if (bytes && !bytes->empty()) in.vpd[name] = *bytes;
    note("vpd " + name, bytes && !bytes->empty(), bytes ? "read" : "unreadable (needs root)");
  }
}

// Runs one tool (argv only, never a shell; with the timeout) and records what became of it.
class ToolRunner {
 public:
  ToolRunner(int timeout_ms, SourceLog& note) : timeout_ms_(timeout_ms), note_(note) {}
  // empty_ok: a tool whose silence is an answer (lspci -d 15b3: prints nothing when no such device exists).
  std::optional<std::string> operator()(const std::vector<std::string>& argv, const std::string& name,
                                        bool empty_ok = false) const {
    RunResult r = RunTool(argv, timeout_ms_);
    if (!r.started) {
      note_(name, false, argv[0] + " not installed");
      return std::nullopt;
    }
    if (r.timed_out) {
      note_(name, false, fmt::format("timed out after {} ms", timeout_ms_));
      return std::nullopt;
    }
    if (r.output.empty() && empty_ok && r.exit_code == 0) {
      note_(name, true, "ran (exit 0) and listed nothing");
      return r.output;
    }
    if (r.output.empty()) {
      note_(name, false, fmt::format("no output (exit {})", r.exit_code));
      return std::nullopt;
    }
    note_(name, true, fmt::format("exit {}", r.exit_code));
    return r.output;
  }
  int timeout_ms() const { return timeout_ms_; }

 private:
  int timeout_ms_;
  SourceLog& note_;
};

// The objects a live command runs for, from what live collection has read so far.
std::vector<std::string> LiveObjects(LiveScope scope, const CollectInputs& in) {
  std::vector<std::string> out;
  switch (scope) {
    case LiveScope::kNone:
      break;
    case LiveScope::kOnce:
      out.emplace_back();
      break;
    case LiveScope::kEachNetdev:
    case LiveScope::kEachPhysicalNetdev:
    case LiveScope::kEachRoceNetdev:
      for (const NetdevSnapshot& s : in.netdevs) {
        if (s.kind == "loopback") continue;
        if (scope != LiveScope::kEachNetdev && s.kind != "physical") continue;
        if (scope == LiveScope::kEachRoceNetdev && !in.ecn.count(s.name)) continue;
        out.push_back(s.name);
      }
      break;
    case LiveScope::kEachCard: {
      std::set<std::string> cards;
      for (const NetdevSnapshot& s : in.netdevs) {
        if (!s.pci_bdf.empty()) cards.insert(s.pci_bdf);
      }
      out.assign(cards.begin(), cards.end());
      break;
    }
    case LiveScope::kEachIbstatCa:
      if (in.ibstat) {
        for (const IbstatCa& ca : ParseIbstat(*in.ibstat).cas) out.push_back(ca.name);
      }
      break;
  }
  return out;
}

std::vector<std::string> WithObject(const std::vector<const char*>& argv, const std::string& object) {
  std::vector<std::string> out;
  for (const char* arg : argv) out.push_back(std::string_view(arg) == "{}" ? object : arg);
  return out;
}

// Runs each slot's live command (capture_slots.cc) in the table's order, for each of its objects, into
// the slot's member, under the slot's source name, so that a live host's facts name their sources as a
// capture's do ("ethtool -S eth0", "flint q 0000:19:00.0").
void RunLiveCommands(const ToolRunner& run, CollectInputs& in, SourceLog& note) {
  for (const CaptureSlot& slot : CaptureSlots()) {
    const LiveCommand& live = slot.live;
    if (live.scope == LiveScope::kNone) continue;
    bool answered = false;
    for (auto member : live.unless) answered |= (in.*member).has_value();
    if (answered) continue;
    const std::vector<std::string> objects = LiveObjects(live.scope, in);
    if (objects.empty()) continue;
    std::string tool = slot.tool ? slot.tool : live.argv[0];
    if (!OnPath(live.argv[0])) {
      while (tool.ends_with(' ')) tool.pop_back();
      if (!live.only_if_installed) note(tool, false, std::string(live.argv[0]) + " not installed");
      continue;
    }
    for (const std::string& object : objects) {
      std::optional<std::string> out = run(WithObject(live.argv, object), tool + object, live.empty_ok);
      for (const auto& more : live.also) {
        RunResult r = RunTool(WithObject(more, object), run.timeout_ms());
        if (!r.started || r.timed_out || r.exit_code != 0 || r.output.empty()) continue;
        if (!out) out = std::string();
        *out += (out->empty() || out->ends_with("\n") ? "" : "\n") + r.output;
      }
      if (!out) continue;
      if (slot.per_object) {
        (in.*slot.per_object)[object] = std::move(*out);
      } else if (slot.text) {
        in.*slot.text = std::move(*out);
      } else if (slot.identity) {
        in.*slot.identity = IdentityValue(*out);
      }
    }
  }
}

}  // namespace

CollectInputs CollectLive(const LiveOptions& o) {
  CollectInputs in;
  SourceLog note(in);
  utsname u{};
  if (uname(&u) == 0) {
    in.hostname = u.nodename;
    in.kernel = u.release;
  }
  const std::vector<fs::path> ifaces = ReadNetdevs(o, in, note);
  if (o.sysfs == "/sys") ReadAddresses(in, note);  // the live host's own, not a prepared tree's
  ReadEcnKnobs(ifaces, in);
  ReadHostIdentity(o, in, note);
  ReadBonding(o, in, note);
  ReadVpd(o, in, note);
  ReadNetworkConfiguration(o, in, note);
  if (o.run_tools) {
    const ToolRunner run(o.tool_timeout_ms, note);
    RunLiveCommands(run, in, note);
  }
  return in;
}

}  // namespace railyard
