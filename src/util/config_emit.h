// Writing the configuration files railyard generates, one function per target syntax, so that a value
// from a plan can never change a file's structure: comments (#, !, ;), INI-style values
// (NetworkManager keyfiles, systemd-networkd), systemd unit values. YAML is util/yaml_emit.h; shell
// and shell-sourced files (ifcfg) util/shell_emit.h. The readers of plan.json and the state files have
// checked every value already (util/safe_text.h); these hold the line even so: a value a format cannot
// carry is refused with EmitError, an internal error, never written half.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace railyard {

// A value a generator was about to write that its format cannot hold (a line break in an INI value).
// Reaching it means a reader let the value through: a bug, reported as one.
class EmitError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// `text` for the rest of a comment line (after "# ", "! ", "; "): control, line-breaking and invisible
// format characters and bytes that are not UTF-8 shown as '?', and no trailing backslash (which
// continues a line in systemd units and some shells' readers).
std::string CommentText(std::string_view text);

// `text` as the value of a key=value line in a NetworkManager keyfile or a systemd-networkd file:
// returned unchanged when it has no control character, no leading or trailing space, no backslash and
// no ';' or '#' that a reader could take for a comment; else EmitError naming `key`.
std::string IniValue(std::string_view key, std::string_view text);

// `text` as the value of an ifcfg file's KEY=VALUE line: network-scripts source the file as shell and
// NetworkManager's ifcfg-rh reads it line by line, so one shell word on one line: ShellWord, and a
// control character (a line break above all) an EmitError naming `key`.
std::string IfcfgValue(std::string_view key, std::string_view text);

// `text` as one word of a line that a reader splits at white space and may glob (network-scripts'
// route-DEV and rule-DEV files, run as `ip route add $line`; a sysctl key): returned unchanged when it
// is 1 or more of A-Z a-z 0-9 . _ : / @ % + = , -, else an EmitError naming `key`.
std::string PlainWord(std::string_view key, std::string_view text);

// `text` as a systemd unit setting's value: '%' written as '%%' (specifiers) and '\' as '\\'; a control
// character is an EmitError naming `key`.
std::string UnitValue(std::string_view key, std::string_view text);

}  // namespace railyard
