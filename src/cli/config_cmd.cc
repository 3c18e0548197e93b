// railyard config hosts --plan plan.json [--host GLOB] [--format netplan] -o DIR
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "config/host_config.h"
#include "config/roce_config.h"
#include "config/switch_config.h"

namespace railyard::cli {

namespace {

struct ConfigArgs {
  std::string plan = {}, glob = {}, format = {}, out = {};
};

constexpr const char* kOutputHelp = "directory: a root tree per host (<host>/etc/...); FILE.tar: the trees in one archive";

SubVerb AddHosts(CLI::App& verb) {
  auto a = std::make_shared<ConfigArgs>(ConfigArgs{.format = "netplan"});
  CLI::App* cmd =
      verb.add_subcommand("hosts", "Per host: addresses, MTU, multi-rail routing (netplan or NetworkManager), from the plan");
  cmd->footer(
      "Examples:\n"
      "  railyard config hosts --plan out/plan.json -o hosts/             # hosts/<host>/etc/netplan/60-railyard.yaml\n"
      "  railyard config hosts --plan out/plan.json --host 'dgx00*' -o hosts/\n"
      "  netplan generate --root-dir hosts/dgx001                         # check one with netplan itself\n"
      "See docs/config.md.");
  cmd->add_option("--plan", a->plan, "plan.json from `railyard plan -o` (its spec names the netdevs)")
      ->required()
      ->check(kFileOrStdin);
  cmd->add_option("--host", a->glob, "only the hosts matching this glob");
  cmd->add_option("--format", a->format,
                  "netplan (default), nm (NetworkManager keyfiles), ifcfg (RHEL network-scripts) or networkd (systemd-networkd)")
      ->check(CLI::IsMember({"netplan", "nm", "ifcfg", "networkd"}));
  cmd->add_option("-o,--output", a->out, kOutputHelp)->required();
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    HostConfigs configs = ReadHostConfigs(a->plan);
    size_t n = WriteHostConfigs(configs, a->glob, a->out, a->format);
    for (const std::string& note : configs.notes) Note(note);
    Note(fmt::format("wrote the {} configuration of {} host(s) to {}", a->format, n, a->out));
    return kExitOk;
  };
}

SubVerb AddRoce(CLI::App& verb) {
  auto a = std::make_shared<ConfigArgs>();
  CLI::App* cmd = verb.add_subcommand("roce", "Per host: the RoCE lossless class (trust DSCP, PFC, ECN, ToS), set at every boot");
  cmd->footer(
      "Examples:\n"
      "  railyard config roce --plan out/plan.json -o hosts/    # hosts/<host>/etc/railyard/roce-qos.sh + systemd unit\n"
      "  railyard config roce --plan out/plan.json -o roce.tar\n"
      "The values are the plane's spec `qos:` (priority 3, DSCP 26, CNP DSCP 48 / priority 6 by default). See docs/config.md.");
  cmd->add_option("--plan", a->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  cmd->add_option("--host", a->glob, "only the hosts matching this glob");
  cmd->add_option("-o,--output", a->out, kOutputHelp)->required();
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    HostConfigs configs = ReadHostConfigs(a->plan);
    size_t n = WriteHostFiles(configs, a->glob, a->out, [&](const std::string& host, const std::vector<HostPortConfig>& ports) {
      return RoceFiles(host, ports, configs.plan_name);
    });
    Note(fmt::format("wrote the RoCE QoS script and unit of {} host(s) to {}", n, a->out));
    return kExitOk;
  };
}

SubVerb AddSwitches(CLI::App& verb) {
  auto a = std::make_shared<ConfigArgs>(ConfigArgs{.format = "nvue"});
  CLI::App* cmd =
      verb.add_subcommand("switches", "Per Ethernet switch: ports, addressing, BGP or VLANs, RoCE QoS (NVUE or SONiC)");
  cmd->footer(
      "Examples:\n"
      "  railyard config switches --plan out/plan.json -o switches/          # switches/<switch>.yaml\n"
      "  railyard config switches --plan out/plan.json --switch 'storage-*' -o storage.tar\n"
      "On the switch: nv config replace <switch>.yaml && nv config apply -y. See docs/config.md.");
  cmd->add_option("--plan", a->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  cmd->add_option("--os", a->format, "nvue (Cumulus Linux 5.x, default), sonic (CONFIG_DB JSON) or eos (Arista EOS)")
      ->check(CLI::IsMember({"nvue", "sonic", "eos"}));
  cmd->add_option("--switch", a->glob, "only the switches matching this glob");
  cmd->add_option("-o,--output", a->out, "directory (one file per switch) or FILE.tar")->required();
  return [a, cmd]() -> std::optional<int> {
    if (!cmd->parsed()) return std::nullopt;
    SwitchConfigs configs = ReadSwitchConfigs(a->plan);
    size_t n = WriteSwitchConfigs(configs, a->glob, a->out, a->format);
    const char* os = a->format == "sonic" ? "SONiC" : a->format == "eos" ? "EOS" : "NVUE";
    Note(fmt::format("wrote the {} configuration of {} switch(es) to {}", os, n, a->out));
    return kExitOk;
  };
}

}  // namespace

std::function<int()> AddConfigCommand(CLI::App& app) {
  CLI::App* verb =
      app.add_subcommand("config", "Write configuration from the plan: host network files, RoCE QoS, switch configuration");
  verb->require_subcommand(1);
  return RunWhicheverRan({AddHosts(*verb), AddRoce(*verb), AddSwitches(*verb)});
}

}  // namespace railyard::cli
