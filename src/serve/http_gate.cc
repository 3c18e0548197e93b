#include "serve/http_gate.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <poll.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "util/input_error.h"
#include "util/text.h"

namespace railyard {
namespace {

using Clock = std::chrono::steady_clock;

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The client's address as text, an IPv4-mapped IPv6 address as plain IPv4, and its port.
std::pair<std::string, int> PeerOf(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(addr);
    inet_ntop(AF_INET, &in.sin_addr, text, sizeof text);
    return {text, ntohs(in.sin_port)};
  }
  if (addr.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(addr);
    if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr)) {
      inet_ntop(AF_INET, &in6.sin6_addr.s6_addr[12], text, sizeof text);
    } else {
      inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
    }
    return {text, ntohs(in6.sin6_port)};
  }
  return {"unknown", 0};
}

// One request as cpp-httplib reads it: the head (and body) the gate already holds, then the end of
// input; answers are written to the socket until the write deadline.
class GateStream final : public httplib::Stream {
 public:
  GateStream(int fd, const std::string& request, const std::string& peer, int peer_port, Clock::time_point deadline)
      : fd_(fd), request_(request), peer_(peer), peer_port_(peer_port), deadline_(deadline) {}

  bool is_readable() const override { return pos_ < request_.size(); }
  bool is_writable() const override { return WaitWritable(); }
  ssize_t read(char* ptr, size_t size) override {
    const size_t n = std::min(size, request_.size() - pos_);
    std::memcpy(ptr, request_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::send(fd_, ptr + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        done += static_cast<size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!WaitWritable()) return -1;
      } else {
        return -1;
      }
    }
    return static_cast<ssize_t>(done);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_;
    port = peer_port_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) std::tie(ip, port) = PeerOf(addr);
  }
  socket_t socket() const override { return fd_; }

 private:
  bool WaitWritable() const {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, POLLOUT, 0};
      const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
      if (r > 0) return (p.revents & (POLLERR | POLLHUP | POLLNVAL)) == 0 || (p.revents & POLLOUT) != 0;
      if (r < 0 && errno != EINTR) return false;
    }
  }

  int fd_;
  const std::string& request_;
  size_t pos_ = 0;
  std::string peer_;
  int peer_port_;
  Clock::time_point deadline_;
};

}  // namespace

std::string ListenAddress::Authority(int bound_port) const {
  return ipv6 ? fmt::format("[{}]:{}", host, bound_port) : fmt::format("{}:{}", host, bound_port);
}

ListenAddress ParseListenAddress(const std::string& text) {
  ListenAddress out;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
      throw UsageError("an IPv6 address is written [ADDRESS]:PORT");
    out.host = text.substr(1, close - 1);
    in6_addr a6{};
    if (inet_pton(AF_INET6, out.host.c_str(), &a6) != 1) throw UsageError(fmt::format("'{}' is not an IPv6 address", out.host));
    out.ipv6 = true;
    port = std::string_view(text).substr(close + 2);
  } else {
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos) throw UsageError("not ADDRESS:PORT (the port is required)");
    out.host = text.substr(0, colon);
    if (out.host.find(':') != std::string::npos) throw UsageError("an IPv6 address is written in brackets: [ADDRESS]:PORT");
    port = std::string_view(text).substr(colon + 1);
    if (out.host.empty()) throw UsageError("no address before the port");
    in_addr a4{};
    const bool dotted = std::all_of(out.host.begin(), out.host.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
    if (dotted && inet_pton(AF_INET, out.host.c_str(), &a4) != 1)
      throw UsageError(fmt::format("'{}' is not an IPv4 address", out.host));
    const bool name_chars = std::all_of(out.host.begin(), out.host.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
    if (!name_chars || out.host.front() == '-') throw UsageError(fmt::format("'{}' is not a host name or address", out.host));
  }
  if (!IsDigits(port) || port.size() > 5) throw UsageError(fmt::format("'{}' is not a port", port));
  out.port = std::stoi(std::string(port));
  if (out.port > 65535) throw UsageError(fmt::format("'{}' is not a port (0 to 65535)", port));
  return out;
}

struct GatedHttpServer::Gate {
  struct Connection {
    int fd = -1;
    std::string peer;
    int peer_port = 0;
    std::string buffer;  // bytes read and not yet handed to a worker
    Clock::time_point deadline;
    size_t served = 0;
    bool in_worker = false;
    bool draining = false;     // answered with an error: read and discard until the peer closes
    bool peer_closed = false;  // the client shut its side after a request: answer it, then close
  };
  struct Job {
    int fd;
    std::string peer;
    int peer_port;
    std::string request;
    bool last;
  };

  explicit Gate(HttpLimits l) : limits(l) {
    if (limits.workers == 0) limits.workers = std::max<size_t>(4, 2 * std::max(1u, std::thread::hardware_concurrency()));
  }

  // Connections over the limit still get their 503 and a second of draining; beyond this many more,
  // they are closed unanswered.
  static constexpr size_t kRefusing = 64;
  HttpLimits limits;
  std::optional<Clock::time_point> accept_paused_until;
  int listen_fd = -1, epoll_fd = -1, wake_fd = -1;
  std::atomic<bool> stopping{false};
  std::unordered_map<int, Connection> connections;  // the gate thread's only
  std::unordered_map<std::string, size_t> per_address;

  std::mutex mutex;  // guards jobs, returned
  std::condition_variable job_ready;
  std::deque<Job> jobs;
  std::vector<std::pair<int, bool>> returned;  // fd, may carry another request

  void Wake() {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_fd, &one, sizeof one);
  }

  void Watch(Connection& c) {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.fd = c.fd;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c.fd, &ev);
  }

  void Close(int fd) {
    auto it = connections.find(fd);
    if (it == connections.end()) return;
    if (!it->second.in_worker) epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
    auto pa = per_address.find(it->second.peer);
    if (pa != per_address.end() && --pa->second == 0) per_address.erase(pa);
    ::close(fd);
    connections.erase(it);
  }

  // An answer the gate gives itself (the request never reached a handler), then the connection
  // drains for a second so that the client reads the answer before the reset a close with unread
  // bytes would send.
  void Refuse(Connection& c, int status, const char* reason, const std::string& message) {
    const std::string body = fmt::format("{{\"error\":\"{}\"}}", message);
    const std::string answer = fmt::format(
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n"
        "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n{}",
        status, reason, body.size(), body);
    [[maybe_unused]] ssize_t n = ::send(c.fd, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(c.fd, SHUT_WR);
    c.draining = true;
    c.buffer.clear();
    c.buffer.shrink_to_fit();
    c.deadline = Clock::now() + std::chrono::seconds(1);
  }

  // What the buffer holds: nothing complete yet (0), a complete request of that many bytes, or a
  // refusal already sent (-1).
  long CompleteRequest(Connection& c) {
    const size_t end = c.buffer.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (c.buffer.size() > limits.max_head_bytes) {
        Refuse(c, 431, "Request Header Fields Too Large",
               fmt::format("the request head is over {} bytes", limits.max_head_bytes));
        return -1;
      }
      return 0;
    }
    const size_t head = end + 4;
    if (head > limits.max_head_bytes) {
      Refuse(c, 431, "Request Header Fields Too Large", fmt::format("the request head is over {} bytes", limits.max_head_bytes));
      return -1;
    }
    size_t lines = 0, body = 0;
    bool have_length = false;
    // The header lines: after the request line, up to the blank line.
    std::string_view rest(c.buffer.data(), end);
    const size_t first = rest.find("\r\n");
    rest = first == std::string_view::npos ? std::string_view() : rest.substr(first + 2);
    while (!rest.empty()) {
      const size_t eol = rest.find("\r\n");
      const std::string_view line = rest.substr(0, eol);
      rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 2);
      if (++lines > limits.max_header_lines) {
        Refuse(c, 431, "Request Header Fields Too Large", fmt::format("more than {} header lines", limits.max_header_lines));
        return -1;
      }
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      const std::string_view name = line.substr(0, colon), value = TrimSpace(line.substr(colon + 1));
      if (Lower(name) == "transfer-encoding") {
        Refuse(c, 411, "Length Required", "a request body must come with Content-Length");
        return -1;
      }
      if (Lower(name) == "content-length") {
        if (have_length || !IsDigits(value) || value.size() > 9) {
          Refuse(c, 400, "Bad Request", "one Content-Length of digits");
          return -1;
        }
        have_length = true;
        body = std::stoul(std::string(value));
        if (body > limits.max_body_bytes) {
          Refuse(c, 413, "Payload Too Large", fmt::format("a request body is at most {} bytes", limits.max_body_bytes));
          return -1;
        }
      }
    }
    if (c.buffer.size() < head + body) return 0;
    return static_cast<long>(head + body);
  }

  // Hands the connection's next request to a worker when the buffer holds one whole.
  void Advance(Connection& c) {
    const long size = CompleteRequest(c);
    if (size <= 0) return;
    if (!c.in_worker) epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c.fd, nullptr);
    c.in_worker = true;
    Job job{c.fd, c.peer, c.peer_port, c.buffer.substr(0, static_cast<size_t>(size)),
            c.served + 1 >= limits.max_requests_per_connection};
    c.buffer.erase(0, static_cast<size_t>(size));
    {
      std::lock_guard<std::mutex> lock(mutex);
      jobs.push_back(std::move(job));
    }
    job_ready.notify_one();
  }

  void Accept() {
    for (;;) {
      sockaddr_storage addr{};
      socklen_t len = sizeof addr;
      const int fd = accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          // Out of descriptors: stop watching the listener a moment rather than spin on it.
          epoll_ctl(epoll_fd, EPOLL_CTL_DEL, listen_fd, nullptr);
          accept_paused_until = Clock::now() + std::chrono::milliseconds(100);
        }
        return;
      }
      if (connections.size() >= limits.max_connections + kRefusing) {
        ::close(fd);  // beyond even the slots kept for refusals: no answer at all
        continue;
      }
      const int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // cpp-httplib writes head and body apart
      auto [peer, peer_port] = PeerOf(addr);
      Connection& c = connections[fd];
      c.fd = fd;
      c.peer = peer;
      c.peer_port = peer_port;
      c.deadline = Clock::now() + limits.head_deadline;
      Watch(c);
      const size_t from_peer = ++per_address[peer];
      if (connections.size() > limits.max_connections) {
        Refuse(c, 503, "Service Unavailable", "too many connections");
      } else if (from_peer > limits.max_connections_per_address) {
        Refuse(c, 503, "Service Unavailable", "too many connections from this address");
      }
    }
  }

  void Read(Connection& c) {
    char chunk[16384];
    for (;;) {
      const ssize_t n = ::recv(c.fd, chunk, sizeof chunk, 0);
      if (n > 0) {
        if (c.draining) continue;
        if (c.buffer.empty() && c.served > 0) c.deadline = Clock::now() + limits.head_deadline;
        c.buffer.append(chunk, static_cast<size_t>(n));
        if (c.buffer.size() > limits.max_head_bytes + limits.max_body_bytes) break;  // judged below
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      // The peer closed its side, or an error: a whole request already read is still answered.
      if (!c.draining) Advance(c);
      if (c.in_worker) {
        c.peer_closed = true;
      } else {
        Close(c.fd);
      }
      return;
    }
    if (!c.draining) Advance(c);
  }

  void Returned(int fd, bool keep) {
    auto it = connections.find(fd);
    if (it == connections.end()) return;
    Connection& c = it->second;
    ++c.served;
    if (!keep || c.peer_closed || stopping) {
      Close(fd);  // still marked in_worker: not in the epoll set
      return;
    }
    c.in_worker = false;
    c.deadline = Clock::now() + (c.buffer.empty() ? limits.keep_alive_idle : limits.head_deadline);
    Watch(c);
    Advance(c);
  }

  void Expire() {
    const auto now = Clock::now();
    std::vector<int> late;
    for (auto& [fd, c] : connections)
      if (!c.in_worker && c.deadline <= now) late.push_back(fd);
    for (int fd : late) {
      Connection& c = connections[fd];
      if (!c.draining && !c.buffer.empty()) {
        Refuse(c, 408, "Request Timeout", "the request did not arrive in time");
      } else {
        Close(fd);
      }
    }
  }
};

GatedHttpServer::GatedHttpServer(HttpLimits limits) : gate_(std::make_unique<Gate>(limits)) {
  // What cpp-httplib announces in Keep-Alive: the gate's own limits.
  set_keep_alive_max_count(limits.max_requests_per_connection);
  set_keep_alive_timeout(std::max<time_t>(1, static_cast<time_t>(limits.keep_alive_idle.count() / 1000)));
}

GatedHttpServer::~GatedHttpServer() {
  for (auto& [fd, c] : gate_->connections) ::close(fd);
  for (int fd : {gate_->listen_fd, gate_->epoll_fd, gate_->wake_fd})
    if (fd >= 0) ::close(fd);
}

int GatedHttpServer::Bind(const ListenAddress& address) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(address.port);
  if (const int rc = getaddrinfo(address.host.c_str(), port.c_str(), &hints, &found); rc != 0)
    throw std::runtime_error(fmt::format("cannot resolve {}: {}", address.host, gai_strerror(rc)));
  std::string why = "no address";
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      why = std::strerror(errno);
      continue;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0) {
      gate_->listen_fd = fd;
      break;
    }
    why = std::strerror(errno);
    ::close(fd);
  }
  freeaddrinfo(found);
  if (gate_->listen_fd < 0)
    throw std::runtime_error(fmt::format("cannot listen on {}: {}", address.Authority(address.port), why));
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  getsockname(gate_->listen_fd, reinterpret_cast<sockaddr*>(&bound), &len);
  return PeerOf(bound).second;
}

bool GatedHttpServer::Answer(int fd, const std::string& peer, int peer_port, const std::string& request, bool last) {
  GateStream stream(fd, request, peer, peer_port, Clock::now() + gate_->limits.write_deadline);
  bool connection_closed = false;
  const bool written = process_request(stream, last, connection_closed, nullptr);
  return written && !connection_closed && !last;
}

void GatedHttpServer::Run() {
  Gate& g = *gate_;
  if (g.listen_fd < 0) throw std::logic_error("GatedHttpServer::Run before Bind");
  g.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  g.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (g.epoll_fd < 0 || g.wake_fd < 0) throw std::runtime_error(fmt::format("epoll: {}", std::strerror(errno)));
  for (int fd : {g.listen_fd, g.wake_fd}) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    epoll_ctl(g.epoll_fd, EPOLL_CTL_ADD, fd, &ev);
  }
  std::vector<std::thread> workers;
  for (size_t i = 0; i < g.limits.workers; ++i) {
    workers.emplace_back([this, &g] {
      for (;;) {
        Gate::Job job;
        {
          std::unique_lock<std::mutex> lock(g.mutex);
          g.job_ready.wait(lock, [&g] { return g.stopping || !g.jobs.empty(); });
          if (g.jobs.empty()) return;
          job = std::move(g.jobs.front());
          g.jobs.pop_front();
        }
        bool keep = false;
        try {
          keep = Answer(job.fd, job.peer, job.peer_port, job.request, job.last);
        } catch (...) {
          keep = false;  // cpp-httplib answers a handler's exception itself; anything else ends the connection
        }
        {
          std::lock_guard<std::mutex> lock(g.mutex);
          g.returned.emplace_back(job.fd, keep);
        }
        g.Wake();
      }
    });
  }
  std::vector<epoll_event> events(256);
  while (!g.stopping) {
    int timeout = g.accept_paused_until ? 100 : 1000;
    const auto now = Clock::now();
    for (const auto& [fd, c] : g.connections) {
      if (c.in_worker) continue;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(c.deadline - now).count() + 1;
      timeout = static_cast<int>(std::clamp<long long>(left, 0, timeout));
    }
    const int n = epoll_wait(g.epoll_fd, events.data(), static_cast<int>(events.size()), timeout);
    for (int i = 0; i < n; ++i) {
      const int fd = events[static_cast<size_t>(i)].data.fd;
      if (fd == g.listen_fd) {
        g.Accept();
      } else if (fd == g.wake_fd) {
        uint64_t count = 0;
        [[maybe_unused]] ssize_t r = ::read(g.wake_fd, &count, sizeof count);
        std::vector<std::pair<int, bool>> back;
        {
          std::lock_guard<std::mutex> lock(g.mutex);
          back.swap(g.returned);
        }
        for (auto [rfd, keep] : back) g.Returned(rfd, keep);
      } else if (auto it = g.connections.find(fd); it != g.connections.end() && !it->second.in_worker) {
        g.Read(it->second);
      }
    }
    g.Expire();
    if (g.accept_paused_until && Clock::now() >= *g.accept_paused_until) {
      g.accept_paused_until.reset();
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.fd = g.listen_fd;
      epoll_ctl(g.epoll_fd, EPOLL_CTL_ADD, g.listen_fd, &ev);
    }
  }
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    g.jobs.clear();
  }
  g.job_ready.notify_all();
  for (auto& w : workers) w.join();
  for (auto& [fd, c] : g.connections) ::close(fd);
  g.connections.clear();
}

void GatedHttpServer::Shutdown() {
  gate_->stopping = true;
  if (gate_->wake_fd >= 0) gate_->Wake();
  gate_->job_ready.notify_all();
}

}  // namespace railyard
