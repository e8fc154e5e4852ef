// A live monitor of a training run (Global.metrics_port): the trainer's main
// rank hands it what the log line and each evaluation say. The Prometheus
// one (serve/prometheus_train_monitor.h) is registered by the binary that
// has an HTTP server (ocrforge-train); the train layer itself serves nothing.
// No torch in this header.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ocrforge/train/loop/train_log.h"

namespace ocrforge {

class TrainMonitor {
 public:
  virtual ~TrainMonitor() = default;
  // Where it can be read ("http://127.0.0.1:9100/metrics"), for the log.
  virtual std::string address() const = 0;
  // What the periodic log line says (train_log.h).
  virtual void on_step(const StepLogFields& step) = 0;
  // One evaluation's metrics and the best value of the main indicator so far.
  virtual void on_eval(const std::vector<std::pair<std::string, double>>& values, const std::string& main_indicator,
                       double best) = 0;
};

// Makes the monitor for Global.metrics_host / metrics_port; throws
// UsageError naming the key when it cannot serve there.
using TrainMonitorFactory = std::function<std::unique_ptr<TrainMonitor>(const std::string& host, int port)>;

// Called once at start-up by a binary with an HTTP server.
void register_train_monitor(TrainMonitorFactory factory);

// The monitor of a run that asks for one (Global.metrics_port >= 0): the
// registered factory's, or UsageError when this binary has none.
std::unique_ptr<TrainMonitor> make_train_monitor(const std::string& host, int port);

}  // namespace ocrforge
