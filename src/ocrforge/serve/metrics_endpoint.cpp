#include "ocrforge/serve/metrics_endpoint.h"

#include <atomic>

#include "ocrforge/core/error.h"
#include "ocrforge/serve/guarded_server.h"

namespace ocrforge {

struct MetricsEndpoint::Impl {
  GuardedHttpServer server{ConnectionLimits{}};
  std::atomic<bool> listening_ended{false};
};

MetricsEndpoint::MetricsEndpoint(const MetricsRegistry& registry, const std::string& host, int port)
    : impl_(std::make_unique<Impl>()) {
  auto& s = impl_->server;
  // A scrape is one short request: two threads are plenty.
  s.new_task_queue = [] { return new httplib::ThreadPool(2); };
  s.Get("/metrics", [&registry](const httplib::Request&, httplib::Response& res) {
    res.set_content(registry.exposition(), kPrometheusContentType);
  });
  if (port == 0) {
    port_ = s.bind_to_any_port(host);
    if (port_ <= 0) throw Error("metrics endpoint: cannot bind " + host + " to any port");
  } else {
    if (!s.bind_to_port(host, port))
      throw Error("metrics endpoint: cannot bind " + host + ":" + std::to_string(port) +
                  " (in use, or not an address of this machine); choose another port");
    port_ = port;
  }
  thread_ = std::thread([this] {
    impl_->server.listen_after_bind();
    impl_->listening_ended = true;
  });
}

MetricsEndpoint::~MetricsEndpoint() {
  stop_listening(impl_->server, impl_->listening_ended);
  if (thread_.joinable()) thread_.join();
}

}  // namespace ocrforge
