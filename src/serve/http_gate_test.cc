#include "serve/http_gate.h"
#include "util/input_error.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace railyard {
namespace {

using namespace std::chrono_literals;

// A server on a free loopback port with one GET and one POST route, run on its own thread.
class GateFixture : public ::testing::Test {
 protected:
  void Start(HttpLimits limits) {
    server_ = std::make_unique<GatedHttpServer>(limits);
    server_->Get("/hello", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content("hello " + req.remote_addr, "text/plain");
    });
    server_->set_pre_routing_handler([](const httplib::Request&, httplib::Response& res) {
      res.set_header("X-Before", "1");
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server_->Get("/big", [](const httplib::Request&, httplib::Response& res) {
      res.set_header("X-Page", "1");
      res.set_content(std::string(4 << 20, 'x'), "text/plain");
    });
    server_->Post("/echo", [](const httplib::Request& req, httplib::Response& res) { res.set_content(req.body, "text/plain"); });
    port_ = server_->Bind(ParseListenAddress("127.0.0.1:0"));
    thread_ = std::thread([this] { server_->Run(); });
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
    if (thread_.joinable()) thread_.join();
  }

  int Connect() const {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    return fd;
  }
  static void Send(int fd, const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may close on us; the answer read says what happened
      done += static_cast<size_t>(n);
    }
  }
  // Everything the server sends until it closes, or until `wait` passes with nothing new.
  static std::string Receive(int fd, std::chrono::milliseconds wait = 5000ms, size_t stop_after_answers = 0) {
    std::string got;
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0) break;
      char buf[4096];
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
      if (stop_after_answers > 0) {
        size_t answers = 0;
        for (size_t at = got.find("HTTP/1.1 "); at != std::string::npos; at = got.find("HTTP/1.1 ", at + 1)) ++answers;
        if (answers >= stop_after_answers && got.size() > 4 && got.find("hello", got.rfind("HTTP/1.1 ")) != std::string::npos)
          break;
      }
    }
    return got;
  }
  std::string Get(const std::string& path) const {
    const int fd = Connect();
    Send(fd, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    std::string got = Receive(fd);
    ::close(fd);
    return got;
  }

  std::unique_ptr<GatedHttpServer> server_;
  std::thread thread_;
  int port_ = 0;
};

TEST(ListenAddress, ReadsEveryFormAndRefusesJunk) {
  EXPECT_EQ(ParseListenAddress("127.0.0.1:8080").port, 8080);
  EXPECT_EQ(ParseListenAddress("127.0.0.1:0").port, 0);
  const ListenAddress v6 = ParseListenAddress("[::1]:8443");
  EXPECT_TRUE(v6.ipv6);
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.Authority(8443), "[::1]:8443");
  EXPECT_EQ(ParseListenAddress("localhost:80").host, "localhost");
  for (const char* bad : {"127.0.0.1:8080junk", "127.0.0.1:", "127.0.0.1", ":8080", "::1:8080", "[::1]8080", "[zz]:80",
                          "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1: 80", "300.1.1.1:80", "a b:80", "-x:80", "[::1]:"}) {
    EXPECT_THROW(ParseListenAddress(bad), UsageError) << bad;
  }
}

TEST_F(GateFixture, AnswersThroughHttplibsRouting) {
  Start({});
  const std::string got = Get("/hello");
  EXPECT_NE(got.find("HTTP/1.1 200"), std::string::npos) << got;
  EXPECT_NE(got.find("hello 127.0.0.1"), std::string::npos) << got;
  EXPECT_NE(Get("/nowhere").find("HTTP/1.1 404"), std::string::npos);
  const std::string big = Get("/big");
  EXPECT_NE(big.find("X-Page: 1"), std::string::npos) << big.substr(0, 300);
  EXPECT_GT(big.size(), size_t{4} << 20);
}

TEST_F(GateFixture, KeepsAliveAndAnswersPipelinedRequestsInOrder) {
  Start({});
  const int fd = Connect();
  Send(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string got = Receive(fd, 2000ms, 2);
  ::close(fd);
  size_t answers = 0;
  for (size_t at = got.find("HTTP/1.1 200"); at != std::string::npos; at = got.find("HTTP/1.1 200", at + 1)) ++answers;
  EXPECT_EQ(answers, 2u) << got;
}

TEST_F(GateFixture, SlowClientsDoNotHoldTheWorkers) {
  HttpLimits limits;
  limits.workers = 2;
  Start(limits);
  // Ten clients, five times the workers, each sending its head one line at a time and never ending it.
  std::vector<int> slow;
  for (int i = 0; i < 10; ++i) {
    slow.push_back(Connect());
    Send(slow.back(), "GET /hello HTTP/1.1\r\n");
  }
  for (int round = 0; round < 3; ++round) {
    for (int fd : slow) Send(fd, "X-Slow: 1\r\n");
    std::this_thread::sleep_for(50ms);
  }
  // A plain cpp-httplib server would never answer this one while the ten hold both workers.
  const std::string got = Get("/hello");
  EXPECT_NE(got.find("HTTP/1.1 200"), std::string::npos) << got;
  for (int fd : slow) ::close(fd);
}

TEST_F(GateFixture, AHeadThatNeverEndsIsCutOffAt408) {
  HttpLimits limits;
  limits.head_deadline = 300ms;
  Start(limits);
  const int fd = Connect();
  Send(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n");
  const std::string got = Receive(fd, 3000ms);
  ::close(fd);
  EXPECT_NE(got.find("HTTP/1.1 408"), std::string::npos) << got;
}

TEST_F(GateFixture, AHugeHeadIs431AndIsNotReadWhole) {
  Start({});
  const int fd = Connect();
  std::string head = "GET /hello HTTP/1.1\r\nHost: x\r\n";
  while (head.size() < 256 * 1024) head += "X-Filler: " + std::string(1000, 'a') + "\r\n";
  Send(fd, head);  // the server answers and stops reading long before the end
  const std::string got = Receive(fd, 3000ms);
  ::close(fd);
  EXPECT_NE(got.find("HTTP/1.1 431"), std::string::npos) << got.substr(0, 200);
}

TEST_F(GateFixture, TooManyHeaderLinesIs431) {
  Start({});
  std::string head = "GET /hello HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 150; ++i) head += "A: b\r\n";
  const int fd = Connect();
  Send(fd, head + "\r\n");
  const std::string got = Receive(fd);
  ::close(fd);
  EXPECT_NE(got.find("HTTP/1.1 431"), std::string::npos) << got;
}

TEST_F(GateFixture, BodiesAreWholeAndBounded) {
  Start({});
  int fd = Connect();
  Send(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello");
  std::this_thread::sleep_for(100ms);  // the rest of the body later: the gate waits for it
  Send(fd, " world");
  std::string got = Receive(fd);
  ::close(fd);
  EXPECT_NE(got.find("\r\n\r\nhello world"), std::string::npos) << got;

  fd = Connect();
  Send(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
  got = Receive(fd);
  ::close(fd);
  EXPECT_NE(got.find("HTTP/1.1 413"), std::string::npos) << got;

  fd = Connect();
  Send(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
  got = Receive(fd);
  ::close(fd);
  EXPECT_NE(got.find("HTTP/1.1 411"), std::string::npos) << got;

  fd = Connect();
  Send(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
  got = Receive(fd);
  ::close(fd);
  EXPECT_NE(got.find("HTTP/1.1 400"), std::string::npos) << got;
}

TEST_F(GateFixture, ConnectionsPerAddressAreBounded) {
  HttpLimits limits;
  limits.max_connections_per_address = 3;
  Start(limits);
  std::vector<int> held;
  for (int i = 0; i < 3; ++i) held.push_back(Connect());
  std::this_thread::sleep_for(100ms);  // the gate has accepted the three
  const std::string got = Get("/hello");
  EXPECT_NE(got.find("HTTP/1.1 503"), std::string::npos) << got;
  for (int fd : held) ::close(fd);
  std::this_thread::sleep_for(100ms);
  EXPECT_NE(Get("/hello").find("HTTP/1.1 200"), std::string::npos);
}

}  // namespace
}  // namespace railyard
