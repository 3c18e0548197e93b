// railyard serve --plan plan.json [--facts F...] [--verify RESULT.json] [--listen 127.0.0.1:8080]
// [--token-file FILE] [--allow-host NAME...]: the read-only dashboard and its JSON API
// (docs/serve.md). The server itself is serve/serve_http; this file reads the options.
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "serve/access.h"
#include "serve/serve_http.h"

namespace railyard::cli {

std::function<int()> AddServeCommand(CLI::App& app) {
  struct Args {
    ServeOptions options;
    std::string token, token_file;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("serve", "A read-only dashboard and JSON API over the plan, facts and verify results");
  cmd->footer(
      "Examples:\n"
      "  railyard serve --plan out/plan.json --facts facts/ --verify verify.json        # http://127.0.0.1:8080/\n"
      "  openssl rand -hex 32 > token; chmod 600 token\n"
      "  railyard serve --plan out/plan.json --facts fleet.ndjson --listen 0.0.0.0:8080 --token-file token --allow-host "
      "dash.example.org\n"
      "Any address but loopback needs a token: a browser gets a login page for it, an API client sends\n"
      "'Authorization: Bearer TOKEN'. See docs/serve.md.");
  ServeOptions& o = a->options;
  cmd->add_option("--plan", o.sources.plan, "plan.json from `railyard plan -o` (plan.html beside it is served too)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--facts", o.sources.facts, "host and switch facts: files, directories or NDJSON (doctor runs over them)");
  cmd->add_option("--verify", o.sources.verify, "a `railyard verify --format json` result")->check(CLI::ExistingFile);
  cmd->add_option("--policy", o.sources.policy, "doctor policy YAML")->check(CLI::ExistingFile);
  cmd->add_option("--db", o.sources.db, "the ledger (SQLite file, postgresql:// URL or conninfo): acceptance status per batch")
      ->envname("RAILYARD_DB");
  cmd->add_option("--rollout", o.sources.rollout, "a rollout state directory (rollout plan -o): each wave's state")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--listen", o.listen, "ADDRESS:PORT or [IPv6]:PORT (default 127.0.0.1:8080; port 0 picks a free one)");
  cmd->add_option("--token-file", a->token_file, "a file holding the token (one line, at least 16 characters)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--token", a->token, "the token itself; prefer --token-file or RAILYARD_TOKEN (argv is visible in ps)")
      ->envname("RAILYARD_TOKEN");
  cmd->add_option("--allow-host", o.allow_hosts,
                  "a Host name the server answers to, beyond IP addresses, localhost and this machine's name (a reverse "
                  "proxy's name)");
  return [a]() -> int {
    ServeOptions options = a->options;
    if (!a->token_file.empty() && !a->token.empty()) {
      PrintError("give the token once: --token-file or RAILYARD_TOKEN/--token");
      return kExitInput;
    }
    if (!a->token_file.empty()) {
      options.token = ReadTokenFile(a->token_file);
    } else {
      options.token = a->token;
      const char* env = std::getenv("RAILYARD_TOKEN");
      if (!a->token.empty() && (env == nullptr || a->token != env))
        std::cerr << "railyard: warning: --token on the command line is visible to every local user (ps); use --token-file "
                     "or RAILYARD_TOKEN\n";
    }
    return RunServe(options, std::cout, std::cerr);
  };
}

}  // namespace railyard::cli
