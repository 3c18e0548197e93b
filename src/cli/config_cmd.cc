// railyard config hosts --plan plan.json [--host GLOB] [--format netplan] -o DIR
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "config/host_config.h"
#include "config/roce_config.h"
#include "config/switch_config.h"

namespace railyard::cli {

std::function<int()> AddConfigCommand(CLI::App& app) {
  struct Args {
    std::string plan, host, format = "netplan", out;
  };
  auto a = std::make_shared<Args>();
  CLI::App* verb =
      app.add_subcommand("config", "Write configuration from the plan: host network files, RoCE QoS, switch configuration");
  verb->require_subcommand(1);
  CLI::App* hosts =
      verb->add_subcommand("hosts", "Per host: addresses, MTU, multi-rail routing (netplan or NetworkManager), from the plan");
  hosts->footer(
      "Examples:\n"
      "  railyard config hosts --plan out/plan.json -o hosts/             # hosts/<host>/etc/netplan/60-railyard.yaml\n"
      "  railyard config hosts --plan out/plan.json --host 'dgx00*' -o hosts/\n"
      "  netplan generate --root-dir hosts/dgx001                         # check one with netplan itself\n"
      "See docs/config.md.");
  hosts->add_option("--plan", a->plan, "plan.json from `railyard plan -o` (its spec names the netdevs)")
      ->required()
      ->check(kFileOrStdin);
  hosts->add_option("--host", a->host, "only the hosts matching this glob");
  hosts
      ->add_option("--format", a->format,
                   "netplan (default), nm (NetworkManager keyfiles), ifcfg (RHEL network-scripts) or networkd (systemd-networkd)")
      ->check(CLI::IsMember({"netplan", "nm", "ifcfg", "networkd"}));
  hosts->add_option("-o,--output", a->out, "directory: a root tree per host (<host>/etc/...); FILE.tar: the trees in one archive")
      ->required();
  auto r = std::make_shared<Args>();
  CLI::App* roce =
      verb->add_subcommand("roce", "Per host: the RoCE lossless class (trust DSCP, PFC, ECN, ToS), set at every boot");
  roce->footer(
      "Examples:\n"
      "  railyard config roce --plan out/plan.json -o hosts/    # hosts/<host>/etc/railyard/roce-qos.sh + systemd unit\n"
      "  railyard config roce --plan out/plan.json -o roce.tar\n"
      "The values are the plane's spec `qos:` (priority 3, DSCP 26, CNP DSCP 48 / priority 6 by default). See docs/config.md.");
  roce->add_option("--plan", r->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  roce->add_option("--host", r->host, "only the hosts matching this glob");
  roce->add_option("-o,--output", r->out, "directory: a root tree per host (<host>/etc/...); FILE.tar: the trees in one archive")
      ->required();
  struct SwitchArgs {
    std::string plan, glob, os = "nvue", out;
  };
  auto sa = std::make_shared<SwitchArgs>();
  CLI::App* switches =
      verb->add_subcommand("switches", "Per Ethernet switch: ports, addressing, BGP or VLANs, RoCE QoS (NVUE or SONiC)");
  switches->footer(
      "Examples:\n"
      "  railyard config switches --plan out/plan.json -o switches/          # switches/<switch>.yaml\n"
      "  railyard config switches --plan out/plan.json --switch 'storage-*' -o storage.tar\n"
      "On the switch: nv config replace <switch>.yaml && nv config apply -y. See docs/config.md.");
  switches->add_option("--plan", sa->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  switches->add_option("--os", sa->os, "nvue (Cumulus Linux 5.x, default), sonic (CONFIG_DB JSON) or eos (Arista EOS)")
      ->check(CLI::IsMember({"nvue", "sonic", "eos"}));
  switches->add_option("--switch", sa->glob, "only the switches matching this glob");
  switches->add_option("-o,--output", sa->out, "directory (one file per switch) or FILE.tar")->required();
  return [a, hosts, r, roce, sa, switches]() -> int {
    if (!hosts->parsed() && !roce->parsed() && !switches->parsed()) return kExitInput;
    if (switches->parsed()) {
      SwitchConfigs configs = ReadSwitchConfigs(sa->plan);
      size_t n = WriteSwitchConfigs(configs, sa->glob, sa->out, sa->os);
      Note(fmt::format("wrote the {} configuration of {} switch(es) to {}",
                       sa->os == "sonic" ? "SONiC"
                       : sa->os == "eos" ? "EOS"
                                         : "NVUE",
                       n, sa->out));
      return kExitOk;
    }
    if (roce->parsed()) {
      HostConfigs configs = ReadHostConfigs(r->plan);
      size_t n = WriteHostFiles(configs, r->host, r->out, [&](const std::string& host, const std::vector<HostPortConfig>& ports) {
        return RoceFiles(host, ports, configs.plan_name);
      });
      Note(fmt::format("wrote the RoCE QoS script and unit of {} host(s) to {}", n, r->out));
      return kExitOk;
    }
    HostConfigs configs = ReadHostConfigs(a->plan);
    size_t n = WriteHostConfigs(configs, a->host, a->out, a->format);
    for (const std::string& note : configs.notes) Note(note);
    Note(fmt::format("wrote the {} configuration of {} host(s) to {}", a->format, n, a->out));
    return kExitOk;
  };
}

}  // namespace railyard::cli
