// A tiny HTTP endpoint that serves one MetricsRegistry at GET /metrics, on a
// thread of its own, for processes that are not HTTP servers themselves (a
// training run's Prometheus monitor) or that keep metrics off their public
// port (`ocrforge serve --metrics_port`).
//
//   MetricsRegistry m;  ... declare and update metrics ...
//   MetricsEndpoint endpoint(m, "127.0.0.1", 9100);   // serving until destroyed
#pragma once
#include <memory>
#include <string>
#include <thread>

#include "ocrforge/serve/metrics.h"

namespace ocrforge {

class MetricsEndpoint {
 public:
  // Binds host:port (port 0: a free port, see port()) and starts serving.
  // Throws Error when the address cannot be bound. `registry` must outlive
  // the endpoint.
  MetricsEndpoint(const MetricsRegistry& registry, const std::string& host, int port);
  ~MetricsEndpoint();  // stops serving and joins the thread
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  int port() const { return port_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::thread thread_;
};

// The Content-Type of the Prometheus text format.
inline const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace ocrforge
