// The one boundary between a file railyard reads back (plan.json, rollout.json, burnin-plan.json,
// switches.csv, facts) and the scripts and configurations it writes from it, which run as root. Every
// string such a reader hands on is checked here against the rule of what it is (a name, a port, an
// address, a version ...): the same rules the spec applies when it is written. A value that breaks its
// rule is an InputError naming the file, the place (a JSON pointer, or a CSV line and column), the
// value (escaped for the terminal) and the rule: nothing is written from a file that fails.
//
// The rules are character classes, not regular expressions: plan.json at 100,000 GPUs holds a million
// links, and each of their strings passes through here.
#pragma once

#include <string>
#include <string_view>

namespace railyard {

enum class TextRule {
  kName,      // a host, switch, plane or device name: letters, digits, . _ -, starting with a letter or digit; 1-64
  kRack,      // a rack or hall: as kName, '/' also allowed; 1-64
  kPort,      // a switch or NIC port: as kName, '/' and ':' also allowed (Ethernet1/1, P16.0, IB1/33); 1-32
  kIfname,    // a Linux interface name: letters, digits, . _ -, starting with a letter or digit; 1-15 (IFNAMSIZ - 1)
  kLabel,     // a cable label: as kPort; 1-64
  kWord,      // a kind, role, tier, level, mode, OPN or model: letters, digits, . _ + / -, starting with a letter or digit; 1-64
  kAddress,   // an IPv4 or IPv6 address, with or without a /prefix length
  kPrefix,    // an IPv4 or IPv6 network with its /prefix length
  kHost,      // what ssh and scp take as a target: a kName or a kAddress
  kVersion,   // a firmware or software version: letters, digits, . _ + -, starting with a letter or digit; 1-64
  kPsid,      // a PSID: letters, digits, _; 1-32
  kDevice,    // a device as mstflint takes it: a PCI address or /dev/mst path: letters, digits, . _ : / -, not starting with -;
              // 1-64
  kFileName,  // a file name (no directory): letters, digits, . _ + -, starting with a letter or digit; 1-128
  kImage,     // a firmware image under $IMAGES: letters, digits, . _ + / -, starting with a letter or digit, no ".." ; 1-200
  kSha256,    // 64 hexadecimal digits
  kText,      // free text (a plan name, a reason): UTF-8, no control, line-breaking or invisible format character; 1-256 bytes
};

// Whether `value` keeps the rule. An empty value keeps none (an optional field is checked only when present).
bool Conforms(TextRule rule, std::string_view value);

// What the rule allows, for the error: "a name (1-64 of letters, digits, '.', '_', '-', ...)".
std::string_view RuleText(TextRule rule);

// Throws InputError(file, line, column, where, "'<value>' is not <rule text>") unless `value` keeps
// `rule`. `where` is the JSON pointer (/links/12/a/device) or the CSV column's name.
void RequireText(TextRule rule, std::string_view value, const std::string& file, const std::string& where, int line = 0,
                 int column = 0);

// The same, where an empty value is allowed (a field the file may leave out).
void RequireTextOrEmpty(TextRule rule, std::string_view value, const std::string& file, const std::string& where, int line = 0,
                        int column = 0);

}  // namespace railyard
