#include "ocrforge/serve/guarded_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <type_traits>

namespace ocrforge {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

thread_local bool t_close_after = false;
thread_local Clock::time_point t_request_start;
// When the connection this thread runs was accepted (ConnectionThreads).
thread_local Clock::time_point t_accepted;

enum class Want { None, Read, Write };
struct IoStep {
  ssize_t n = -1;  // bytes, 0 at end of stream, -1 on error
  Want want = Want::None;  // not None: retry once the socket is ready for it
};

// What moves bytes: the socket itself or a TLS session over it. Both run on
// a non-blocking socket, so every wait is a poll() this file bounds.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual IoStep recv(char* buf, size_t n) = 0;
  virtual IoStep send(const char* buf, size_t n) = 0;
  virtual bool has_buffered() const { return false; }  // decrypted bytes not yet read
};

class PlainTransport : public Transport {
 public:
  explicit PlainTransport(int fd) : fd_(fd) {}
  IoStep recv(char* buf, size_t n) override {
    for (;;) {
      const ssize_t r = ::recv(fd_, buf, n, 0);
      if (r >= 0) return {r, Want::None};
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return {-1, Want::Read};
      return {-1, Want::None};
    }
  }
  IoStep send(const char* buf, size_t n) override {
    for (;;) {
      const ssize_t r = ::send(fd_, buf, n, MSG_NOSIGNAL);
      if (r >= 0) return {r, Want::None};
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return {-1, Want::Write};
      return {-1, Want::None};
    }
  }

 private:
  int fd_;
};

class TlsTransport : public Transport {
 public:
  explicit TlsTransport(SSL* ssl) : ssl_(ssl) {}
  IoStep recv(char* buf, size_t n) override {
    const int r = SSL_read(ssl_, buf, static_cast<int>(std::min<size_t>(n, INT32_MAX)));
    if (r > 0) return {r, Want::None};
    return failed(r);
  }
  IoStep send(const char* buf, size_t n) override {
    const int r = SSL_write(ssl_, buf, static_cast<int>(std::min<size_t>(n, INT32_MAX)));
    if (r > 0) return {r, Want::None};
    return failed(r);
  }
  bool has_buffered() const override { return SSL_pending(ssl_) > 0; }

 private:
  IoStep failed(int r) {
    switch (SSL_get_error(ssl_, r)) {
      case SSL_ERROR_WANT_READ: return {-1, Want::Read};
      case SSL_ERROR_WANT_WRITE: return {-1, Want::Write};
      case SSL_ERROR_ZERO_RETURN: return {0, Want::None};
      default: ERR_clear_error(); return {-1, Want::None};
    }
  }
  SSL* ssl_;
};

// Waits until `fd` is ready for `want`, at most `timeout`; false on timeout or error.
bool wait_ready(int fd, Want want, milliseconds timeout) {
  if (timeout.count() <= 0) return false;
  pollfd p{fd, static_cast<short>(want == Want::Write ? POLLOUT : POLLIN), 0};
  for (;;) {
    const int r = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (r < 0 && errno == EINTR) continue;
    return r > 0;
  }
}

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  const int r = peer ? getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len)
                     : getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  if (r != 0) return;
  char buf[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &a->sin_addr, buf, sizeof(buf));
    port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof(buf));
    port = ntohs(a->sin6_port);
  }
  ip = buf;
}

// cpp-httplib's Stream over a Transport: reads are buffered (the request
// line reader takes one byte at a time) and bounded by the per-read timeout
// and, while a request is being read, by its deadline.
class DeadlineStream : public httplib::Stream {
 public:
  // `drain` gives the time after which no request may still be arriving
  // (time_point::max() while the server runs).
  DeadlineStream(int fd, Transport& t, const ConnectionLimits& limits, std::function<Clock::time_point()> drain)
      : fd_(fd), t_(t), limits_(limits), drain_(std::move(drain)) {}

  void set_deadline(Clock::time_point d) { deadline_ = d; }
  void clear_deadline() { deadline_ = Clock::time_point::max(); }
  bool has_buffered() const { return off_ < len_ || t_.has_buffered(); }

  bool is_readable() const override { return has_buffered() || wait_readable(); }
  bool is_writable() const override { return wait_ready(fd_, Want::Write, limits_.write_timeout); }

  ssize_t read(char* ptr, size_t size) override {
    if (off_ == len_) {
      const ssize_t n = io([this] { return t_.recv(buf_, sizeof(buf_)); });
      if (n <= 0) return n;
      off_ = 0;
      len_ = static_cast<size_t>(n);
    }
    const size_t k = std::min(size, len_ - off_);
    std::memcpy(ptr, buf_ + off_, k);
    off_ += k;
    return static_cast<ssize_t>(k);
  }

  ssize_t write(const char* ptr, size_t size) override {
    return io([&] { return t_.send(ptr, size); });
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { address_of(fd_, true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address_of(fd_, false, ip, port); }
  int socket() const override { return fd_; }

 private:
  // Waits for input for at most the per-read timeout, cut to what is left
  // of the request's deadline and of the drain; in slices, so that a stop
  // is seen while the client is silent.
  bool wait_readable() const {
    const auto silent_until = Clock::now() + limits_.read_timeout;
    for (;;) {
      const auto until = std::min({silent_until, deadline_, drain_()});
      const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now());
      if (left.count() <= 0) return false;
      if (wait_ready(fd_, Want::Read, std::min(left, milliseconds(100)))) return true;
    }
  }

  template <class Step>
  ssize_t io(Step step) {
    for (;;) {
      const IoStep s = step();
      if (s.want == Want::None) return s.n;
      const bool ready = s.want == Want::Read ? wait_readable() : wait_ready(fd_, s.want, limits_.write_timeout);
      if (!ready) return -1;
    }
  }

  int fd_;
  Transport& t_;
  const ConnectionLimits& limits_;
  std::function<Clock::time_point()> drain_;
  Clock::time_point deadline_ = Clock::time_point::max();
  char buf_[4096];
  size_t off_ = 0, len_ = 0;
};

// Waits for the first byte of a request: true when one is there, false at
// `until`, on an error, or on `stop()` turning true (checked every 100 ms).
template <class Stop>
bool wait_for_request(int fd, const DeadlineStream& strm, Clock::time_point until, Stop stop) {
  if (strm.has_buffered()) return true;
  for (;;) {
    const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now());
    if (left.count() <= 0 || stop()) return false;
    if (wait_ready(fd, Want::Read, std::min(left, milliseconds(100)))) return true;
  }
}

// After an early answer the client may still be sending the body: reading
// (and dropping) it for a moment lets the client read the answer instead of
// a connection reset.
void drain_input(int fd) {
  ::shutdown(fd, SHUT_WR);
  char sink[16384];
  const auto until = Clock::now() + milliseconds(1000);
  size_t total = 0;
  while (total < (64u << 20)) {
    const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now());
    if (!wait_ready(fd, Want::Read, left)) return;
    const ssize_t n = ::recv(fd, sink, sizeof(sink), 0);
    if (n <= 0) return;
    total += static_cast<size_t>(n);
  }
}

// Tells a client over its cap why its connection ends (best effort: the
// socket is non-blocking and this is one send).
void refuse_over_cap(int fd, const std::string& address, size_t cap) {
  const std::string body = "{\"error\":\"too many connections from " + address + ": this server serves at most " +
                           std::to_string(cap) +
                           " at once per client address (--max_connections_per_client); reuse a kept-alive "
                           "connection or wait for one to end\"}";
  const std::string head = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
                           "Connection: close\r\nContent-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n";
  const std::string all = head + body;
  (void)::send(fd, all.data(), all.size(), MSG_NOSIGNAL);
  ::shutdown(fd, SHUT_WR);
}

bool tls_handshake(int fd, SSL* ssl, Clock::time_point deadline, milliseconds read_timeout) {
  for (;;) {
    const int r = SSL_accept(ssl);
    if (r == 1) return true;
    const int err = SSL_get_error(ssl, r);
    const Want want = err == SSL_ERROR_WANT_READ ? Want::Read : err == SSL_ERROR_WANT_WRITE ? Want::Write : Want::None;
    if (want == Want::None) {
      ERR_clear_error();
      return false;
    }
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (!wait_ready(fd, want, std::min(read_timeout, left))) return false;
  }
}

}  // namespace

ConnectionThreads::ConnectionThreads(size_t max_threads, size_t start_threads)
    : max_threads_(std::max<size_t>(max_threads, 1)) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < std::min(start_threads, max_threads_); ++i) threads_.emplace_back([this] { work(); });
}

ConnectionThreads::~ConnectionThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (threads_.empty()) return;
  }
  shutdown();
}

void ConnectionThreads::enqueue(std::function<void()> fn) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back({std::move(fn), Clock::now()});
    // No thread free: one more, up to the cap. A thread waiting on a slow
    // client costs a stack and a poll(), so slow clients below the cap
    // never hold up a /health that arrives meanwhile.
    if (idle_ < jobs_.size() && threads_.size() < max_threads_) threads_.emplace_back([this] { work(); });
  }
  cond_.notify_one();
}

void ConnectionThreads::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
  }
  cond_.notify_all();
  for (auto& t : threads_) t.join();
  std::lock_guard<std::mutex> lock(mutex_);
  threads_.clear();
}

void ConnectionThreads::work() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++idle_;
      cond_.wait(lock, [this] { return !jobs_.empty() || shutdown_; });
      --idle_;
      // Queued connections still run after a shutdown: each is closed at
      // once or bounded by the drain deadline.
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    t_accepted = job.accepted;
    job.fn();
  }
}

bool ClientConnections::try_add(const std::string& address, size_t cap) {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t& n = open_[address];
  if (cap > 0 && n >= cap) return false;
  ++n;
  return true;
}

void ClientConnections::remove(const std::string& address) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_.find(address);
  if (it == open_.end()) return;
  if (--it->second == 0) open_.erase(it);
}

void close_connection_after_response() { t_close_after = true; }

void exclusive_port_options(int sock) {
  const int yes = 1;
  setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
}

void stop_listening(httplib::Server& server, const std::atomic<bool>& listening_ended) {
  while (!server.is_running() && !listening_ended) std::this_thread::sleep_for(milliseconds(1));
  server.stop();
}

std::chrono::steady_clock::time_point request_start_time() { return t_request_start; }

template <class Base>
Clock::time_point GuardedServer<Base>::drain_deadline() {
  const Clock::rep never = Clock::time_point::max().time_since_epoch().count();
  Clock::rep d = drain_deadline_.load();
  if (d != never || this->svr_sock_ != INVALID_SOCKET) return Clock::time_point(Clock::duration(d));
  const Clock::rep mine = (Clock::now() + limits_.drain_timeout).time_since_epoch().count();
  // The first connection to see the stop sets it; the others read that.
  if (drain_deadline_.compare_exchange_strong(d, mine)) d = mine;
  return Clock::time_point(Clock::duration(d));
}

template <class Base>
bool GuardedServer<Base>::process_and_close_socket(int sock) {
  const int flags = fcntl(sock, F_GETFL, 0);
  fcntl(sock, F_SETFL, flags | O_NONBLOCK);
  // Accepted by cpp-httplib's own pool (no ConnectionThreads): now.
  const Clock::time_point accepted = t_accepted == Clock::time_point() ? Clock::now() : t_accepted;
  t_accepted = Clock::time_point();
  const Clock::time_point first_deadline = accepted + limits_.request_read_timeout;
  std::string address;
  int port = 0;
  address_of(sock, true, address, port);
  const bool counted = clients_.try_add(address, limits_.max_connections_per_client);
  if (!counted || Clock::now() >= std::min(first_deadline, drain_deadline())) {
    // Over the address's cap, or its time ran out while it waited for a
    // thread (or the drain ended): closed without reading.
    if (!counted && !std::is_same_v<Base, httplib::SSLServer>)
      refuse_over_cap(sock, address, limits_.max_connections_per_client);
    if (counted) clients_.remove(address);
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return false;
  }
  std::unique_ptr<Transport> transport;
  SSL* ssl = nullptr;
  bool ok = true;
  if constexpr (std::is_same_v<Base, httplib::SSLServer>) {
    ssl = SSL_new(this->ssl_context());
    ok = ssl && SSL_set_fd(ssl, sock) == 1 &&
         tls_handshake(sock, ssl, std::min(first_deadline, drain_deadline()), limits_.read_timeout);
    if (ok) transport = std::make_unique<TlsTransport>(ssl);
  } else {
    transport = std::make_unique<PlainTransport>(sock);
  }
  bool ret = false;
  t_close_after = false;
  if (ok) {
    DeadlineStream strm(sock, *transport, limits_, [this] { return drain_deadline(); });
    const auto stopping = [this] { return this->svr_sock_ == INVALID_SOCKET; };
    for (size_t served = 0; served < limits_.keep_alive_max_requests; ++served) {
      // A connection accepted before a stop still gets its one request
      // (within the drain); kept-alive ones end.
      if (served > 0 && stopping()) break;
      const Clock::time_point until =
          served == 0 ? std::min({Clock::now() + limits_.read_timeout, first_deadline, drain_deadline()})
                      : Clock::now() + limits_.keep_alive_timeout;
      if (!wait_for_request(sock, strm, until, [&] { return served > 0 && stopping(); })) break;
      t_request_start = Clock::now();
      // The first request's deadline counts from accept.
      strm.set_deadline(served == 0 ? first_deadline : t_request_start + limits_.request_read_timeout);
      const bool last = stopping() || served + 1 == limits_.keep_alive_max_requests;
      bool closed = false;
      ret = this->process_request(strm, last, closed, [ssl](httplib::Request& req) {
#ifdef CPPHTTPLIB_OPENSSL_SUPPORT
        req.ssl = ssl;
#else
        (void)req;
        (void)ssl;
#endif
      });
      strm.clear_deadline();
      if (!ret || closed || last || t_close_after) break;
    }
  }
  if (ssl) {
    if (ok) SSL_shutdown(ssl);
    SSL_free(ssl);
  } else if (t_close_after) {
    drain_input(sock);
  }
  t_close_after = false;
  clients_.remove(address);
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

template class GuardedServer<httplib::Server>;
template class GuardedServer<httplib::SSLServer>;

}  // namespace ocrforge
