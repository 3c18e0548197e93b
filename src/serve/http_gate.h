// An HTTP server that slow or greedy clients cannot starve: cpp-httplib's request parsing, routing
// and answers, behind a gate that cpp-httplib 0.11 lacks.
//
// cpp-httplib gives every connection a worker from a fixed pool, and a worker then blocks reading
// the request head with a timeout per read only: a dozen clients that each send one header line a
// second hold every worker forever, and a head of 32 MB of header lines is read whole. Here one
// thread (the gate) accepts and reads every request head with epoll, without a worker, and enforces
// what must hold before any handler runs — a deadline for the whole head, a size and line limit
// (431), a body limit (413), connections per client address and in all (503) — and only a complete
// head goes to a worker, which hands it to cpp-httplib's own Server::process_request. Between
// requests of a kept-alive connection the socket is back with the gate, so an idle client holds no
// worker either.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include <httplib.h>

namespace railyard {

struct HttpLimits {
  // The whole request head (and body) must arrive within this, counted from the moment the
  // server is ready to read it.
  std::chrono::milliseconds head_deadline{10'000};
  // A kept-alive connection with no new request for this long is closed.
  std::chrono::milliseconds keep_alive_idle{5'000};
  // The whole answer must be written within this; a reader slower than that is cut off.
  std::chrono::milliseconds write_deadline{30'000};
  size_t max_head_bytes = 32 * 1024;  // request line and headers together
  size_t max_header_lines = 100;
  size_t max_body_bytes = 4 * 1024;  // a login form; the API takes no body
  size_t max_connections = 512;      // below FD_SETSIZE: cpp-httplib answers 500 for a descriptor above it
  size_t max_connections_per_address = 64;
  size_t max_requests_per_connection = 100;
  size_t workers = 0;  // 0: twice the processors, at least 4
};

// Parsed ADDRESS:PORT: IPv4, [IPv6] or a name, and a port of digits only (0 picks a free one).
struct ListenAddress {
  std::string host;  // without brackets
  int port = 0;
  bool ipv6 = false;
  // host:port as a URL authority: [::1]:8080.
  std::string Authority(int bound_port) const;
};
// Throws UsageError naming what is wrong ("8080junk" is not a port).
ListenAddress ParseListenAddress(const std::string& text);

class GatedHttpServer : public httplib::Server {
 public:
  explicit GatedHttpServer(HttpLimits limits = {});
  ~GatedHttpServer() override;
  GatedHttpServer(const GatedHttpServer&) = delete;
  GatedHttpServer& operator=(const GatedHttpServer&) = delete;

  // Binds and listens; returns the port bound (the free one picked for port 0). Throws
  // std::runtime_error with the system's reason.
  int Bind(const ListenAddress& address);
  // Serves until Shutdown(); call once, after Bind.
  void Run();
  // From any thread: stops accepting, closes every connection, and makes Run return.
  void Shutdown();

 private:
  struct Gate;
  std::unique_ptr<Gate> gate_;
  // Runs on a worker: one complete request through cpp-httplib. True when the connection may
  // carry another request.
  bool Answer(int fd, const std::string& peer, int peer_port, const std::string& request, bool last);
};

}  // namespace railyard
