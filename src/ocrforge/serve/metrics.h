// A small Prometheus metrics registry: counters, gauges and histograms with
// labels, written in the Prometheus text exposition format (version 0.0.4).
// Thread-safe; no HTTP here (metrics_endpoint.h serves it), so any layer can
// count things — `ocrforge serve` does, and a training loop can.
//
//   MetricsRegistry m;
//   m.add_counter("app_requests_total", "Requests by route and status.");
//   m.inc("app_requests_total", {{"route", "/ocr"}, {"status", "200"}});
//   m.add_histogram("app_latency_seconds", "Request latency.", {0.1, 1, 10});
//   m.observe("app_latency_seconds", {{"route", "/ocr"}}, 0.42);
//   std::string text = m.exposition();
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricsRegistry {
 public:
  // Declares a metric family once; names follow Prometheus' rules
  // ([a-zA-Z_:][a-zA-Z0-9_:]*) and are unique. Throws Error otherwise.
  void add_counter(const std::string& name, const std::string& help);
  void add_gauge(const std::string& name, const std::string& help);
  // `bounds`: the bucket upper bounds, increasing; +Inf is added.
  void add_histogram(const std::string& name, const std::string& help, std::vector<double> bounds);
  // A gauge read when the metrics are written (process memory, queue length).
  void add_callback_gauge(const std::string& name, const std::string& help, std::function<double()> read);

  // Updates one series (a family and a label set, created at first use).
  // Throws Error for an undeclared family, the wrong kind, a negative
  // counter increment or a bad label name.
  void inc(const std::string& counter, const MetricLabels& labels = {}, double by = 1);
  void set(const std::string& gauge, const MetricLabels& labels, double value);
  void add(const std::string& gauge, const MetricLabels& labels, double delta);
  void observe(const std::string& histogram, const MetricLabels& labels, double value);

  // The current value of a counter or gauge series (0 when never updated);
  // a histogram's count of observations. For tests and reports.
  double value(const std::string& name, const MetricLabels& labels = {}) const;

  // Every family in declaration order, series sorted by labels, as
  // Prometheus' text format (Content-Type: text/plain; version=0.0.4).
  std::string exposition() const;

 private:
  enum class Kind { Counter, Gauge, Histogram, CallbackGauge };
  struct Series {
    double value = 0;                    // counter, gauge
    std::vector<unsigned long> buckets;  // histogram: per bound (not cumulative) + the +Inf one
    double sum = 0;
    unsigned long count = 0;
  };
  struct Family {
    std::string name, help;
    Kind kind;
    std::vector<double> bounds;
    std::function<double()> read;
    std::map<std::string, Series> series;  // by rendered label set
  };
  void declare(const std::string& name, const std::string& help, Kind kind, std::vector<double> bounds,
               std::function<double()> read);
  Series& series(const std::string& name, const MetricLabels& labels, Kind kind);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Family>> families_;
  std::map<std::string, Family*> by_name_;
};

// Adds process_resident_memory_bytes (now) and
// process_resident_memory_max_bytes (the peak so far) from /proc/self/status.
void add_process_metrics(MetricsRegistry& registry);

// A number as Prometheus writes it: shortest round-trip form, +Inf, -Inf, NaN.
std::string format_metric_value(double v);

}  // namespace ocrforge
