// `railyard serve` on a socket: the dashboard's pages and API (serve/dashboard) behind the HTTP
// gate (serve/http_gate), with who-may-read (serve/access) in front: the Host allow-list, the token
// by header or session cookie, the login page, GET only, and the security headers of docs/serve.md.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "serve/dashboard.h"
#include "serve/http_gate.h"

namespace railyard {

struct ServeOptions {
  DashboardSources sources;
  std::string listen = "127.0.0.1:8080";
  std::string token;                     // "" on loopback only; from RAILYARD_TOKEN or --token-file
  std::vector<std::string> allow_hosts;  // Host names beyond IP literals, localhost and this host's name
  HttpLimits limits;
};

// The Content-Security-Policy of a page whose inline <script> and <style> carry `nonce`, and of
// every other answer.
std::string PagePolicy(const std::string& nonce);
inline constexpr const char* kApiPolicy = "default-src 'none'; frame-ancestors 'none'";
// `html` with nonce="…" on every <script> and <style> tag, so that PagePolicy lets exactly those run.
std::string WithNonce(const std::string& html, const std::string& nonce);

// Checks the options, loads the dashboard, binds, prints the URL on `out` (scripts read it), and
// serves until the process ends. Returns an exit code: 2 with the reason on `err` for options or
// sources that cannot work.
int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace railyard
