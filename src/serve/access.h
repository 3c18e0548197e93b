// Who may read what `serve` serves: the bearer token (in an Authorization header or a session
// cookie the login page sets), and the Host header allow-list that stops a web page from reading
// a loopback server through DNS rebinding. Pure functions over header values, tested without a socket.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

// The token of `Authorization: Bearer TOKEN`: the scheme in any case (RFC 7235: case-insensitive),
// one or more spaces; nullopt for any other scheme or an empty token.
std::optional<std::string> BearerOf(std::string_view authorization);

// Equal without an early exit, so the time taken does not tell how much of a guess was right.
bool SameSecret(std::string_view a, std::string_view b);

// The value of cookie `name` in a Cookie header ("a=1; b=2"), or "".
std::string CookieValue(std::string_view cookie_header, std::string_view name);

// `bytes` bytes from the kernel's random source, as hex. Throws std::runtime_error when there is none.
std::string RandomHex(size_t bytes);

// The token read from a file: one line, the newline after it dropped. Throws InputError
// naming the file when it cannot be read, is empty, or is more than one line; a token shorter than
// kMinTokenLength is refused by CheckToken.
std::string ReadTokenFile(const std::string& path);
inline constexpr size_t kMinTokenLength = 16;
// Throws UsageError when the token is too short to resist guessing or holds a space or
// control character (it could not be sent in a header as given).
void CheckToken(std::string_view token);

// The Host header names a server may answer to. Refusing the others defeats DNS rebinding: a page
// of another site that rebinds its name to this address still sends its own name as Host.
class HostAllowList {
 public:
  // `listen_host` is the listen address (without brackets); `extra` comes from --allow-host. Always
  // allowed: IP literals (a page cannot make a browser send one for another site's origin), the
  // localhost names, this machine's host name, and `listen_host` when it is a name.
  HostAllowList(std::string listen_host, std::vector<std::string> extra);
  // True when the Host header value (name[:port], [v6][:port]) is allowed. An empty header is not.
  bool Allows(std::string_view host_header) const;

 private:
  std::vector<std::string> names_;  // lower case, no trailing dot
};

}  // namespace railyard
