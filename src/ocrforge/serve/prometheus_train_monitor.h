// The Prometheus monitor of a training run (train/loop/train_monitor.h),
// served by MetricsEndpoint at http://host:port/metrics: the step, epoch,
// learning rate, the smoothed loss and its parts, the training metrics,
// samples/s, the last evaluation's metrics and the best one, and the
// process's memory. Only the monitor's interface comes from the train layer
// (a header without torch); nothing here links LibTorch.
#pragma once
#include <memory>
#include <string>

#include "ocrforge/serve/metrics.h"
#include "ocrforge/serve/metrics_endpoint.h"
#include "ocrforge/train/loop/train_monitor.h"

namespace ocrforge {

class PrometheusTrainMonitor : public TrainMonitor {
 public:
  // Binds host:port (0: a free port). UsageError naming Global.metrics_port
  // when it cannot.
  PrometheusTrainMonitor(const std::string& host, int port);

  int port() const { return endpoint_->port(); }
  std::string address() const override;
  void on_step(const StepLogFields& step) override;
  void on_eval(const std::vector<std::pair<std::string, double>>& values, const std::string& main_indicator,
               double best) override;

 private:
  std::string host_;
  MetricsRegistry registry_;
  std::unique_ptr<MetricsEndpoint> endpoint_;
};

}  // namespace ocrforge
