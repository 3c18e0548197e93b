#include "serve/serve_http.h"

#include <arpa/inet.h>

#include <chrono>
#include <iostream>
#include <mutex>
#include <shared_mutex>

#include <fmt/format.h>

#include "serve/access.h"
#include "util/csv.h"
#include "util/input_error.h"
#include "util/secret_mask.h"

namespace railyard {
namespace {

constexpr const char* kSessionCookie = "railyard_session";

// Loopback only: 127.0.0.0/8, ::1 and "localhost".
bool IsLoopback(const std::string& host) {
  if (host == "localhost" || host == "::1") return true;
  in_addr a{};
  return inet_pton(AF_INET, host.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

// A page's own policy; every other answer gets kApiPolicy after routing (one header only: a
// browser enforces every policy it is sent).
void SetPagePolicy(httplib::Response& res, const std::string& nonce) {
  res.set_header("Content-Security-Policy", PagePolicy(nonce));
}

void Json(httplib::Response& res, int status, const std::string& error) {
  res.status = status;
  res.set_content(fmt::format("{{\"error\":\"{}\"}}", error), "application/json");
}

// The login page with `message` in it (text only: it is one of a few fixed sentences).
std::string LoginPage(const std::string& message) {
  std::string page(EmbeddedFileText("login.html"));
  const size_t at = page.find("{{message}}");
  if (at != std::string::npos) page.replace(at, 11, message);
  return page;
}

}  // namespace

std::string PagePolicy(const std::string& nonce) {
  return fmt::format(
      "default-src 'none'; script-src 'nonce-{0}'; style-src 'nonce-{0}'; connect-src 'self'; img-src data:; "
      "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      nonce);
}

std::string WithNonce(const std::string& html, const std::string& nonce) {
  // A tag opening only: "<script>" or "<script " (not "<scripts"); the next one of either kind.
  auto next_tag = [&html](size_t from, size_t& len) {
    size_t best = std::string::npos;
    for (std::string_view tag : {std::string_view("<script"), std::string_view("<style")}) {
      for (size_t t = html.find(tag, from); t != std::string::npos && t < best; t = html.find(tag, t + 1)) {
        const size_t after = t + tag.size();
        if (after < html.size() && (html[after] == '>' || html[after] == ' ')) {
          best = t;
          len = tag.size();
          break;
        }
      }
    }
    return best;
  };
  std::string out;
  out.reserve(html.size() + 256);
  size_t from = 0, len = 0;
  for (size_t at = next_tag(0, len); at != std::string::npos; at = next_tag(from, len)) {
    out.append(html, from, at + len - from).append(" nonce=\"").append(nonce).append("\"");
    from = at + len;
  }
  out.append(html, from, std::string::npos);
  return out;
}

int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err) {
  ListenAddress address;
  try {
    address = ParseListenAddress(options.listen);
  } catch (const InputError& e) {
    err << "railyard: error: --listen " << options.listen << ": " << e.what() << "\n";
    return 2;
  }
  if (options.token.empty() && !IsLoopback(address.host)) {
    err << "railyard: error: --listen " << options.listen << " is not loopback: give a token (--token-file FILE or "
        << "RAILYARD_TOKEN) so that only holders of it read the dashboard\n";
    return 2;
  }
  if (!options.token.empty()) {
    try {
      CheckToken(options.token);
    } catch (const InputError& e) {
      err << "railyard: error: " << e.what() << "\n";
      return 2;
    }
  }
  std::unique_ptr<Dashboard> dashboard;
  try {
    dashboard = std::make_unique<Dashboard>(options.sources);
  } catch (const std::exception& e) {
    err << "railyard: error: " << MaskSecrets(e.what()) << "\n";
    return 2;
  }
  const HostAllowList hosts(address.host, options.allow_hosts);
  // The session cookie's value: random per process, so a restart ends every session and the cookie
  // is never the token itself.
  const std::string session = options.token.empty() ? std::string() : RandomHex(32);
  const std::string token = options.token;
  // Answers share the state (Dashboard::Get changes nothing); a reload has it to itself. The sources
  // are stat'ed at most once a second: a facts directory of 12,500 files is 12,500 stats, which would
  // otherwise sit on every request's path.
  std::shared_mutex state;
  std::mutex refresh_due;  // guards `checked`
  std::chrono::steady_clock::time_point checked = std::chrono::steady_clock::now();
  auto refresh_when_due = [&] {
    std::lock_guard<std::mutex> due(refresh_due);
    const auto now = std::chrono::steady_clock::now();
    if (now - checked < std::chrono::seconds(1)) return;
    std::unique_lock<std::shared_mutex> exclusive(state);
    dashboard->Refresh();
    checked = std::chrono::steady_clock::now();
  };
  GatedHttpServer server(options.limits);
  const std::string page(EmbeddedFileText("dashboard.html"));

  server.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.has_header("Content-Security-Policy")) res.set_header("Content-Security-Policy", kApiPolicy);
  });
  server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-store");
    if (!hosts.Allows(req.get_header_value("Host"))) {
      Json(res, 421, "this server does not answer to that Host name (serve --allow-host NAME adds one)");
      return httplib::Server::HandlerResponse::Handled;
    }
    const bool login = req.path == "/login";
    if (req.method != "GET" && req.method != "HEAD" && !(login && req.method == "POST")) {
      res.set_header("Allow", login ? "GET, HEAD, POST" : "GET, HEAD");
      Json(res, 405, "read-only: GET only");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (token.empty() || login) return httplib::Server::HandlerResponse::Unhandled;
    const std::optional<std::string> bearer = BearerOf(req.get_header_value("Authorization"));
    const bool allowed =
        bearer ? SameSecret(*bearer, token) : SameSecret(CookieValue(req.get_header_value("Cookie"), kSessionCookie), session);
    if (allowed) return httplib::Server::HandlerResponse::Unhandled;
    res.set_header("WWW-Authenticate", "Bearer");
    if (req.path.starts_with("/api")) {
      Json(res, 401, "a token is required: Authorization: Bearer TOKEN, or the session cookie of /login");
    } else {
      const std::string nonce = RandomHex(16);
      res.status = 401;
      SetPagePolicy(res, nonce);
      res.set_content(WithNonce(LoginPage(""), nonce), "text/html; charset=utf-8");
    }
    return httplib::Server::HandlerResponse::Handled;
  });
  server.Get("/login", [&](const httplib::Request&, httplib::Response& res) {
    if (token.empty()) {
      res.status = 303;
      res.set_header("Location", "/");
      return;
    }
    const std::string nonce = RandomHex(16);
    SetPagePolicy(res, nonce);
    res.set_content(WithNonce(LoginPage(""), nonce), "text/html; charset=utf-8");
  });
  server.Post("/login", [&](const httplib::Request& req, httplib::Response& res) {
    // The form's body (application/x-www-form-urlencoded), which cpp-httplib reads into params.
    const std::string given = req.has_param("token") ? req.get_param_value("token") : std::string();
    if (token.empty() || (!given.empty() && SameSecret(given, token))) {
      res.status = 303;
      res.set_header("Location", "/");
      if (!token.empty())
        res.set_header("Set-Cookie", fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict", kSessionCookie, session));
      return;
    }
    const std::string nonce = RandomHex(16);
    res.status = 401;
    SetPagePolicy(res, nonce);
    res.set_content(WithNonce(LoginPage("That is not the token."), nonce), "text/html; charset=utf-8");
  });
  server.Get("/", [&page](const httplib::Request&, httplib::Response& res) {
    const std::string nonce = RandomHex(16);
    SetPagePolicy(res, nonce);
    res.set_content(WithNonce(page, nonce), "text/html; charset=utf-8");
  });
  server.Get("/plan", [&](const httplib::Request&, httplib::Response& res) {
    refresh_when_due();
    std::shared_lock<std::shared_mutex> shared(state);
    if (dashboard->PlanHtml().empty()) {
      Json(res, 404, "no plan.html beside plan.json (railyard plan -o writes it)");
      return;
    }
    const std::string nonce = RandomHex(16);
    SetPagePolicy(res, nonce);
    res.set_content(WithNonce(dashboard->PlanHtml(), nonce), "text/html; charset=utf-8");
  });
  server.Get(R"(/api(/.*)?)", [&](const httplib::Request& req, httplib::Response& res) {
    refresh_when_due();
    std::shared_lock<std::shared_mutex> shared(state);
    std::multimap<std::string, std::string> query(req.params.begin(), req.params.end());
    ApiAnswer answer = dashboard->Get(req.path, query);
    res.status = answer.status;
    // Copied, not streamed: cpp-httplib's content providers stop at once when its own listen
    // socket is closed, and the gate listens on its own.
    res.set_content(answer.body, answer.content_type.c_str());
  });
  int bound = 0;
  try {
    bound = server.Bind(address);
  } catch (const std::exception& e) {
    err << "railyard: error: " << e.what() << "\n";
    return 2;
  }
  const std::string url = fmt::format("http://{}/", address.Authority(bound));
  err << fmt::format("railyard: serving {} on {} (read-only{})\n", options.sources.plan, url,
                     token.empty() ? "" : "; a token by header or the login page");
  out << url << "\n" << std::flush;  // scripts read the address from here
  server.Run();
  return 0;
}

}  // namespace railyard
