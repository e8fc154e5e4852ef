// The Prometheus monitor of a training run: what the trainer hands it (the
// log line, an evaluation) is what GET /metrics shows.
#include "ocrforge/serve/prometheus_train_monitor.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include "ocrforge/core/error.h"

using namespace ocrforge;

namespace {

std::string scrape(int port) {
  httplib::Client client("127.0.0.1", port);
  auto res = client.Get("/metrics");
  if (!res) return "no answer";
  EXPECT_EQ(res->status, 200);
  return res->body;
}

TEST(PrometheusTrainMonitor, ServesWhatTheLogLineAndTheEvaluationSay) {
  PrometheusTrainMonitor m("127.0.0.1", 0);
  ASSERT_GT(m.port(), 0);
  EXPECT_EQ(m.address(), "http://127.0.0.1:" + std::to_string(m.port()) + "/metrics");
  StepLogFields f;
  f.epoch = 2;
  f.global_step = 7;
  f.lr = 0.001;
  f.metrics = {{"acc", 0.25}, {"loss", 1.5}, {"loss_ctc", 1.25}};
  f.samples = 16;
  f.batch_cost_s = 0.5;
  m.on_step(f);
  m.on_eval({{"acc", 0.75}, {"norm_edit_dis", 0.875}}, "acc", 0.75);
  const std::string text = scrape(m.port());
  for (const char* line :
       {"ocrforge_train_global_step 7\n", "ocrforge_train_epoch 2\n", "ocrforge_train_learning_rate 0.001\n",
        "ocrforge_train_value{name=\"loss\"} 1.5\n", "ocrforge_train_value{name=\"loss_ctc\"} 1.25\n",
        "ocrforge_train_value{name=\"acc\"} 0.25\n", "ocrforge_train_samples_per_second 32\n",
        "ocrforge_eval_value{name=\"norm_edit_dis\"} 0.875\n", "ocrforge_eval_best{name=\"acc\"} 0.75\n",
        "ocrforge_evaluations_total 1\n", "process_resident_memory_bytes "})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
}

TEST(PrometheusTrainMonitor, ABusyPortIsAUsageErrorNamingTheKey) {
  PrometheusTrainMonitor first("127.0.0.1", 0);
  try {
    PrometheusTrainMonitor second("127.0.0.1", first.port());
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Global.metrics_port"), std::string::npos) << e.what();
  }
}

}  // namespace
