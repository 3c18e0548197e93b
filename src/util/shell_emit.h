// Writing POSIX shell that railyard generates (rollout waves, rollbacks, drains, burn-in rounds,
// roce-qos.sh) and files that a shell sources (ifcfg): a value from a plan or a state file becomes a
// word by ShellWord, never by pasting it between quotes at the call site. A word of only the
// characters no shell treats specially is written as it is (readable scripts); any other is single-
// quoted, each ' written as '\'', so that no byte of it ($, `, ", \, ;, |, *, a newline) is anything but
// data. An argument list is a sequence of such words (ShellCommand).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace railyard {

// `text` as one shell word: bare when it is 1 or more of A-Z a-z 0-9 @ % + = : , . / _ -, else in
// single quotes ('' for the empty text).
std::string ShellWord(std::string_view text);

// Words joined by spaces, each through ShellWord: ShellCommand({"flint", "-d", dev, "q"}).
std::string ShellCommand(std::initializer_list<std::string_view> words);

// `text` inside an open double-quoted string ("...$host ..."): $, `, ", \ and ! escaped, and every
// control character shown as '?': it stays data, and on one line.
std::string ShellInDoubleQuotes(std::string_view text);

}  // namespace railyard
