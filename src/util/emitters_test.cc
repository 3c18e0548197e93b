// The emitters (shell, key files, units, comments, YAML, paths) on the strings an attacker would put
// in a plan or a state file. The shell cases are run by a real shell: each word must come back as the
// very bytes it was made from, and no marker command may run.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "util/config_emit.h"
#include "util/output_path.h"
#include "util/shell_emit.h"
#include "util/yaml_emit.h"

namespace railyard {
namespace {

const char* kHostile[] = {
    "$(touch MARK)", "`touch MARK`", "a'b", "a\"b",  "a\\b",          "a\nb", "a\rb", "a;touch MARK",     "a|b", "*", "-rf", "..",
    "a b",           "%n",           "!x",  "$HOME", "\xe2\x80\x8bx", "'",    "''",   "x'; touch MARK; '"};

std::string RunSh(const std::string& script, const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "t.sh";
  std::ofstream(file) << script;
  std::string out;
  FILE* p = popen(("cd '" + dir.string() + "' && sh t.sh").c_str(), "r");
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, p)) > 0;) out.append(buffer, n);
  pclose(p);
  return out;
}

TEST(ShellEmit, EveryHostileWordComesBackAsItsBytesAndRunsNothing) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("railyard-shell-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  for (const char* text : kHostile) {
    const std::string out = RunSh("printf '%s|' " + ShellWord(text) + " " + ShellWord(text) + "\n", dir);
    EXPECT_EQ(out, std::string(text) + "|" + text + "|") << text;
    const std::string quoted = RunSh("printf '%s' \"" + ShellInDoubleQuotes(text) + "\"\n", dir);
    EXPECT_EQ(quoted.find('\n'), std::string::npos) << text;
    EXPECT_FALSE(std::filesystem::exists(dir / "MARK")) << text;
  }
  EXPECT_EQ(ShellWord("0000:1a:00.0"), "0000:1a:00.0");  // plain words stay readable
  EXPECT_EQ(ShellWord(""), "''");
  EXPECT_EQ(ShellCommand({"flint", "-d", "a b", "q"}), "flint -d 'a b' q");
  std::filesystem::remove_all(dir);
}

TEST(ConfigEmit, CommentsStayOneLineAndValuesThatCannotBeWrittenAreRefused) {
  for (const char* text : kHostile) {
    const std::string c = CommentText(text);
    EXPECT_EQ(c.find_first_of("\r\n"), std::string::npos) << text;
    EXPECT_FALSE(!c.empty() && c.back() == '\\') << text;
  }
  EXPECT_EQ(CommentText("plan \xe5\x8c\x97\xe4\xba\xac"), "plan \xe5\x8c\x97\xe4\xba\xac");
  EXPECT_EQ(CommentText("a\xe2\x80\xa8z\xff"), "a?z?");
  EXPECT_EQ(IniValue("Name", "enp24s0np0"), "enp24s0np0");
  for (const char* bad : {"a\nb", "a\\b", " a", "a;b", "a#b"}) EXPECT_THROW(IniValue("Name", bad), EmitError) << bad;
  EXPECT_EQ(UnitValue("Description", "100% a\\b"), "100%% a\\\\b");
  EXPECT_THROW(UnitValue("Description", "a\nExecStartPre=/bin/sh"), EmitError);
}

TEST(YamlEmit, ControlAndLineBreakingCharactersAreEscapesNotBreaks) {
  EXPECT_EQ(YamlQuoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(YamlQuoted("a\nb"), "\"a\\x0ab\"");
  EXPECT_EQ(YamlQuoted("a\xe2\x80\xa8z"), "\"a\\Lz\"");
  EXPECT_EQ(YamlQuoted("a\xc2\x85z"), "\"a\\Nz\"");
}

TEST(OutputPath, NamesNeverLeaveTheDirectoryNorFollowALink) {
  EXPECT_TRUE(SafeRelativePath("node001/etc/netplan/60-railyard.yaml"));
  for (const char* bad : {"../x", "x/../../y", "/etc/passwd", "", "a//b", ".hidden", "-rf", "a/\n", "a\\b", "./a"})
    EXPECT_FALSE(SafeRelativePath(bad)) << bad;
  EXPECT_THROW(PathUnder("/tmp/out", "../x"), std::runtime_error);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("railyard-path-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "elsewhere");
  std::filesystem::create_directory_symlink(dir / "elsewhere", dir / "out-link-host");
  std::vector<std::filesystem::path> created;
  EXPECT_THROW(MakeDirectoriesUnder(dir, dir / "out-link-host" / "etc", created), std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(dir / "elsewhere" / "etc"));
  MakeDirectoriesUnder(dir, dir / "node001" / "etc", created);
  EXPECT_EQ(created.size(), 2u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace railyard
