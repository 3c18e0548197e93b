// railyard serve --plan plan.json [--facts F...] [--verify RESULT.json] [--listen 127.0.0.1:8080] [--token T]:
// the read-only dashboard and its JSON API (docs/serve.md). This file is the HTTP shell around
// serve/dashboard (which answers every API request): binding, the bearer token, security headers,
// refusing every method but GET.
#include <arpa/inet.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <mutex>

#include <fmt/format.h>
#include <httplib.h>

#include "cli/commands.h"
#include "serve/dashboard.h"
#include "util/csv.h"

namespace railyard::cli {
namespace {

// Loopback only: 127.0.0.0/8, ::1 and "localhost".
bool IsLoopback(const std::string& host) {
  if (host == "localhost" || host == "::1") return true;
  in_addr a{};
  return inet_pton(AF_INET, host.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

// Equal without an early exit, so the time taken does not tell how much of a guess was right.
bool SameToken(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

}  // namespace

std::function<int()> AddServeCommand(CLI::App& app) {
  struct Args {
    DashboardSources sources;
    std::string listen = "127.0.0.1:8080", token;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("serve", "A read-only dashboard and JSON API over the plan, facts and verify results");
  cmd->footer(
      "Examples:\n"
      "  railyard serve --plan out/plan.json --facts facts/ --verify verify.json        # http://127.0.0.1:8080/\n"
      "  railyard serve --plan out/plan.json --facts fleet.ndjson --listen 0.0.0.0:8080 --token \"$(cat token)\"\n"
      "Any address but loopback needs --token: requests then carry 'Authorization: Bearer TOKEN'. See docs/serve.md.");
  cmd->add_option("--plan", a->sources.plan, "plan.json from `railyard plan -o` (plan.html beside it is served too)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--facts", a->sources.facts, "host and switch facts: files, directories or NDJSON (doctor runs over them)");
  cmd->add_option("--verify", a->sources.verify, "a `railyard verify --format json` result")->check(CLI::ExistingFile);
  cmd->add_option("--policy", a->sources.policy, "doctor policy YAML")->check(CLI::ExistingFile);
  cmd->add_option("--db", a->sources.db, "the ledger (SQLite file or postgresql:// URL): acceptance status per batch")
      ->envname("RAILYARD_DB");
  cmd->add_option("--rollout", a->sources.rollout, "a rollout state directory (rollout plan -o): each wave's state")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--listen", a->listen, "ADDRESS:PORT (default 127.0.0.1:8080; port 0 picks a free one)");
  cmd->add_option("--token", a->token, "bearer token every request must carry (required off loopback)")
      ->envname("RAILYARD_TOKEN");
  return [a]() -> int {
    const size_t colon = a->listen.rfind(':');
    std::string host = colon == std::string::npos ? a->listen : a->listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    int port = 0;
    try {
      port = colon == std::string::npos ? 8080 : std::stoi(a->listen.substr(colon + 1));
    } catch (const std::exception&) {
      port = -1;
    }
    if (port < 0 || port > 65535) {
      std::cerr << "railyard: error: --listen " << a->listen << ": not ADDRESS:PORT\n";
      return kExitInput;
    }
    if (!IsLoopback(host) && a->token.empty()) {
      std::cerr << "railyard: error: --listen " << a->listen << " is not loopback: give --token (or RAILYARD_TOKEN) so that only "
                << "holders of it read the dashboard\n";
      return kExitInput;
    }
    std::unique_ptr<Dashboard> dashboard;
    try {
      dashboard = std::make_unique<Dashboard>(a->sources);
    } catch (const std::exception& e) {
      std::cerr << "railyard: error: " << e.what() << "\n";
      return kExitInput;
    }
    std::mutex mutex;  // one refresh at a time; answers read the state under it
    httplib::Server server;
    const std::string page(EmbeddedFileText("dashboard.html"));
    server.set_pre_routing_handler([a](const httplib::Request& req, httplib::Response& res) {
      res.set_header(
          "Content-Security-Policy",
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; "
          "frame-ancestors 'none'");
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_header("Referrer-Policy", "no-referrer");
      res.set_header("Cache-Control", "no-store");
      if (req.method != "GET" && req.method != "HEAD") {
        res.status = 405;
        res.set_header("Allow", "GET, HEAD");
        res.set_content("{\"error\":\"read-only: GET only\"}", "application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
      if (!a->token.empty() && !SameToken(req.get_header_value("Authorization"), "Bearer " + a->token)) {
        res.status = 401;
        res.set_header("WWW-Authenticate", "Bearer");
        res.set_content("{\"error\":\"a bearer token is required\"}", "application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server.Get("/",
               [&page](const httplib::Request&, httplib::Response& res) { res.set_content(page, "text/html; charset=utf-8"); });
    server.Get("/plan", [&dashboard, &mutex](const httplib::Request&, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex);
      if (dashboard->PlanHtml().empty()) {
        res.status = 404;
        res.set_content("{\"error\":\"no plan.html beside plan.json (railyard plan -o writes it)\"}", "application/json");
      } else {
        res.set_content(dashboard->PlanHtml(), "text/html; charset=utf-8");
      }
    });
    // The sources are stat'ed at most once a second: a facts directory of 12,500 files is 12,500
    // stats, which would otherwise sit on every request's path.
    std::chrono::steady_clock::time_point checked{};
    server.Get(R"(/api(/.*)?)", [&dashboard, &mutex, &checked](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex);
      const auto now = std::chrono::steady_clock::now();
      if (now - checked >= std::chrono::seconds(1)) {
        dashboard->Refresh();
        checked = now;
      }
      std::multimap<std::string, std::string> query(req.params.begin(), req.params.end());
      ApiAnswer answer = dashboard->Get(req.path, query);
      res.status = answer.status;
      res.set_content(answer.body, answer.content_type.c_str());
    });
    int bound = port;
    if (port == 0) {
      bound = server.bind_to_any_port(host.c_str());
    } else if (!server.bind_to_port(host.c_str(), port)) {
      bound = -1;
    }
    if (bound < 0) {
      std::cerr << "railyard: error: cannot listen on " << a->listen << "\n";
      return kExitInput;
    }
    std::cerr << fmt::format("railyard: serving {} on http://{}:{}/ (read-only{})\n", a->sources.plan, host, bound,
                             a->token.empty() ? "" : ", bearer token");
    std::cout << fmt::format("http://{}:{}/\n", host, bound) << std::flush;  // scripts read the address from here
    server.listen_after_bind();
    return kExitOk;
  };
}

}  // namespace railyard::cli
