// A switch's running configuration against the one `railyard config switches` writes from the plan.
// Both are read into the same comparable entries, key -> value:
//   EOS     each line under its enclosing blocks: "interface Ethernet1/1 > mtu 9214" -> "" (comments, "!"
//           and "end" dropped, runs of spaces collapsed);
//   SONiC   CONFIG_DB JSON as "TABLE > key > field" -> value (a key with no fields is present as "");
//   NVUE    the `set:` trees of the YAML as "interface > swp1 > link > mtu" -> "9216" ({} is present as "").
// Only what the plan's configuration says is compared: a running configuration holds much more, and
// that is the site's. Never throws: a running configuration that cannot be read comes back empty
// with `error` set.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

using ConfigEntries = std::map<std::string, std::string>;

ConfigEntries EosConfigEntries(std::string_view text);
ConfigEntries SonicConfigEntries(std::string_view json, std::string& error);
ConfigEntries NvueConfigEntries(std::string_view yaml, std::string& error);
// By `os`: "eos", "sonic" or "nvue".
ConfigEntries ConfigEntriesOf(const std::string& os, std::string_view text, std::string& error);

struct DriftItem {
  std::string key;
  std::string expected;  // the plan's value
  std::string running;   // the switch's, "" when missing
  bool missing = false;  // the running configuration does not have the key at all
};

// What the plan's configuration sets that the running one lacks or sets otherwise, in key order.
// EOS does not print defaults, so an expected "no shutdown" holds when the block has no "shutdown".
std::vector<DriftItem> ConfigDrift(const ConfigEntries& expected, const ConfigEntries& running);

}  // namespace railyard
