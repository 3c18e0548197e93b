// Rules for the network devices beyond ConnectX: Realtek NICs on the kernel's r8169, NIC and Wi-Fi firmware
// that did not load, USB Ethernet adapters held at USB 2.0 speed, and probe failures of any NIC driver.
// Each reads the kernel log and the netdev facts `collect` keeps for every driver in data/catalog/nic_drivers.csv.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/rules.h"
#include "parse/nic_drivers.h"

namespace railyard {
namespace {

bool Nvidia(const std::string& driver) { return driver.starts_with("mlx4") || driver.starts_with("mlx5"); }

std::string Value(const KernelEvent& e, const char* key) {
  auto it = e.values.find(key);
  return it == e.values.end() ? std::string() : it->second;
}

// Linux errno values a probe returns (include/uapi/asm-generic/errno-base.h, errno.h).
std::string ErrnoName(const std::string& error) {
  static const std::map<std::string, std::string> kNames = {
      {"-1", "EPERM"},    {"-2", "ENOENT"},      {"-5", "EIO"},        {"-12", "ENOMEM"}, {"-13", "EACCES"},
      {"-16", "EBUSY"},   {"-19", "ENODEV"},     {"-22", "EINVAL"},    {"-28", "ENOSPC"}, {"-34", "ERANGE"},
      {"-49", "EUNATCH"}, {"-95", "EOPNOTSUPP"}, {"-110", "ETIMEDOUT"}};
  auto it = kNames.find(error);
  return it == kNames.end() ? error : fmt::format("{} ({})", error, it->second);
}

// "PCI 0000:03:00.0", or "USB 4-1:1.0" for a USB adapter's interface (the kernel's USB names have a '-').
std::string DeviceObject(const std::string& device) {
  if (device.empty()) return "PCI ?";
  bool usb = device.find('-') != std::string::npos;  // PCI addresses never hold one
  return (usb ? "USB " : "PCI ") + device;
}

// "0000:03:00.0" and "03:00.0" name one function; "2-1.1:2.0" is an interface of USB device "2-1.1".
bool SameDevice(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  return SamePciAddress(a, b) || a.substr(0, a.find(':')) == b || b.substr(0, b.find(':')) == a;
}

void NicProbeFailed(RuleContext& c) {
  const auto& events = c.facts.kernel_events;
  std::set<std::string> reported;
  for (size_t i = 0; i < events.size(); ++i) {
    const KernelEvent& e = events[i];
    bool dead_chip = e.kind == KernelEventKind::kUnknownChip && (Value(e, "xid") == "fcf" || Value(e, "xid") == "fff");
    if ((e.kind != KernelEventKind::kProbeFailed || Nvidia(e.driver)) && !dead_chip) continue;
    if (!reported.insert(e.device).second) continue;
    // The driver's last words about the device before giving up say why: the nearest line is the cause
    // shown; the few before it are kept too, and the fix is chosen from all of them.
    std::vector<std::string> said;
    for (size_t j = i; j-- > 0 && said.size() < 4;) {
      if (SameDevice(events[j].device, e.device) && events[j].kind != KernelEventKind::kProbeFailed)
        said.push_back(events[j].message);
    }
    std::string cause = said.empty() ? std::string() : said.front();
    auto said_any = [&](std::string_view what) {
      for (const std::string& m : said) {
        if (m.find(what) != std::string::npos) return true;
      }
      return false;
    };
    std::string error = dead_chip ? "-19" : Value(e, "error");
    std::string why = dead_chip ? "the chip's registers read all ones (XID " + Value(e, "xid") +
                                      "): the device is powered off (D3cold) or gone, it is not a new chip"
                      : error == "-5"   ? "the device did not answer (I/O error)"
                      : error == "-12"  ? "the driver ran out of a resource (memory, MSI-X vectors, queues)"
                      : error == "-95"  ? "the card's firmware does not support what the driver asked for"
                      : error == "-110" ? "the card's firmware did not answer in time"
                      : error == "-19"  ? "the driver does not know this device"
                                        : "the driver gave up on the device";
    std::string fix =
        dead_chip ? "cold power-cycle the host (not a reboot); if the NIC stays inaccessible, turn off PCIe ASPM for it "
                    "(pcie_aspm=off, or the BIOS) and check the slot; replace the card or board if it persists"
        : said_any("MSI-X") ? "the host has more CPUs than the card has interrupt vectors for: limit the driver's queues (e.g. "
                              "ice/i40e module parameters, or fewer CPUs online at probe), or update to a driver that caps queues"
        : said_any("NVM Checksum")
            ? "the card's NVM (EEPROM) is corrupt: restore it with the vendor's NVM update tool; do not bypass the check"
        : said_any("Adapter removed")
            ? "the card dropped off the bus: reseat it, check the slot and riser power, and the PCIe AER errors around it"
            : "read the lines before it in dmesg; update the card's firmware/NVM and the driver to a matching release, "
              "reseat the card, and check the slot is enabled in the BIOS";
    Finding& f = c.Report(
        DeviceObject(e.device),
        fmt::format("{} could not take the device ({}): {}; the port does not exist for the OS", e.driver, ErrnoName(error), why),
        fix);
    f.evidence = {{"dmesg", e.message}, {"line", std::to_string(e.line)}, {"when", When(e)}, {"driver", e.driver}};
    if (!cause.empty()) f.evidence.emplace_back("cause", cause);
    for (size_t k = 1; k < said.size(); ++k) f.evidence.emplace_back("before", said[k]);
  }
  // lspci -k lists the modules that could drive a function and, when one does, "Kernel driver in use": a network
  // function with modules but no driver in use has no port at all.
  for (const PciFunction& p : c.facts.other_pci) {
    if (!p.driver.empty() || p.kernel_modules.empty()) continue;
    bool seen = false;
    for (const std::string& d : reported) seen |= SamePciAddress(d, p.bdf);
    if (seen) continue;
    std::string modules = fmt::format("{}", fmt::join(p.kernel_modules, ", "));
    c.Report(fmt::format("PCI {}", p.bdf),
             fmt::format("no driver is bound to this network function ({}) although {} could drive it: the OS has no port for it",
                         p.description, modules),
             fmt::format("load the driver (`modprobe {}`) and read dmesg for why it did not bind (a probe failure, a blacklist "
                         "in /etc/modprobe.d, or two drivers claiming the device)",
                         p.kernel_modules.front()))
        .evidence = {{"lspci", p.description}, {"kernel_modules", modules}, {"line", std::to_string(p.line)}};
  }
}

// The Realtek chip behind an r8169 device, from its probe line ("RTL8125B, 14:b3:..., XID 641, IRQ 91"), the
// lspci ids, or ethtool's firmware name ("rtl8125b-2_0.0.2 07/13/20").
const RealtekChip* ChipOf(const HostFacts& f, const std::string& device) {
  for (const KernelEvent& e : f.kernel_events) {
    if (e.driver == "r8169" && SameDevice(e.device, device) && e.message.find(", XID ") != std::string::npos) {
      std::string_view m = e.message;
      std::string_view xid = m.substr(m.find(", XID ") + 6);
      if (const RealtekChip* chip = RealtekChipByXid(xid.substr(0, xid.find(',')))) return chip;
    }
  }
  for (const PciFunction& p : f.other_pci) {
    if (!SamePciAddress(p.bdf, device)) continue;
    std::string id = p.device_id;
    if (p.vendor_id.empty()) {  // without -nn: the chip name in "Realtek ... RTL8125 2.5GbE Controller"
      size_t rtl = p.description.find("RTL81");
      if (p.description.find("Realtek") != std::string::npos && rtl != std::string::npos) id = p.description.substr(rtl + 3, 4);
    } else if (p.vendor_id != "10ec") {
      continue;
    }
    auto chips = RealtekChipsByPciDevice("10ec:" + id);
    if (!chips.empty()) return chips.front();
  }
  return nullptr;
}

void RealtekInboxDriver(RuleContext& c) {
  const HostFacts& f = c.facts;
  for (const KernelEvent& e : f.kernel_events) {
    if (e.kind != KernelEventKind::kUnknownChip || e.driver != "r8169") continue;
    std::string xid = Value(e, "xid");
    if (xid == "fcf" || xid == "fff") continue;  // a dead device (nic-probe-failed), not a new chip
    const RealtekChip* chip = RealtekChipByXid(xid);
    std::string kernel = f.kernel.empty() ? "this kernel" : "kernel " + f.kernel;
    Finding& x = c.Report(
        Severity::kError, fmt::format("PCI {}", e.device),
        fmt::format("{}'s r8169 does not know this Realtek chip (XID {}{}): the port has no driver", kernel, xid,
                    chip ? ", " + chip->chip : ""),
        chip ? fmt::format("install Realtek's {} driver (DKMS package or the vendor's source){}", chip->vendor_driver,
                           chip->r8169_since.empty() ? ", or a kernel whose r8169 lists the chip"
                                                     : fmt::format(", or run kernel {} or later, whose r8169 knows the {}",
                                                                   chip->r8169_since, chip->chip))
             : "install Realtek's vendor driver for the chip (r8125 for 2.5G, r8126 for 5G, r8168 for 1G) or a newer kernel");
    x.evidence = {{"dmesg", e.message}, {"line", std::to_string(e.line)}, {"xid", xid}};
    if (chip) x.evidence.emplace_back("chip_source", chip->source);
  }
  // r8169 on a 2.5G/5G chip with link or transmit trouble: the vendor driver is the known fix.
  std::map<std::string, std::vector<const KernelEvent*>> trouble;  // device -> events
  for (const KernelEvent& e : f.kernel_events) {
    if (e.driver != "r8169") continue;
    bool down = e.kind == KernelEventKind::kLinkEvent && Value(e, "state") == "down";
    if (down || e.kind == KernelEventKind::kTxTimeout || e.kind == KernelEventKind::kChipTimeout) trouble[e.device].push_back(&e);
  }
  for (const auto& [device, events] : trouble) {
    int downs = 0, timeouts = 0;
    for (const KernelEvent* e : events) (e->kind == KernelEventKind::kLinkEvent ? downs : timeouts)++;
    if (downs < c.policy.Get(kLinkFlapDowns) && timeouts == 0) continue;
    const RealtekChip* chip = ChipOf(f, device);
    std::string firmware;
    for (const NetdevFacts& n : f.netdevs) {
      if (SamePciAddress(n.pci_bdf, device) && n.driver == "r8169") firmware = n.firmware_version;
    }
    if (!chip && firmware.starts_with("rtl8125")) chip = RealtekChipByXid("641");
    if (!chip && firmware.starts_with("rtl8126")) chip = RealtekChipByXid("649");
    if (!chip || chip->speed_mbps < 2500) continue;  // gigabit chips: link-flapping covers them
    const KernelEvent& last = *events.back();
    c.Report(Severity::kWarning, fmt::format("PCI {}", device),
             fmt::format("{} ({} Mb/s) on the kernel's r8169 shows {} link drop(s) and {} transmit/chip timeout(s): r8169's "
                         "support for this chip is known to be less stable than Realtek's {} driver",
                         chip->chip, chip->speed_mbps, downs, timeouts, chip->vendor_driver),
             fmt::format("install Realtek's {} driver (DKMS) and blacklist r8169 for this device; also try turning PCIe "
                         "ASPM off for it (pcie_aspm=off) and check the cable and the switch port's speed",
                         chip->vendor_driver))
        .evidence = {{"chip", chip->chip},   {"link_down_events", std::to_string(downs)}, {"timeouts", std::to_string(timeouts)},
                     {"last", last.message}, {"line", std::to_string(last.line)},         {"when", When(last)}};
  }
}

// One finding per device: the files its driver asked for and could not load.
void FirmwareMissing(RuleContext& c, bool wifi) {
  struct Device {
    std::string driver;
    std::vector<std::string> files;
    const KernelEvent* first = nullptr;
    const KernelEvent* loaded = nullptr;
    bool gave_up = false;
    std::string minimum, maximum;
  };
  std::map<std::string, Device> devices;
  for (const KernelEvent& e : c.facts.kernel_events) {
    const NicDriver* d = FindNicDriver(e.driver);
    if (!d || (d->medium == "wifi") != wifi || Nvidia(e.driver)) continue;
    Device& dev = devices[e.device];
    dev.driver = e.driver;
    if (e.kind == KernelEventKind::kFirmwareMissing) {
      if (!dev.first) dev.first = &e;
      std::string file = Value(e, "file");
      if (std::find(dev.files.begin(), dev.files.end(), file) == dev.files.end()) dev.files.push_back(file);
    } else if (e.kind == KernelEventKind::kNoSuitableFirmware) {
      dev.gave_up = true;
    } else if (e.kind == KernelEventKind::kFirmwareLoaded) {
      dev.loaded = &e;
    }
    if (e.values.count("minimum")) dev.minimum = e.values.at("minimum");
    if (e.values.count("maximum")) dev.maximum = e.values.at("maximum");
  }
  for (const auto& [device, d] : devices) {
    if (!d.first) continue;
    std::string files = fmt::format("{}", fmt::join(d.files, ", "));
    Finding* x = nullptr;
    if (wifi) {
      if (d.loaded && !d.gave_up) {
        x = &c.Report(Severity::kInfo, DeviceObject(device),
                      fmt::format("{} tried {} firmware file(s) it could not find ({}) and then loaded {}: Wi-Fi works on an "
                                  "older firmware",
                                  d.driver, d.files.size(), files,
                                  Value(*d.loaded, "file").empty() ? Value(*d.loaded, "version") : Value(*d.loaded, "file")),
                      "nothing is broken; update the linux-firmware package to get the newest firmware the driver supports");
      } else {
        x = &c.Report(Severity::kError, DeviceObject(device),
                      fmt::format("{} found no firmware it can use ({} file(s) tried: {}){}: the Wi-Fi device does not come up",
                                  d.driver, d.files.size(), files,
                                  d.minimum.empty()
                                      ? ""
                                      : fmt::format("; it needs {} to {}", d.minimum, d.maximum.empty() ? "(newer)" : d.maximum)),
                      "install the linux-firmware package (Debian: firmware-iwlwifi) new enough to hold one of those files in "
                      "/lib/firmware, then reload the driver (modprobe -r iwlwifi && modprobe iwlwifi) or reboot");
      }
    } else {
      x = &c.Report(DeviceObject(device),
                    fmt::format("{} asked for firmware it could not load ({}): the NIC runs without it (Realtek: no PHY "
                                "patch, known to cause link and stability trouble; others may refuse to start)",
                                d.driver, files),
                    "install the distribution's firmware package holding " + files +
                        " (Debian firmware-realtek / firmware-misc-nonfree, RHEL/Ubuntu linux-firmware) and rebuild the "
                        "initramfs, then reload the driver or reboot");
    }
    x->evidence = {{"dmesg", d.first->message}, {"line", std::to_string(d.first->line)}, {"files", files}, {"driver", d.driver}};
  }
}

void NicFirmwareMissing(RuleContext& c) { FirmwareMissing(c, false); }
void WifiFirmwareMissing(RuleContext& c) { FirmwareMissing(c, true); }

void UsbNicBelowUsb3(RuleContext& c) {
  std::set<std::string> reported;
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.usb_speed_mbps <= 0 || n.usb_speed_mbps > 480) continue;
    const UsbNic* chip = n.usb_id.empty() ? nullptr : UsbNicById(n.usb_id);
    uint32_t link = std::max<uint32_t>(BestLinkModeMbps(n.supported_link_modes), n.speed_mbps);
    bool usb3 = (chip && chip->usb_generation >= 3) || link > 480;
    if (!usb3) continue;
    reported.insert(n.usb_device);
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("the USB network adapter{} runs its USB link at {:g} Mbit/s (USB 2.0){}: every packet crosses that "
                         "link, so the port cannot pass more than 480 Mbit/s (less after USB overhead), whatever its Ethernet "
                         "link says",
                         chip ? " (" + chip->chip + ")" : "", n.usb_speed_mbps,
                         link > 480 ? fmt::format(" while the adapter does {} Mb/s", link) : ""),
             "plug it into a USB 3 port (blue, or SS-marked) directly, not through a USB 2.0 hub or the USB 2.0 half of a "
             "dock; use a USB 3 cable; `lsusb -t` should then show 5000M for it")
        .evidence = {{"usb_speed_mbps", fmt::format("{:g}", n.usb_speed_mbps)},
                     {"from", n.usb_speed_from},
                     {"usb_device", n.usb_device},
                     {"usb_id", n.usb_id},
                     {"driver", n.driver}};
  }
  // From lsusb alone (no netdev matched): an adapter interface whose USB id names a USB 3 chip, on a 480M link.
  for (const UsbTreeNode& u : c.facts.usb) {
    const NicDriver* d = FindNicDriver(u.driver);
    const UsbNic* chip = u.usb_id.empty() ? nullptr : UsbNicById(u.usb_id);
    if (!d || d->bus != "usb" || !chip || chip->usb_generation < 3 || u.speed_mbps <= 0 || u.speed_mbps > 480) continue;
    if (!reported.insert(u.Device()).second) continue;
    c.Report(fmt::format("USB {}", u.Device()),
             fmt::format("the USB network adapter ({}, driver {}) runs its USB link at {:g} Mbit/s (USB 2.0): its throughput is "
                         "capped below 480 Mbit/s, whatever its Ethernet link says",
                         chip->chip, u.driver, u.speed_mbps),
             "plug it into a USB 3 port directly, not through a USB 2.0 hub or the USB 2.0 half of a dock; use a USB 3 cable")
        .evidence = {{"usb_speed_mbps", fmt::format("{:g}", u.speed_mbps)}, {"from", "lsusb -t"}, {"usb_id", u.usb_id}};
  }
  // From the kernel log alone: the USB core says "not running at top speed" for a device whose interface a
  // network driver took.
  std::map<std::string, const KernelEvent*> below;
  std::map<std::string, std::string> nic_driver, usb_id;
  for (const KernelEvent& e : c.facts.kernel_events) {
    std::string device = e.device.substr(0, e.device.find(':'));
    if (e.kind == KernelEventKind::kUsbBelowTopSpeed) below[device] = &e;
    if (e.kind == KernelEventKind::kUsbDeviceId) usb_id[device] = Value(e, "usb_id");
    if (const NicDriver* d = FindNicDriver(e.driver); d && d->bus == "usb" && e.device.find(':') != std::string::npos) {
      nic_driver[device] = e.driver;
    }
  }
  for (const auto& [device, e] : below) {
    if (reported.count(device)) continue;
    const UsbNic* chip = usb_id.count(device) ? UsbNicById(usb_id[device]) : nullptr;
    if (!nic_driver.count(device) && !chip) continue;
    c.Report(fmt::format("USB {}", device),
             fmt::format("the kernel says the USB network adapter{} on {} is not running at top speed: it enumerated "
                         "below the USB generation it supports, so its throughput is capped by the slower USB link",
                         chip ? " (" + chip->chip + ")" : "", device),
             "plug it into a USB 3 port directly, not through a USB 2.0 hub or the USB 2.0 half of a dock; use a USB 3 cable")
        .evidence = {{"dmesg", e->message},
                     {"line", std::to_string(e->line)},
                     {"when", When(*e)},
                     {"driver", nic_driver.count(device) ? nic_driver[device] : ""}};
  }
}

}  // namespace

// Also used by link-below-capability: the ports of non-NVIDIA NICs, from ethtool's link modes.
void LinkBelowCapabilityOtherNics(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (Nvidia(n.driver) || n.operstate != "up" || n.speed_mbps == 0 || n.partner_link_modes.empty()) continue;
    uint32_t best = BestLinkModeMbps(n.supported_link_modes, &n.partner_link_modes);
    if (best <= n.speed_mbps) continue;
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("the link runs at {} Mb/s but this port and its link partner both advertise {} Mb/s: cable category, "
                         "a forced speed, or a bad negotiation holds it down",
                         n.speed_mbps, best),
             "check the cable (Cat5e/6 for 2.5G/5G, Cat6a for 10GBASE-T) and that neither end forces the speed (`ethtool " +
                 n.name + "`, the switch port); re-negotiate with `ethtool -r " + n.name + "`")
        .evidence = {
        {"speed_mbps", std::to_string(n.speed_mbps)}, {"best_common_mbps", std::to_string(best)}, {"driver", n.driver}};
  }
}

void AddOtherNicRules(std::vector<HostRule>& rules) {
  rules.push_back({"nic-probe-failed", Severity::kError, "a NIC driver (not mlx4/mlx5) failed to take its device (kernel log)",
                   NicProbeFailed});
  rules.push_back({"realtek-inbox-driver", Severity::kWarning,
                   "a Realtek 2.5G/5G chip the kernel's r8169 does not know or drives unstably", RealtekInboxDriver});
  rules.push_back({"nic-firmware-missing", Severity::kWarning, "a NIC driver could not load a firmware file it asked for",
                   NicFirmwareMissing});
  rules.push_back({"wifi-firmware-missing", Severity::kError,
                   "a Wi-Fi driver found no firmware (info when it fell back to an older one)", WifiFirmwareMissing});
  rules.push_back(
      {"usb-nic-below-usb3", Severity::kWarning, "a USB 3 network adapter enumerated at USB 2.0 speed (480M)", UsbNicBelowUsb3});
}

}  // namespace railyard
