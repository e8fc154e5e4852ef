// cpp-httplib's server with a deadline on reading each request.
//
// cpp-httplib times out each read (a client silent for --read_timeout is
// dropped) but a client that sends one byte per interval keeps a connection
// thread forever (slowloris). Here each request must arrive whole within
// request_read_timeout, counted from its first byte; the connection loop
// (keep-alive, per-read and per-write timeouts) is this class's, the HTTP
// parsing and routing stay cpp-httplib's (Server::process_request). The same
// holds over TLS (the handshake counts as reading).
//
// Slow clients cannot starve others: a connection's first request must
// arrive within request_read_timeout counted from accept (time spent queued
// for a thread counts, so a queue of trickling sockets clears instead of
// each getting a fresh timeout), one client address holds at most
// max_connections_per_client connections (more are answered 429 and closed
// at once), and once the server stops, a request still arriving gets at
// most drain_timeout more.
//
// A handler that answers before reading a body (401, 413 from the headers)
// calls close_connection_after_response(): the connection then ends after
// the response, its unread input drained for a moment so the client reads
// the answer instead of a reset.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <httplib.h>

namespace ocrforge {

struct ConnectionLimits {
  std::chrono::milliseconds read_timeout{5000};           // silence allowed within a request
  std::chrono::milliseconds request_read_timeout{30000};  // a whole request (line, headers, body)
  std::chrono::milliseconds write_timeout{10000};         // a stalled write of the response
  std::chrono::milliseconds keep_alive_timeout{5000};     // idle between requests
  size_t keep_alive_max_requests = 100;
  size_t max_connections_per_client = 8;                  // per client address at once; 0: no cap
  std::chrono::milliseconds drain_timeout{5000};          // after stop, for a request still arriving
};

// The connection threads, with each connection's accept time kept so that
// its deadline counts the time it waited. Unlike cpp-httplib's fixed pool,
// the pool grows when no thread is free, up to `max_threads` (connections
// served at once; more wait), and its threads stay for later bursts.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  explicit ConnectionThreads(size_t max_threads, size_t start_threads = 4);
  ~ConnectionThreads() override;
  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

 private:
  struct Job {
    std::function<void()> fn;
    std::chrono::steady_clock::time_point accepted;
  };
  void work();
  std::mutex mutex_;
  std::condition_variable cond_;
  std::deque<Job> jobs_;
  size_t max_threads_;
  size_t idle_ = 0;  // threads waiting for a job
  bool shutdown_ = false;
  std::vector<std::thread> threads_;
};

// Connections open now per client address.
class ClientConnections {
 public:
  // Counts one more for `address`; false (and nothing counted) when it
  // already holds `cap` (0: no cap).
  bool try_add(const std::string& address, size_t cap);
  void remove(const std::string& address);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, size_t> open_;
};

// Stops a server whose listen loop runs on another thread. cpp-httplib's
// stop() does nothing before the loop has started, so this waits for it to
// start (or for `listening_ended`, set by that thread when listen returned).
void stop_listening(httplib::Server& server, const std::atomic<bool>& listening_ended);

// Marks the current request's connection to be closed after its response
// (the thread that runs the handler is the connection's).
void close_connection_after_response();

// The steady-clock time the current request's first byte arrived (for
// latency in access logs); valid in handlers and the logger.
std::chrono::steady_clock::time_point request_start_time();

// The listening socket's options: SO_REUSEADDR (a restart need not wait for
// old connections to time out) but not cpp-httplib's SO_REUSEPORT, with
// which a second server on a port in use binds too and takes part of its
// connections instead of failing.
void exclusive_port_options(int sock);

template <class Base>
class GuardedServer : public Base {
 public:
  template <class... Args>
  explicit GuardedServer(ConnectionLimits limits, Args&&... args)
      : Base(std::forward<Args>(args)...), limits_(limits) {
    this->set_socket_options(exclusive_port_options);
    this->new_task_queue = [] { return new ConnectionThreads(CPPHTTPLIB_THREAD_POOL_COUNT); };
  }

 private:
  bool process_and_close_socket(int sock) override;  // cpp-httplib's socket_t on POSIX
  // The moment after which no request may still be arriving: set once, when
  // a connection first sees the server stopping (now + drain_timeout).
  std::chrono::steady_clock::time_point drain_deadline();
  ConnectionLimits limits_;
  ClientConnections clients_;
  std::atomic<std::chrono::steady_clock::rep> drain_deadline_{std::chrono::steady_clock::time_point::max().time_since_epoch().count()};
};

using GuardedHttpServer = GuardedServer<httplib::Server>;
using GuardedHttpsServer = GuardedServer<httplib::SSLServer>;

extern template class GuardedServer<httplib::Server>;
extern template class GuardedServer<httplib::SSLServer>;

}  // namespace ocrforge
