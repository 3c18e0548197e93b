// railyard config hosts --plan plan.json [--host GLOB] [--format netplan] -o DIR
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "config/host_config.h"

namespace railyard::cli {

std::function<int()> AddConfigCommand(CLI::App& app) {
  struct Args {
    std::string plan, host, format = "netplan", out;
  };
  auto a = std::make_shared<Args>();
  CLI::App* verb = app.add_subcommand("config", "Write configuration from the plan: host network files");
  verb->require_subcommand(1);
  CLI::App* hosts = verb->add_subcommand("hosts", "Per host: addresses, MTU, multi-rail routing (netplan or NetworkManager), from the plan");
  hosts->footer(
      "Examples:\n"
      "  railyard config hosts --plan out/plan.json -o hosts/             # hosts/<host>/etc/netplan/60-railyard.yaml\n"
      "  railyard config hosts --plan out/plan.json --host 'dgx00*' -o hosts/\n"
      "  netplan generate --root-dir hosts/dgx001                         # check one with netplan itself\n"
      "See docs/config.md.");
  hosts->add_option("--plan", a->plan, "plan.json from `railyard plan -o` (its spec names the netdevs)")->required()->check(CLI::ExistingFile);
  hosts->add_option("--host", a->host, "only the hosts matching this glob");
  hosts->add_option("--format", a->format, "netplan (default) or nm (NetworkManager keyfiles)")->check(CLI::IsMember({"netplan", "nm"}));
  hosts->add_option("-o,--output", a->out, "directory: a root tree per host (<host>/etc/...); FILE.tar: the trees in one archive")->required();
  return [a, hosts]() -> int {
    if (!hosts->parsed()) return kExitInput;
    try {
      HostConfigs configs = ReadHostConfigs(a->plan);
      size_t n = WriteHostConfigs(configs, a->host, a->out, a->format);
      for (const std::string& note : configs.notes) std::cerr << "railyard: " << note << "\n";
      std::cerr << fmt::format("railyard: wrote the {} configuration of {} host(s) to {}\n", a->format, n, a->out);
      return kExitOk;
    } catch (const std::exception& e) {
      std::cerr << "railyard: error: " << e.what() << "\n";
      return kExitInput;
    }
  };
}

}  // namespace railyard::cli
