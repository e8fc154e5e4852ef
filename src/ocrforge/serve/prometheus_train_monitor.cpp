// The Prometheus monitor of a training run (prometheus_train_monitor.h).
#include "ocrforge/serve/prometheus_train_monitor.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

PrometheusTrainMonitor::PrometheusTrainMonitor(const std::string& host, int port) : host_(host) {
  MetricsRegistry& m = registry_;
  m.add_gauge("ocrforge_train_global_step", "Optimizer steps done.");
  m.add_gauge("ocrforge_train_epoch", "The epoch being trained (1-based).");
  m.add_gauge("ocrforge_train_learning_rate", "Learning rate of the last logged step.");
  m.add_gauge("ocrforge_train_value", "Smoothed loss, loss parts and training metrics of the last log line, by name.");
  m.add_gauge("ocrforge_train_samples_per_second", "Training samples per second over the log window.");
  m.add_gauge("ocrforge_train_reader_seconds", "Average time a step waited for its batch.");
  m.add_gauge("ocrforge_train_eta_seconds", "Estimated time to the end of training.");
  m.add_gauge("ocrforge_eval_value", "Metrics of the last evaluation, by name.");
  m.add_gauge("ocrforge_eval_best", "Best value of the main indicator so far.");
  m.add_counter("ocrforge_evaluations_total", "Evaluations run.");
  add_process_metrics(m);
  try {
    endpoint_ = std::make_unique<MetricsEndpoint>(registry_, host, port);
  } catch (const std::exception& e) {
    throw UsageError("Global.metrics_port: cannot serve metrics on " + host + ":" + std::to_string(port) + ": " +
                     e.what() + " (choose another port, or 0 for a free one)");
  }
}

std::string PrometheusTrainMonitor::address() const {
  return "http://" + host_ + ":" + std::to_string(port()) + "/metrics";
}

void PrometheusTrainMonitor::on_step(const StepLogFields& f) {
  MetricsRegistry& m = registry_;
  m.set("ocrforge_train_global_step", {}, static_cast<double>(f.global_step));
  m.set("ocrforge_train_epoch", {}, f.epoch);
  m.set("ocrforge_train_learning_rate", {}, f.lr);
  for (const auto& [name, v] : f.metrics) m.set("ocrforge_train_value", {{"name", name}}, v);
  m.set("ocrforge_train_samples_per_second", {}, f.batch_cost_s > 0 ? f.samples / f.batch_cost_s : 0.0);
  m.set("ocrforge_train_reader_seconds", {}, f.reader_cost_s);
  m.set("ocrforge_train_eta_seconds", {}, f.eta_s);
}

void PrometheusTrainMonitor::on_eval(const std::vector<std::pair<std::string, double>>& values,
                                     const std::string& main_indicator, double best) {
  MetricsRegistry& m = registry_;
  for (const auto& [name, v] : values) m.set("ocrforge_eval_value", {{"name", name}}, v);
  m.set("ocrforge_eval_best", {{"name", main_indicator}}, best);
  m.inc("ocrforge_evaluations_total");
}

}  // namespace ocrforge
