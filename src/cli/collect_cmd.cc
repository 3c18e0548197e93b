// railyard collect [--from DIR] [-o FILE] [--no-tools] [--list-slots]
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/messages.h"
#include "facts/capture_slots.h"
#include "facts/collect.h"
#include "facts/switch_facts.h"
#include "util/input_error.h"
#include "util/output_file.h"

namespace railyard::cli {

namespace {

struct CollectArgs {
  std::string from;
  std::string out;
  bool no_tools = false;
  bool switch_facts = false;
  bool list_slots = false;
  int timeout_ms = 10000;
};

// To standard output, or to OUT whole (a temporary file renamed into place).
void Emit(const std::string& out, const std::string& text) {
  if (out.empty()) {
    std::cout << text;
    return;
  }
  OutputFile file(out);
  file.Append(text);
  file.Commit();
}

// --switch --from DIR: one switch-facts document per switch that had a port read.
int CollectSwitches(const CollectArgs& a) {
  if (a.from.empty()) throw UsageError("--switch needs --from DIR: railyard reads a switch's saved outputs, it does not log in");
  SwitchFactsSet set = CollectSwitchesFrom(a.from);
  auto say = [&](const SwitchFactsWarning& w) {
    Warn(w.source + (w.line ? ":" + std::to_string(w.line) : "") + ": " + w.message);
  };
  for (const SwitchFactsWarning& w : set.warnings) say(w);
  std::string ndjson;
  size_t written = 0;
  for (const SwitchFacts& sw : set.switches) {
    for (const SwitchFactsWarning& w : sw.warnings) say(w);
    if (sw.ports.empty()) {  // said, and not written: a document without ports would read as a healthy switch
      say({a.from, 0, fmt::format("{}: no port read, so no document written for it", sw.hostname)});
      continue;
    }
    ndjson += SwitchFactsJson(sw) + "\n";
    ++written;
  }
  if (written == 0) throw InputError(fmt::format("{}: no port read from any file (docs/switch.md lists the names)", a.from));
  Emit(a.out, ndjson);
  return kExitOk;
}

// This host live, or a host's capture directory: one HostFacts document.
int CollectHost(const CollectArgs& a) {
  CollectInputs inputs;
  if (!a.from.empty()) {
    // An empty capture directory is a capture that did not happen: said, not written as a host.
    if (std::filesystem::is_empty(a.from))
      throw InputError(a.from, 0, 0, "",
                       "the directory is empty: no tool output to build facts from (docs/facts.md lists the names)");
    inputs = ReadCaptureDir(a.from);
  } else {
    LiveOptions options;
    options.run_tools = !a.no_tools;
    options.tool_timeout_ms = a.timeout_ms;
    inputs = CollectLive(options);
  }
  HostFacts built = BuildHostFacts(inputs);
  // What was read but not understood is said where the user sees it, not only inside the JSON.
  for (const SourceStatus& s : built.sources) {
    for (const std::string& w : s.warnings) Warn(s.name + ": " + w);
  }
  const nlohmann::json facts = ToJson(built);
  // Standard output gets one line (NDJSON when many hosts write to one stream); a file is pretty.
  Emit(a.out, facts.dump(a.out.empty() ? -1 : 2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  return kExitOk;
}

}  // namespace

std::function<int()> AddCollectCommand(CLI::App& app) {
  auto a = std::make_shared<CollectArgs>();
  CLI::App* cmd = app.add_subcommand("collect", "Gather this host's network facts (HostFacts JSON)");
  cmd->footer(
      "Examples:\n"
      "  railyard collect -o $(hostname).json          # live: sysfs, procfs and installed tools\n"
      "  railyard collect --from capture/ -o host.json  # saved outputs (file names in docs/facts.md)\n"
      "  clush -w gpu[001-128] -N 'railyard collect' > fleet.ndjson\n"
      "  railyard collect --switch --from leaf01/ >> switches.ndjson  # a switch's saved outputs (docs/switch.md)\n"
      "  railyard collect --switch --from ib-fabric/ > ib-switches.ndjson  # iblinkinfo.txt [ibqueryerrors.txt perfquery.txt]: "
      "every IB switch");
  cmd->add_option("--from", a->from, "build the facts from a directory of saved tool outputs")->check(CLI::ExistingDirectory);
  cmd->add_option("-o,--output", a->out, "write the JSON here (default: stdout, one line)");
  cmd->add_flag("--switch", a->switch_facts,
                "the directory holds a switch's saved outputs: write switch facts (railyard.switch-facts/1)");
  cmd->add_flag("--no-tools", a->no_tools, "read sysfs and procfs only; run no tools");
  cmd->add_flag("--list-slots", a->list_slots, "print every file a capture directory may hold, with the command that makes it");
  cmd->add_option("--timeout-ms", a->timeout_ms, "per-tool timeout (default 10000)")->check(CLI::Range(100, 600000));
  return [a] {
    if (a->list_slots) {
      std::cout << CaptureSlotsTable();
      return kExitOk;
    }
    return a->switch_facts ? CollectSwitches(*a) : CollectHost(*a);
  };
}

}  // namespace railyard::cli
