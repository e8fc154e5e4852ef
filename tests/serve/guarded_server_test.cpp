#include "ocrforge/serve/guarded_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "test_support.h"

using namespace ocrforge;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A server on a free loopback port, listening on a thread of its own.
template <class Server>
struct Running {
  Server& server;
  std::atomic<bool> ended{false};
  std::thread thread;
  int port = 0;
  explicit Running(Server& s) : server(s) {
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] {
      server.listen_after_bind();
      ended = true;
    });
  }
  ~Running() {
    stop_listening(server, ended);
    thread.join();
  }
};

static ConnectionLimits short_limits() {
  ConnectionLimits l;
  l.read_timeout = 1000ms;
  l.request_read_timeout = 1500ms;
  l.keep_alive_timeout = 1000ms;
  return l;
}

static int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// True when the server has given up on the request still being sent on
// `fd`: it closed the connection or answered (a 400) before the end.
static bool server_gave_up(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

static void add_routes(httplib::Server& s) {
  s.Get("/hi", [](const httplib::Request&, httplib::Response& res) { res.set_content("hello", "text/plain"); });
  s.Post("/early", [](const httplib::Request&, httplib::Response& res) { res.set_content("never", "text/plain"); });
  s.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    if (req.path != "/early") return httplib::Server::HandlerResponse::Unhandled;
    res.status = 413;
    res.set_content("too big", "text/plain");
    close_connection_after_response();
    return httplib::Server::HandlerResponse::Handled;
  });
}

TEST(GuardedServer, AnswersAndKeepsConnectionsAlive) {
  GuardedHttpServer server(short_limits());
  add_routes(server);
  Running<GuardedHttpServer> run(server);
  httplib::Client client("127.0.0.1", run.port);
  client.set_keep_alive(true);
  for (int i = 0; i < 3; ++i) {
    auto res = client.Get("/hi");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->body, "hello");
  }
}

// Slowloris: each byte comes before the per-read timeout, so only the
// whole-request deadline ends it; other clients are served meanwhile.
TEST(GuardedServer, TricklingClientIsCutOffAtTheRequestDeadline) {
  GuardedHttpServer server(short_limits());
  add_routes(server);
  Running<GuardedHttpServer> run(server);
  const int fd = connect_to(run.port);
  ASSERT_GE(fd, 0);
  const std::string request = "GET /hi HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
  const auto start = Clock::now();
  bool cut = false;
  for (char c : request) {
    if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1 || server_gave_up(fd)) {
      cut = true;
      break;
    }
    std::this_thread::sleep_for(100ms);  // well inside the 1 s read timeout
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(cut) << "the server waited for the whole trickled request";
  EXPECT_LT(seconds, 3.0);
  EXPECT_GE(seconds, 1.3);  // not before the 1.5 s deadline
  ::close(fd);
  httplib::Client other("127.0.0.1", run.port);
  ASSERT_TRUE(other.Get("/hi"));
}

TEST(GuardedServer, SilentClientIsDroppedAfterTheReadTimeout) {
  GuardedHttpServer server(short_limits());
  Running<GuardedHttpServer> run(server);
  const int fd = connect_to(run.port);
  ASSERT_GE(fd, 0);
  const auto start = Clock::now();
  pollfd p{fd, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 4000), 1) << "not closed within 4 s";
  EXPECT_TRUE(server_gave_up(fd));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 2.5);
  ::close(fd);
}

// An answer given before the body is read (a refused upload) reaches the
// client whole, not as a reset while it is still sending.
TEST(GuardedServer, EarlyAnswerReachesAClientStillSendingItsBody) {
  GuardedHttpServer server(short_limits());
  add_routes(server);
  Running<GuardedHttpServer> run(server);
  httplib::Client client("127.0.0.1", run.port);
  const std::string body(4 << 20, 'x');
  auto res = client.Post("/early", body, "application/octet-stream");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 413);
  EXPECT_EQ(res->body, "too big");
}

TEST(GuardedServer, ServesHttpsAndDropsAStalledHandshake) {
  const std::string dir = test::fresh_dir("tls");
  const auto made = test::run_command("openssl req -x509 -newkey rsa:2048 -nodes -keyout " + dir + "/key.pem -out " +
                                          dir + "/cert.pem -days 1 -subj /CN=localhost",
                                      dir);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  GuardedHttpsServer server(short_limits(), (dir + "/cert.pem").c_str(), (dir + "/key.pem").c_str());
  ASSERT_TRUE(server.is_valid());
  add_routes(server);
  Running<GuardedHttpsServer> run(server);
  httplib::SSLClient client("127.0.0.1", run.port);
  client.set_ca_cert_path((dir + "/cert.pem").c_str());
  client.enable_server_certificate_verification(false);  // CN=localhost, dialled as 127.0.0.1
  auto res = client.Get("/hi");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->body, "hello");

  const int fd = connect_to(run.port);  // TCP only: the handshake never starts
  ASSERT_GE(fd, 0);
  pollfd p{fd, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 4000), 1) << "a stalled handshake held the connection";
  EXPECT_TRUE(server_gave_up(fd));
  ::close(fd);
}

// Clients that send one byte of a request every 200 ms (inside the read
// timeout, so only deadlines end them), on a thread, until stopped.
struct Tricklers {
  std::vector<int> fds;
  std::atomic<bool> run{true};
  std::thread thread;
  Tricklers(int port, int n) {
    for (int i = 0; i < n; ++i) fds.push_back(connect_to(port));
    thread = std::thread([this] {
      const std::string line = "GET /hi HTTP/1.1\r\nX-Slow: " + std::string(1000, 'a');
      for (size_t i = 0; run && i < line.size(); ++i) {
        for (int fd : fds) (void)::send(fd, &line[i], 1, MSG_NOSIGNAL);
        std::this_thread::sleep_for(200ms);
      }
    });
  }
  ~Tricklers() {
    run = false;
    thread.join();
    for (int fd : fds) ::close(fd);
  }
};

static double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Defect 5 of round 3: a connection queued behind trickling ones got a
// fresh deadline when a thread took it, so 50 of them delayed everyone by a
// minute. Its deadline now counts from accept: the queue clears at once.
TEST(GuardedServer, QueuedConnectionsKeepTheirDeadlineFromAccept) {
  ConnectionLimits limits = short_limits();
  limits.max_connections_per_client = 0;  // all from 127.0.0.1: only the deadline is tested here
  GuardedHttpServer server(limits);
  server.new_task_queue = [] { return new ConnectionThreads(2); };
  add_routes(server);
  Running<GuardedHttpServer> run(server);
  Tricklers slow(run.port, 8);  // 2 threads: 6 of them queue
  std::this_thread::sleep_for(100ms);
  const auto start = Clock::now();
  httplib::Client client("127.0.0.1", run.port);
  client.set_read_timeout(10, 0);
  auto res = client.Get("/hi");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->body, "hello");
  // The first two hold their threads up to their 1.5 s deadline; the six
  // queued ones are past theirs when a thread takes them (before: 4 x 1.5 s,
  // 6 s; the bound leaves room for a busy machine).
  EXPECT_LT(seconds_since(start), 3.5);
}

TEST(GuardedServer, OneClientAddressHoldsAtMostItsCapAndOthersAreServed) {
  ConnectionLimits limits = short_limits();
  limits.max_connections_per_client = 2;
  GuardedHttpServer server(limits);
  add_routes(server);
  Running<GuardedHttpServer> run(server);
  Tricklers slow(run.port, 2);
  std::this_thread::sleep_for(200ms);  // both taken by threads
  const int third = connect_to(run.port);
  ASSERT_GE(third, 0);
  pollfd p{third, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 2000), 1) << "a connection over the cap was kept waiting";
  char buf[512] = {0};
  const ssize_t n = ::recv(third, buf, sizeof(buf) - 1, 0);
  ::close(third);
  ASSERT_GT(n, 0);
  const std::string answer(buf, static_cast<size_t>(n));
  EXPECT_EQ(answer.rfind("HTTP/1.1 429", 0), 0u) << answer;
  EXPECT_NE(answer.find("max_connections_per_client"), std::string::npos) << answer;
  slow.run = false;
  for (int fd : slow.fds) ::shutdown(fd, SHUT_RDWR);  // their slots free when the server sees them go
  std::this_thread::sleep_for(300ms);
  httplib::Client client("127.0.0.1", run.port);
  auto res = client.Get("/hi");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->body, "hello");
}

// Defect 5: a SIGTERM drain waited for every trickling request; a request
// still arriving now gets drain_timeout after the stop.
TEST(GuardedServer, StopEndsRequestsStillArrivingWithinTheDrainTimeout) {
  ConnectionLimits limits = short_limits();
  limits.request_read_timeout = 30000ms;
  limits.drain_timeout = 500ms;
  limits.max_connections_per_client = 0;
  GuardedHttpServer server(limits);
  server.new_task_queue = [] { return new ConnectionThreads(2); };
  add_routes(server);
  std::atomic<bool> ended{false};
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread listener([&] {
    server.listen_after_bind();
    ended = true;
  });
  Tricklers slow(port, 6);
  std::this_thread::sleep_for(300ms);
  const auto start = Clock::now();
  stop_listening(server, ended);
  listener.join();
  // 0.5 s of drain (before: the 30 s request deadline); room for a busy machine.
  EXPECT_LT(seconds_since(start), 2.5) << "the drain waited for trickling clients";
}
