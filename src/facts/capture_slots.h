// Every file a capture directory (`railyard collect --from DIR`) may hold, and what live collection runs
// to get the same, declared once. ReadCaptureDir reads by this table and CollectLive runs its live
// commands; `railyard collect --list-slots` prints it; the no-silent-drop test puts every fixture in
// every slot; capture_slots_test holds docs/facts.md, the prefix order and the live commands' order to
// it. A parser for a new capture is one row here and its CollectInputs member.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "facts/collect.h"

namespace railyard {

// How a missing file is recorded: named as a gap for the tools every host should have been asked (a
// missing dmesg.txt is a gap; a missing ibstatus.txt is not), or on ESXi hosts only.
enum class WhenAbsent { kSilent, kNoted, kNotedOnEsxi };

enum class SlotKind {
  kFixed,       // one file by its name (the first of `names` present is read) into a text member
  kPerObject,   // PREFIX<object>SUFFIX, one per interface, card or device, into a map member
  kIdentity,    // hostname, kernel, MLNX_OFED version: their first line
  kInterfaces,  // the interface listings, parsed as they are read
  kConfig,      // a configuration file under its own name (netplan-<file>.yaml, ifcfg-<name>)
};

// Which objects a live command runs for. The objects come from what live collection has read by then.
enum class LiveScope {
  kNone,                // not run: live collection reads it itself (`live.reads`), or it is not collected live
  kOnce,                // one run per host
  kEachNetdev,          // every interface but the loopback ("IF")
  kEachPhysicalNetdev,  // the physical interfaces ("IF")
  kEachRoceNetdev,      // physical interfaces with RoCE ECN knobs in sysfs: Mellanox ports ("IF")
  kEachCard,            // the PCI function of every interface that has one ("BDF")
  kEachIbstatCa,        // each CA ibstat listed ("DEV"): run after the ibstat slot
};

// What `railyard collect` (live) does for a slot: argv only, never a shell; each run with the timeout.
struct LiveCommand {
  LiveScope scope = LiveScope::kNone;
  std::vector<const char*> argv = {};  // "{}" is the object
  bool only_if_installed = false;      // a tool not every host has: absent, it leaves no source line (else "not installed")
  bool empty_ok = false;               // printing nothing with exit 0 is an answer (lspci -d for a device the host lacks)
  // More runs whose output, when they print with exit 0, is appended (lspci's other network classes).
  std::vector<std::vector<const char*>> also = {};
  // A fallback: not run when one of these was filled by an earlier slot (ibstatus where ibstat answered).
  std::vector<std::optional<std::string> CollectInputs::*> unless = {};
  const char* reads = "";  // kNone: what live collection reads instead ("/sys/class/dmi/id"); "" not collected live
};

struct CaptureSlot {
  SlotKind kind = SlotKind::kFixed;
  std::vector<const char*> names = {};  // kFixed, kIdentity, kInterfaces: the file names; kPerObject, kConfig: {prefix}
  const char* suffix = "";              // kPerObject: ".txt" or ".bin"
  const char* object = "";              // kPerObject, kConfig: what stands between prefix and suffix, as the docs write it ("if")
  const char* example = "";             // kPerObject, kConfig: one such object, for the tests ("eth9")
  const char* tool = nullptr;           // the source as facts name it ("ethtool -S "); nullptr: no source line
  const char* command = "";             // what to run on the host to make the file
  std::optional<std::string> CollectInputs::*text = nullptr;
  std::map<std::string, std::string> CollectInputs::*per_object = nullptr;
  std::string CollectInputs::*identity = nullptr;  // kIdentity: the first line, a trailing ':' dropped
  WhenAbsent absent = WhenAbsent::kSilent;
  bool one_line = false;  // the file holds one line (/proc/cmdline): a blank first line or more lines are said
  LiveCommand live = {};
};

// In the order they are matched: a per-object prefix before any shorter one it starts with
// ("ethtool-i-" before "ethtool-").
const std::vector<CaptureSlot>& CaptureSlots();

// One file name per slot and name: each fixed name, and PREFIX + example + SUFFIX.
std::vector<std::string> ExampleCaptureFileNames();

// The slot's file names as docs/facts.md writes them: "ethtool-S-<if>.txt", "lspci-vvv.txt".
std::vector<std::string> DocumentedNames(const CaptureSlot& slot);

// An identity slot's value, from a capture file or a live run alike: the first line, trailing CR and
// spaces dropped, then a trailing ':' ("MLNX_OFED_LINUX-24.10-1.1.4.0:" is how ofed_info -s ends).
std::string IdentityValue(const std::string& text);

// The live command as docs/facts.md writes it, the object as its word: "ethtool -S IF"; "" when not run.
std::string LiveCommandText(const CaptureSlot& slot);

// `railyard collect --list-slots`: one line per file name, with the command that makes it and what
// live collection runs or reads for it.
std::string CaptureSlotsTable();

}  // namespace railyard
