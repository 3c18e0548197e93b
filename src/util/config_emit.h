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

// `text` as a systemd unit setting's value: '%' written as '%%' (specifiers) and '\' as '\\'; a control
// character is an EmitError naming `key`.
std::string UnitValue(std::string_view key, std::string_view text);

}  // namespace railyard
