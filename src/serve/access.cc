#include "serve/access.h"

#include <arpa/inet.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "util/input_error.h"
#include "util/text.h"

namespace railyard {
namespace {}  // namespace

std::optional<std::string> BearerOf(std::string_view authorization) {
  authorization = TrimSpace(authorization);
  const size_t space = authorization.find_first_of(" \t");
  if (space == std::string_view::npos || Lower(authorization.substr(0, space)) != "bearer") return std::nullopt;
  const std::string_view token = TrimSpace(authorization.substr(space));
  if (token.empty()) return std::nullopt;
  return std::string(token);
}

bool SameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

std::string CookieValue(std::string_view cookie_header, std::string_view name) {
  while (!cookie_header.empty()) {
    const size_t semi = cookie_header.find(';');
    std::string_view pair = TrimSpace(cookie_header.substr(0, semi));
    cookie_header.remove_prefix(semi == std::string_view::npos ? cookie_header.size() : semi + 1);
    const size_t eq = pair.find('=');
    if (eq != std::string_view::npos && TrimSpace(pair.substr(0, eq)) == name) return std::string(TrimSpace(pair.substr(eq + 1)));
  }
  return "";
}

std::string RandomHex(size_t bytes) {
  std::string raw(bytes, '\0');
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = getrandom(raw.data() + got, bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(fmt::format("no random source: {}", std::strerror(errno)));
    got += static_cast<size_t>(n);
  }
  std::string hex;
  for (unsigned char c : raw) hex += fmt::format("{:02x}", c);
  return hex;
}

std::string ReadTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read the token file: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  if (token.size() > 4096) throw InputError(fmt::format("{}: not a token (over 4096 bytes)", path));
  if (!token.empty() && token.back() == '\n') token.pop_back();
  if (!token.empty() && token.back() == '\r') token.pop_back();
  if (token.empty()) throw InputError(fmt::format("{}: the token file is empty", path));
  if (token.find('\n') != std::string::npos) throw InputError(fmt::format("{}: the token file has more than one line", path));
  return token;
}

void CheckToken(std::string_view token) {
  if (token.size() < kMinTokenLength)
    throw UsageError(fmt::format("the token is {} characters; give at least {} (for example `openssl rand -hex 32 > token`)",
                                 token.size(), kMinTokenLength));
  for (char c : token) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f) throw UsageError("the token holds a space or control character");
  }
}

HostAllowList::HostAllowList(std::string listen_host, std::vector<std::string> extra) {
  names_ = {"localhost"};
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0 && name[0] != '\0') names_.push_back(Lower(name));
  extra.push_back(std::move(listen_host));
  for (std::string& e : extra) {
    std::string n = Lower(TrimSpace(e));
    while (!n.empty() && n.back() == '.') n.pop_back();
    if (!n.empty()) names_.push_back(std::move(n));
  }
}

bool HostAllowList::Allows(std::string_view host_header) const {
  host_header = TrimSpace(host_header);
  if (host_header.empty()) return false;
  std::string_view name, port;
  if (host_header.front() == '[') {
    const size_t close = host_header.find(']');
    if (close == std::string_view::npos) return false;
    name = host_header.substr(1, close - 1);
    const std::string_view after = host_header.substr(close + 1);
    if (!after.empty() && after.front() != ':') return false;
    port = after.empty() ? after : after.substr(1);
    in6_addr a6{};
    if (inet_pton(AF_INET6, std::string(name).c_str(), &a6) != 1) return false;
    return std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  const size_t colon = host_header.rfind(':');
  name = host_header.substr(0, colon);
  port = colon == std::string_view::npos ? std::string_view() : host_header.substr(colon + 1);
  if (colon != std::string_view::npos && port.empty()) return false;
  if (!std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  in_addr a4{};
  if (inet_pton(AF_INET, std::string(name).c_str(), &a4) == 1) return true;
  std::string n = Lower(name);
  while (!n.empty() && n.back() == '.') n.pop_back();
  if (n.ends_with(".localhost")) return true;  // RFC 6761: always loopback
  return std::find(names_.begin(), names_.end(), n) != names_.end();
}

}  // namespace railyard
