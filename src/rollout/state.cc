#include "rollout/state.h"
#include "model/schemas.h"
#include "util/input_error.h"
#include "util/json_input.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/finding.h"
#include "model/findings_formats.h"
#include "rollout/rollout_file.h"
#include "util/config_emit.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/hostlist.h"
#include "util/html.h"
#include "util/output_file.h"
#include "util/output_path.h"
#include "util/safe_text.h"
#include "util/shell_emit.h"
#include "util/terminal.h"
#include "util/version.h"

namespace railyard {
namespace {

// Each host of the rollout's drain lists as Slurm knows it: with slurm_node_name: short,
// "dgx001.example.com" is dgx001 (slurmd names itself by `hostname -s`). Two hosts that would be one
// node name are refused before anything is written: a drain of one would drain, and a resume
// resume, the other.
std::map<std::string, std::string> SlurmNodeNames(const RolloutPlan& plan, const RolloutPolicy& policy) {
  std::map<std::string, std::string> node_of, host_of;  // host -> node name, and back
  for (const RolloutWave& w : plan.waves) {
    for (const std::string& h : w.drain) {
      const std::string node = policy.slurm_node_name == "short" ? h.substr(0, h.find('.')) : h;
      auto [at, added] = host_of.emplace(node, h);
      if (!added && at->second != h) {
        throw InputError(
            fmt::format("hosts {} and {} are one Slurm node name, {}: give the policy slurm_node_name: hostname if the "
                        "scheduler knows them by their full names",
                        at->second, h, node));
      }
      node_of[h] = node;
    }
  }
  return node_of;
}

std::string WaveName(const RolloutWave& w) { return WaveFileName(w.index, w.name); }

const char* kHostScriptHead = R"SH(#!/usr/bin/env bash
# railyard rollout {name}: run as root on every host of the wave, e.g.
#   clush -w "$(cat {name}.nodeset)" -c {name}.sh --dest /tmp && clush -w "$(cat {name}.nodeset)" -b bash /tmp/{name}.sh
# Images are read from $IMAGES (default /opt/firmware). Idempotent: a device at target is left alone.
# Exit 0: every device at target; 1: one failed; 3: one needs a reboot to run its image (reboot, run
# the wave again); 2: this host is not in the wave. A host is known by its short name or its FQDN.
set -uo pipefail
IMAGES=${{IMAGES:-/opt/firmware}}
host=$(hostname -s)
status=0
reboot=0
query() {{ flint -d "$1" q 2> /dev/null; }}
field() {{ awk -F: -v k="$2" '$1 == k {{ gsub(/^[ \t]+|[ \t]+$/, "", $2); print $2; exit }}' <<< "$1"; }}
# burn DEVICE PSID TARGET IMAGE SHA256 [at-least]: 0 done, 3 needs a reboot to run it, 1 failed.
# With at-least (an intermediate step), a device already at TARGET or newer is left alone.
burn() {{
  local dev=$1 psid=$2 want=$3 image=$IMAGES/$4 sha=$5 at_least=${{6:-}} q have
  q=$(query "$dev") || {{ echo "$host $dev: flint cannot query the device" >&2; return 1; }}
  have=$(field "$q" "FW Version")
  if [ -n "$(field "$q" "FW Version(Running)")" ]; then
    echo "$host $dev: an image is pending activation: reboot, then run this wave again" >&2; return 3
  fi
  if [ "$have" = "$want" ] || {{ [ -n "$at_least" ] && [ "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -1)" = "$want" ]; }}; then
    echo "$host $dev: already at $have"; return 0
  fi
  [ "$(field "$q" "PSID")" = "$psid" ] || {{ echo "$host $dev: PSID $(field "$q" "PSID"), the image is for $psid: refusing" >&2; return 1; }}
  echo "$sha  $image" | sha256sum -c --quiet - || {{ echo "$host $dev: $image fails its sha256" >&2; return 1; }}
  mlxfwmanager -d "$dev" -i "$image" -u -y || {{ echo "$host $dev: burn failed" >&2; return 1; }}
  if mlxfwreset -d "$dev" query | grep -Eq '^ *3: .*-Supported'; then
    mlxfwreset -d "$dev" -l 3 -y reset || {{ echo "$host $dev: reset failed: reboot the host" >&2; return 1; }}
  else
    echo "$host $dev: this image needs a reboot to run (mlxfwreset offers no level 3)"; touch /run/railyard-reboot-needed; return 3
  fi
  q=$(query "$dev")
  if [ "$(field "$q" "FW Version")" != "$want" ] || [ -n "$(field "$q" "FW Version(Running)")" ]; then
    echo "$host $dev: not running $want after the reset" >&2; return 1
  fi
  echo "$host $dev: now at $want"
}}
case "$host" in
)SH";

}  // namespace

std::string HostScript(const RolloutWave& wave) {
  std::string name = WaveName(wave);
  std::string text = fmt::format(fmt::runtime(kHostScriptHead), fmt::arg("name", name));
  std::map<std::string, std::vector<const RolloutDevice*>> by_host;
  for (const RolloutDevice& d : wave.devices) by_host[d.host].push_back(&d);
  for (const auto& [host, devices] : by_host) {
    // The facts may name the host by its FQDN; `hostname -s` gives the short name: both match.
    const std::string short_name = host.substr(0, host.find('.'));
    text += short_name == host ? fmt::format("  {})\n", ShellWord(host))
                               : fmt::format("  {}|{})\n", ShellWord(host), ShellWord(short_name));
    for (const RolloutDevice* d : devices) {
      const std::string burn = ShellCommand({"burn", d->device, d->psid, d->to, d->image, d->sha256});
      if (d->via.empty()) {
        text += fmt::format("    {}; r=$?\n", burn);
      } else {
        // Two steps: the intermediate image must run before the target is burned over it.
        text += fmt::format("    {} at-least; r=$?\n    if [ $r -eq 0 ]; then {}; r=$?; fi\n",
                            ShellCommand({"burn", d->device, d->psid, d->via, d->via_image, d->via_sha256}), burn);
      }
      text += fmt::format(
          "    if [ $r -eq 3 ]; then reboot=1; echo \"$host {}: reboot, then run this wave again to finish\"; "
          "elif [ $r -ne 0 ]; then status=1; fi\n",
          ShellInDoubleQuotes(d->device));
    }
    text += "    ;;\n";
  }
  text += fmt::format(
      "  *) echo \"$host is not in {}\" >&2; exit 2 ;;\nesac\n"
      "if [ $status -eq 0 ] && [ $reboot -eq 1 ]; then exit 3; fi\nexit $status\n",
      ShellInDoubleQuotes(name));
  return text;
}

std::string SwitchScript(const RolloutWave& wave) {
  std::string name = WaveName(wave);
  std::string text = fmt::format(R"SH(#!/usr/bin/env bash
# railyard rollout {0}: switch firmware, run from an admin host with ssh to the switches (NVOS):
# the NVOS user manual's "Upgrading System Firmware" steps: copy the .mfa to /host/fw-images/asic,
# fw-source custom, config apply and save, install (the switch reboots), then read actual-firmware.
# Run {0}-drain.sh first. Images are read from $IMAGES (default /opt/firmware). Idempotent: a switch
# at target is left alone. One switch at a time; the next starts once the last one runs its target.
set -uo pipefail
IMAGES=${{IMAGES:-/opt/firmware}}
SSH_USER=${{SSH_USER:-admin}}
WAIT=${{WAIT:-1800}}
status=0
actual() {{ ssh -o BatchMode=yes -o ConnectTimeout=10 "$SSH_USER@$1" nv show platform firmware ASIC 2> /dev/null |
  awk '$1 == "actual-firmware" {{ print $2; exit }}'; }}
# upgrade SWITCH ADDRESS TARGET IMAGE SHA256: 0 done, 1 failed.
upgrade() {{
  local sw=$1 addr=$2 want=$3 image=$4 sha=$5 have target waited=0
  have=$(actual "$addr")
  [ -n "$have" ] || {{ echo "$sw: cannot read its ASIC firmware over ssh ($addr)" >&2; return 1; }}
  if [ "$have" = "$want" ]; then echo "$sw: already at $have"; return 0; fi
  [ "${{have%%.*}}" = "${{want%%.*}}" ] || {{ echo "$sw: runs $have, the image is for family ${{want%%.*}}: refusing" >&2; return 1; }}
  echo "$sha  $IMAGES/$image" | sha256sum -c --quiet - || {{ echo "$sw: $image fails its sha256" >&2; return 1; }}
  # scp wants an IPv6 address in brackets; ssh takes it bare
  case $addr in *:*) target="[$addr]" ;; *) target=$addr ;; esac
  scp -o BatchMode=yes -- "$IMAGES/$image" "$SSH_USER@$target:/host/fw-images/asic/$image" || {{ echo "$sw: copy failed" >&2; return 1; }}
  ssh -o BatchMode=yes "$SSH_USER@$addr" "nv set platform firmware ASIC fw-source custom && nv config apply -y && nv config save" ||
    {{ echo "$sw: setting fw-source custom failed" >&2; return 1; }}
  # install asks before it reboots the switch: answered yes. The image name expands here, on the
  # admin host, into the command the switch runs:
  # shellcheck disable=SC2029
  printf 'y\n' | ssh -o BatchMode=yes "$SSH_USER@$addr" nv action install platform firmware ASIC files "$image" ||
    echo "$sw: the install session ended (the switch reboots): waiting for it"
  sleep 60
  until [ "$(actual "$addr")" = "$want" ]; do
    waited=$((waited + 30))
    [ $waited -lt "$WAIT" ] || {{ echo "$sw: not running $want after $WAIT s" >&2; return 1; }}
    sleep 30
  done
  echo "$sw: now at $want"
}}
)SH",
                                 name);
  for (const RolloutDevice& d : wave.devices) {
    text += fmt::format("{} || {{ status=1; echo \"stopping {}: fix {} first\" >&2; exit 1; }}\n",
                        ShellCommand({"upgrade", d.host, d.address, d.to, d.image, d.sha256}), ShellInDoubleQuotes(name),
                        ShellInDoubleQuotes(d.host));
  }
  text += "exit $status\n";
  return text;
}

std::string RolloutJsonText(const RolloutPlan& plan, const RolloutTarget& target, const RolloutPolicy& policy,
                            const std::string& planned_by) {
  fmt::memory_buffer b;
  auto str = [&](std::string_view text) {
    b.push_back('"');
    JsonEscape(text, b);
    b.push_back('"');
  };
  auto field = [&](std::string_view key, std::string_view value, bool first = false) {
    fmt::format_to(std::back_inserter(b), "{}\"{}\": ", first ? "" : ", ", key);
    str(value);
  };
  fmt::format_to(std::back_inserter(b),
                 "{{\n  \"schema\": \"railyard.rollout/1\",\n  \"generator\": \"railyard {}\",\n  \"target\": ", kVersion);
  str(target.file);
  b.append(std::string_view(",\n  \"planned_by\": "));
  str(planned_by);
  fmt::format_to(std::back_inserter(b),
                 ",\n  \"policy\": {{\"canary_max\": {}, \"max_unavailable_percent\": {}, \"max_hosts_per_wave\": {}, "
                 "\"max_per_leaf\": {}, \"max_switches_per_wave\": {}, \"drain\": \"{}\", \"leaf_waves\": \"{}\", "
                 "\"slurm_node_name\": \"{}\", \"two_person\": {}, \"protected_racks\": [",
                 policy.canary_max, policy.max_unavailable_percent, policy.max_hosts_per_wave, policy.max_per_leaf,
                 policy.max_switches_per_wave, policy.drain, policy.leaf_waves, policy.slurm_node_name, policy.two_person);
  for (size_t i = 0; i < policy.protected_racks.size(); ++i) {
    if (i) b.push_back(',');
    str(policy.protected_racks[i]);
  }
  b.append(std::string_view("]},\n  \"waves\": ["));
  for (size_t w = 0; w < plan.waves.size(); ++w) {
    const RolloutWave& wave = plan.waves[w];
    fmt::format_to(std::back_inserter(b), "{}\n    {{\"index\": {}, \"name\": \"{}\", \"kind\": \"{}\", \"hosts\": [",
                   w ? "," : "", wave.index, wave.name, wave.switches ? "switch" : "host");
    for (size_t i = 0; i < wave.hosts.size(); ++i) {
      if (i) b.push_back(',');
      str(wave.hosts[i]);
    }
    if (wave.switches) {
      b.append(std::string_view("], \"drain\": ["));
      for (size_t i = 0; i < wave.drain.size(); ++i) {
        if (i) b.push_back(',');
        str(wave.drain[i]);
      }
    }
    b.append(std::string_view("], \"devices\": ["));
    for (size_t i = 0; i < wave.devices.size(); ++i) {
      const RolloutDevice& d = wave.devices[i];
      b.append(std::string_view(i ? ",\n      {" : "\n      {"));
      field("host", d.host, true);
      field("device", d.device);
      field("psid", d.psid);
      field("from", d.from);
      field("to", d.to);
      field("image", d.image);
      field("sha256", d.sha256);
      if (!d.serial.empty()) field("serial", d.serial);
      if (d.is_switch) {
        field("kind", "switch");
        field("tier", d.tier);
        field("plane", d.plane);
        field("address", d.address);
        b.append(
            std::string_view(", \"steps\": [\"drain-attached\", \"copy\", \"install\", \"reboot\", \"verify\", \"resume\"]}"));
        continue;
      }
      if (!d.via.empty()) {
        b.append(std::string_view(", \"via\": {"));
        field("version", d.via, true);
        field("image", d.via_image);
        field("sha256", d.via_sha256);
        b.push_back('}');
      }
      b.append(std::string_view(d.via.empty()
                                    ? ", \"steps\": [\"drain\", \"burn\", \"reset\", \"verify\", \"resume\"]}"
                                    : ", \"steps\": [\"drain\", \"burn-intermediate\", \"reset\", \"verify\", \"burn\", "
                                      "\"reset\", \"verify\", \"resume\"]}"));
    }
    b.append(std::string_view("]}"));
  }
  b.append(std::string_view("\n  ],\n  \"skipped\": ["));
  for (size_t i = 0; i < plan.skipped.size(); ++i) {
    const RolloutSkip& s = plan.skipped[i];
    b.append(std::string_view(i ? ",\n    {" : "\n    {"));
    field("host", s.host, true);
    field("device", s.device);
    field("psid", s.psid);
    field("rule", s.rule);
    field("reason", s.reason);
    b.push_back('}');
  }
  b.append(std::string_view("],\n  \"findings\": "));
  std::string findings = FindingsJson(plan.findings).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  b.append(std::string_view(findings));
  b.append(std::string_view("\n}\n"));
  return fmt::to_string(b);
}

std::vector<std::string> WriteRolloutState(const RolloutPlan& plan, const RolloutTarget& target, const RolloutPolicy& policy,
                                           const std::string& dir, const std::string& planned_by,
                                           const std::vector<std::string>& facts_before) {
  // Computed (and a clash refused) before anything is written.
  const std::map<std::string, std::string> node_of =
      policy.drain == "slurm" ? SlurmNodeNames(plan, policy) : std::map<std::string, std::string>();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the state directory: {}", dir, ec.message()));
  std::vector<std::unique_ptr<OutputFile>> files;
  std::vector<std::string> names;
  auto file = [&](const std::string& name) -> OutputFile& {
    files.push_back(std::make_unique<OutputFile>(PathUnder(dir, name).string()));
    names.push_back(name);
    return *files.back();
  };
  if (!facts_before.empty()) {
    std::vector<std::filesystem::path> created;
    MakeDirectoriesUnder(dir, std::filesystem::path(dir) / "facts-before", created);
    size_t n = 0;
    auto keep = [&](const std::string& input, const std::string& shown) {
      std::string name = fmt::format("facts-before/{:04}-{}", n++, shown);
      if (!name.ends_with(".json") && !name.ends_with(".ndjson")) name += ".ndjson";
      OutputFile& kept = file(name);
      if (input == "-") {
        kept.Append(ReadWholeFile(input));  // read once and kept by util/file
        return;
      }
      // Copied through the output's buffer a block at a time: a fleet's facts run to hundreds of MB.
      std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(input.c_str(), "rb"), &std::fclose);
      if (!in) throw InputError(input, 0, 0, "", "cannot read the file");
      char block[1 << 16];
      for (size_t got; (got = std::fread(block, 1, sizeof block, in.get())) > 0;) kept.Append(std::string_view(block, got));
      if (std::ferror(in.get())) throw InputError(input, 0, 0, "", "cannot read the file");
    };
    for (const std::string& input : facts_before) {
      if (input != "-" && std::filesystem::is_directory(input)) {
        std::vector<std::filesystem::path> found;
        for (const auto& e : std::filesystem::directory_iterator(input)) {
          if (e.path().extension() == ".json" || e.path().extension() == ".ndjson") found.push_back(e.path());
        }
        std::sort(found.begin(), found.end());
        for (const auto& f : found) keep(f.string(), f.filename().string());
      } else {
        std::string shown = input == "-" ? "stdin" : std::filesystem::path(input).filename().string();
        if (!SafeRelativePath(shown)) shown = "facts";
        keep(input, shown);
      }
    }
  }
  // rollout.json goes last: it is the commit point (CommitAll renames in order).
  OutputFile* rollout_json = nullptr;
  {
    auto last = std::make_unique<OutputFile>(PathUnder(dir, "rollout.json").string());
    last->Append(RolloutJsonText(plan, target, policy, planned_by));
    rollout_json = last.get();
    files.push_back(std::move(last));
    names.push_back("rollout.json");
  }
  OutputFile& inventory = file("inventory.ini");
  inventory.Append("# Ansible inventory: one group per rollout wave (railyard rollout plan)\n");
  for (const RolloutWave& w : plan.waves) {
    const std::string name = WaveName(w);
    const std::string nodeset = CompressHostlist(w.hosts);
    file(name + ".nodeset").Append(nodeset + "\n");
    file(name + ".sh").Append(w.switches ? SwitchScript(w) : HostScript(w));
    std::string reason = fmt::format("railyard rollout {} (firmware)", name);
    std::vector<std::string> scheduler_names = w.drain;  // as the scheduler knows them
    if (policy.drain == "slurm") {
      for (std::string& n : scheduler_names) n = node_of.at(n);
      std::sort(scheduler_names.begin(), scheduler_names.end());
      scheduler_names.erase(std::unique(scheduler_names.begin(), scheduler_names.end()), scheduler_names.end());
    }
    const std::string drained = CompressHostlist(scheduler_names);
    std::string drain, resume;
    if (w.drain.empty()) {
      drain = "# no server loses a link in this wave: nothing to drain\n";
      resume = "# nothing was drained\n";
    } else if (policy.drain == "slurm") {
      drain = fmt::format(
          "{0}\n"
          "# wait until no job is left on the nodes before running {1}.sh. squeue is asked, not sinfo's state\n"
          "# filter: Slurm 22.05's `sinfo -t allocated` lists an idle, drained node once a job has run on it.\n"
          "# A controller that cannot be asked stops the wait with squeue's own message (never taken for drained).\n"
          "while :; do\n"
          "  if ! jobs=$({2}); then echo \"cannot ask Slurm which jobs are on the nodes: stopping\" >&2; exit 1; fi\n"
          "  [ -z \"$jobs\" ] && break\n"
          "  echo \"waiting for job(s) ${{jobs//$'\\n'/ }} on the wave's nodes\" >&2\n"
          "  sleep \"${{RAILYARD_DRAIN_POLL_SECONDS:-30}}\"\n"
          "done\n"
          "{3}\n",
          ShellCommand({"scontrol", "update", "NodeName=" + drained, "State=DRAIN", "Reason=" + reason}), CommentText(name),
          ShellCommand({"squeue", "-h", "-w", drained, "-o", "%A"}),
          ShellCommand({"sinfo", "-h", "-N", "-n", drained, "-o", "%N %T %E"}));
      resume = fmt::format(
          "{}{}\n",
          w.switches ? "" : "# hosts that flagged /run/railyard-reboot-needed: scontrol reboot ASAP nextstate=RESUME NODES\n",
          ShellCommand({"scontrol", "update", "NodeName=" + drained, "State=RESUME"}));
    } else if (policy.drain == "kubernetes") {
      for (const std::string& h : w.drain) {
        drain += fmt::format(
            "kubectl cordon -- {0} && kubectl drain --ignore-daemonsets --delete-emptydir-data --timeout=30m -- {0}\n",
            ShellWord(h));
        resume += fmt::format("kubectl uncordon -- {}\n", ShellWord(h));
      }
    } else {
      drain = "# drain: none (policy drain: none): stop the hosts' work by hand first\n";
      resume = "# resume: none\n";
    }
    file(name + "-drain.sh")
        .Append("#!/usr/bin/env bash\n# run on the scheduler's controller before " + CommentText(name) +
                ".sh\nset -euo pipefail\n" + drain);
    file(name + "-resume.sh")
        .Append("#!/usr/bin/env bash\n# run after " + CommentText(name) +
                ".sh and `railyard rollout check` pass\nset -euo pipefail\n" + resume);
    std::string group = w.name;  // Ansible group names take no '-'
    std::replace(group.begin(), group.end(), '-', '_');
    inventory.Print("\n[wave{:02}_{}]\n", w.index, group);
    for (const std::string& h : w.hosts) inventory.Print("{}\n", h);
  }
  std::vector<OutputFile*> set;
  for (auto& f : files) {
    if (f.get() != rollout_json) set.push_back(f.get());
  }
  set.push_back(rollout_json);
  CommitAll(set);
  for (const std::string& name : names) {
    if (name.ends_with(".sh"))
      std::filesystem::permissions(std::filesystem::path(dir) / name, std::filesystem::perms::owner_exec,
                                   std::filesystem::perm_options::add, ec);
  }
  return names;
}

std::string PrepareStateDir(const std::string& dir, bool replace) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "";
  // What a rollout leaves in its state directory; anything else there is not railyard's and stays.
  std::vector<fs::path> ours;
  size_t checks = 0, approvals = 0, scripts = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name == "rollout.json" || name == "inventory.ini" || name == "facts-before" || name == "checks" || name == "approvals" ||
        name.starts_with("wave-")) {
      ours.push_back(e.path());
      if (name == "checks" || name == "approvals") {
        for (const auto& f : fs::directory_iterator(e.path())) {
          (void)f;
          ++(name == "checks" ? checks : approvals);
        }
      }
      scripts += name.starts_with("wave-") && name.ends_with(".sh");
    }
  }
  if (ours.empty()) return "";
  // No rollout.json (the commit point) and nothing recorded: the pieces of a plan killed before it
  // committed, which nothing reads. They are removed, not archived.
  if (!fs::exists(fs::path(dir) / "rollout.json") && checks == 0 && approvals == 0) {
    for (const fs::path& p : ours) fs::remove_all(p);
    return fmt::format("removed what a plan interrupted before its rollout.json left in {} ({} wave script(s))", dir, scripts);
  }
  if (!replace) {
    throw UsageError(fmt::format(
        "{} holds a rollout already ({}{} check(s), {} approval(s), {} wave script(s)): its checks and approvals would "
        "count for the new plan's waves. Give --replace to move it into {}/superseded-<time>/ and plan anew, or another "
        "-o",
        dir, fs::exists(fs::path(dir) / "rollout.json") ? "rollout.json, " : "", checks, approvals, scripts, dir));
  }
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  fs::path archive = fs::path(dir) / fmt::format("superseded-{}", stamp);
  for (int i = 2; fs::exists(archive); ++i) archive = fs::path(dir) / fmt::format("superseded-{}-{}", stamp, i);
  fs::create_directory(archive);
  // rollout.json first: from then on the old state is no longer the directory's, however far the
  // moves get before a kill, and its checks and approvals never count for the new plan's waves.
  std::stable_partition(ours.begin(), ours.end(), [](const fs::path& p) { return p.filename() == "rollout.json"; });
  for (const fs::path& p : ours) fs::rename(p, archive / p.filename());
  return fmt::format("the rollout that was in {} is in {} now", dir, archive.string());
}

StateDirLock::StateDirLock(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the state directory: {}", dir, ec.message()));
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (fd_ < 0) throw std::runtime_error(fmt::format("{}: cannot open the state directory: {}", dir, std::strerror(errno)));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd_);
    throw std::runtime_error(fmt::format("{}: cannot lock the state directory: {}", dir, std::strerror(err)));
  }
  for (const char* sub : {"", "checks", "approvals", "facts-before"}) {
    const fs::path at = fs::path(dir) / sub;
    if (!fs::is_directory(fs::symlink_status(at, ec))) continue;
    for (const auto& e : fs::directory_iterator(at, ec)) {
      if (IsOutputFileTemporary(e.path().filename().string()) && fs::is_regular_file(e.symlink_status(ec)))
        fs::remove(e.path(), ec);
    }
  }
}

StateDirLock::~StateDirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the lock
}

namespace {

nlohmann::json ReadJson(const std::filesystem::path& path) { return ReadJsonFile(path.string()); }

// Who approved, from an approval file: shown in status and reports, so checked as rollout.json is.
std::string Approver(const std::filesystem::path& approval) {
  nlohmann::json a = ReadJson(approval);
  if (!a.is_object() || !a.contains("by") || !a["by"].is_string()) throw InputError(approval.string(), 0, 0, "/by", "required");
  RequireText(TextRule::kText, a["by"].get<std::string>(), approval.string(), "/by");
  return a["by"].get<std::string>();
}

// DIR/RELATIVE written whole, its directories made without following a symlink.
void WriteOne(const std::string& dir, const std::string& relative, const std::string& text) {
  const std::filesystem::path path = PathUnder(dir, relative);
  std::vector<std::filesystem::path> created;
  MakeDirectoriesUnder(dir, path.parent_path(), created);
  OutputFile out(path.string());
  out.Append(text);
  out.Commit();  // one rename over the earlier file (a re-check's record): never a moment without one
}

}  // namespace

void RecordCheck(const std::string& dir, const std::string& wave_name, const std::string& json) {
  WriteOne(dir, "checks/" + wave_name + ".json", json);
}

void ApproveWave(const std::string& dir, uint32_t wave, const std::string& by) {
  StateDirLock lock(dir);
  nlohmann::json rollout = ReadRolloutFile(dir);
  const nlohmann::json& waves = rollout.at("waves");
  if (wave >= waves.size()) throw UsageError(fmt::format("the rollout has waves 0 to {}; no wave {}", waves.size() - 1, wave));
  // Who approves is shown in status and reports, and compared with who planned: one line of visible
  // text, compared without case or surrounding space.
  const std::string approver = NormalizedApprover(by, "--by");
  if (approver.empty()) throw UsageError("--by: who approves (a name, not blank)");
  bool two = rollout.value("policy", nlohmann::json::object()).value("two_person", false);
  if (two) {
    const std::string planner = NormalizedApprover(rollout.value("planned_by", ""), dir + "/rollout.json");
    if (planner.empty())
      throw InputError(
          "rollout.json names nobody as its planner: the two-person rule cannot be kept (plan it again with --by NAME)");
    if (approver == planner)
      throw UsageError(
          fmt::format("{} planned this rollout; the policy wants a second person to approve wave {}", TerminalSafe(by), wave));
  }
  // In order: a wave is approved once every wave before it is done (a halted one blocks the rest).
  std::vector<WaveStatus> status = RolloutStatus(dir, rollout);
  for (uint32_t i = 0; i < wave; ++i) {
    if (status[i].state != "done")
      throw UsageError(fmt::format("wave {} ({}) is {}: wave {} can be approved once every wave before it is done", i,
                                   status[i].name, status[i].state, wave));
  }
  std::string name = WaveFileName(wave, waves.at(wave).at("name").get<std::string>());
  // One approval per wave, never lost: the file is linked into place only where none is (link(2)
  // fails if the name exists), so of concurrent approvals one wins and the others are told.
  const std::filesystem::path path = PathUnder(dir, "approvals/" + name + ".json");
  std::vector<std::filesystem::path> created;
  MakeDirectoriesUnder(dir, path.parent_path(), created);
  OutputFile out(path.string());
  out.Append(nlohmann::json{{"wave", name}, {"by", by}}.dump(2) + "\n");
  out.Close();
  if (::link(out.temp_path().c_str(), path.c_str()) != 0) {
    const int err = errno;
    if (err == EEXIST) {
      throw UsageError(fmt::format("wave {} is approved already, by {}", wave, Approver(path)));
    }
    throw std::runtime_error(fmt::format("{}: cannot record the approval: {}", path.string(), std::strerror(err)));
  }
}

std::vector<WaveStatus> RolloutStatus(const std::string& dir) { return RolloutStatus(dir, ReadRolloutFile(dir)); }

std::vector<WaveStatus> RolloutStatus(const std::string& dir, const nlohmann::json& rollout) {
  namespace fs = std::filesystem;
  bool two = rollout.value("policy", nlohmann::json::object()).value("two_person", false);
  std::vector<WaveStatus> out;
  bool previous_done = true;
  for (const nlohmann::json& w : rollout.at("waves")) {
    WaveStatus s;
    s.index = w.at("index");
    s.name = w.at("name");
    std::string file = WaveFileName(s.index, s.name);
    fs::path check = PathUnder(dir, "checks/" + file + ".json");
    fs::path approval = PathUnder(dir, "approvals/" + file + ".json");
    if (fs::exists(check)) {
      nlohmann::json c = ReadJson(check);
      // A check file read back is checked as rollout.json is: its verdict decides what may run next.
      if (!c.is_object() || !c.contains("pass") || !c["pass"].is_boolean() ||
          !c.value("at_target", nlohmann::json(0)).is_number_unsigned() ||
          !c.value("devices", nlohmann::json(0)).is_number_unsigned() || !c.contains("findings") || !c["findings"].is_array())
        throw InputError(check.string(), 0, 0, "", "not a railyard rollout check (pass, devices, at_target, findings)");
      bool pass = c.value("pass", false);
      s.state = pass ? "done" : "halted";
      s.detail =
          fmt::format("{} of {} devices at target{}", c.value("at_target", 0), c.value("devices", 0),
                      pass ? "" : fmt::format("; {} reason(s) to halt: see {}-rollback.sh", c.at("findings").size(), file));
    } else if (previous_done) {
      bool approved = fs::exists(approval);
      s.state = two && !approved ? "waiting-for-approval" : "ready";
      s.detail = approved ? "approved by " + Approver(approval)
                 : two    ? "railyard rollout approve --wave " + std::to_string(s.index) + " --by NAME"
                          : "run it, then rollout check";
    } else {
      s.state = "pending";
    }
    previous_done = s.state == "done";
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

struct ReportRow {
  std::string wave, host, device, psid, from, to, state, approved_by;
};

std::vector<ReportRow> ReportRows(const std::string& dir, nlohmann::json& rollout, std::vector<WaveStatus>& status) {
  namespace fs = std::filesystem;
  rollout = ReadRolloutFile(dir);
  status = RolloutStatus(dir, rollout);
  std::vector<ReportRow> rows;
  for (const nlohmann::json& w : rollout.at("waves")) {
    uint32_t index = w.at("index");
    std::string name = WaveFileName(index, w.at("name").get<std::string>());
    fs::path approval = PathUnder(dir, "approvals/" + name + ".json");
    std::string by = fs::exists(approval) ? Approver(approval) : "";
    for (const nlohmann::json& d : w.at("devices")) {
      rows.push_back({name, d.at("host"), d.at("device"), d.at("psid"), d.at("from"), d.at("to"), status[index].state, by});
    }
  }
  for (const nlohmann::json& s : rollout.at("skipped")) {
    rows.push_back({"held-back", s.at("host"), s.at("device"), s.at("psid"), "", "", s.at("rule"), ""});
  }
  return rows;
}

}  // namespace

std::string RolloutReportCsv(const std::string& dir) {
  nlohmann::json rollout;
  std::vector<WaveStatus> status;
  std::string out = "wave,host,device,psid,from,to,state,approved_by\n";
  for (const ReportRow& r : ReportRows(dir, rollout, status)) {
    out += fmt::format("{},{},{},{},{},{},{},{}\n", CsvEscape(r.wave), CsvEscape(r.host), CsvEscape(r.device), CsvEscape(r.psid),
                       CsvEscape(r.from), CsvEscape(r.to), CsvEscape(r.state), CsvEscape(r.approved_by));
  }
  return out;
}

std::string RolloutReportHtml(const std::string& dir) {
  nlohmann::json rollout;
  std::vector<WaveStatus> status;
  std::vector<ReportRow> rows = ReportRows(dir, rollout, status);
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>railyard rollout</title><style>"
      "body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}"
      ".done{background:#e6f4ea}.halted{background:#fde7e9}.ready,.waiting-for-approval{background:#fff4ce}</style></"
      "head><body>\n";
  out += fmt::format("<h1>Firmware rollout</h1>\n<p>target {} &middot; planned by {} &middot; {}</p>\n",
                     HtmlEscape(rollout.value("target", std::string())), HtmlEscape(rollout.value("planned_by", std::string())),
                     HtmlEscape(rollout.value("generator", std::string())));
  out +=
      "<h2>Waves</h2>\n<table><tr><th>wave</th><th>name</th><th>hosts</th><th>devices</th><th>state</th><th>detail</th></tr>\n";
  for (const nlohmann::json& w : rollout.at("waves")) {
    uint32_t i = w.at("index");
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       HtmlEscape(status[i].state), i, HtmlEscape(status[i].name), w.at("hosts").size(), w.at("devices").size(),
                       HtmlEscape(status[i].state), HtmlEscape(status[i].detail));
  }
  out +=
      "</table>\n<h2>Devices</h2>\n<table><tr><th>wave</th><th>host</th><th>device</th><th>PSID</th><th>from</th>"
      "<th>to</th><th>state</th><th>approved by</th></tr>\n";
  for (const ReportRow& r : rows) {
    out += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        HtmlEscape(r.state), HtmlEscape(r.wave), HtmlEscape(r.host), HtmlEscape(r.device), HtmlEscape(r.psid), HtmlEscape(r.from),
        HtmlEscape(r.to), HtmlEscape(r.state), HtmlEscape(r.approved_by));
  }
  out += "</table>\n</body></html>\n";
  return out;
}

std::string RolloutPlanTable(const RolloutPlan& plan, size_t hosts) {
  size_t devices = 0;
  for (const RolloutWave& w : plan.waves) devices += w.devices.size();
  std::string out = fmt::format("{} hosts, {} devices to move in {} waves; {} devices held back\n\n", hosts, devices,
                                plan.waves.size(), plan.skipped.size());
  out += fmt::format("{:<5} {:<15} {:>6} {:>8} {:>7}  {}\n", "WAVE", "NAME", "HOSTS", "DEVICES", "DRAINED", "FIRST HOSTS");
  for (const RolloutWave& w : plan.waves) {
    std::string first;
    for (size_t i = 0; i < w.hosts.size() && i < 4; ++i) first += (i ? " " : "") + w.hosts[i];
    if (w.hosts.size() > 4) first += " ...";
    out += fmt::format("{:<5} {:<15} {:>6} {:>8} {:>7}  {}\n", w.index, w.name, w.hosts.size(), w.devices.size(), w.drain.size(),
                       first);
  }
  std::map<std::string, size_t> rules;
  for (const RolloutSkip& s : plan.skipped) ++rules[s.rule];
  if (!rules.empty()) {
    out += "\nheld back:";
    for (const auto& [rule, n] : rules) out += fmt::format(" {} {}", n, rule);
    out += "\n";
  }
  if (!plan.findings.empty()) out += "\n" + FindingsTable(plan.findings);
  return out;
}

std::string RolloutStatusTable(const std::vector<WaveStatus>& waves) {
  std::string out = fmt::format("{:<5} {:<16} {:<21} {}\n", "WAVE", "NAME", "STATE", "DETAIL");
  for (const WaveStatus& s : waves) out += fmt::format("{:<5} {:<16} {:<21} {}\n", s.index, s.name, s.state, s.detail);
  return out;
}

}  // namespace railyard
