// The benchmark_train JSON line: device counts, reading ocrforge's training
// log for `ips:` / `loss:`, and PaddleOCR's fields and arithmetic.
#include "ocrforge/tipc/tipc_benchmark.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {
namespace {

TEST(TipcBenchmark, DeviceNumReadsNodesAndCards) {
  EXPECT_EQ(parse_device_num("N1C1").cards, 1);
  EXPECT_EQ(parse_device_num("N1C4").cards, 4);
  EXPECT_EQ(parse_device_num("N2C16").nodes, 2);
  for (const char* bad : {"", "N1", "C4", "N0C1", "N1C0", "N4C2", "n1c1", "N1C1x"})
    EXPECT_THROW(parse_device_num(bad), UsageError) << bad;
}

// Lines as ocrforge's trainer writes them (train_log.cpp's format), with
// an eval line that must not count.
const char* kLog =
    "[2026/12/01 10:00:00] ocrforge INFO: epoch: [1/2], global_step: 1, lr: 0.001000, loss: 9.500000, "
    "avg_reader_cost: 0.01000 s, avg_batch_cost: 0.50000 s, avg_samples: 8.0, ips: 16.00000 samples/s, eta: 0:00:03\n"
    "[2026/12/01 10:00:01] ocrforge INFO: epoch: [1/2], global_step: 2, lr: 0.001000, loss: 8.250000, "
    "avg_reader_cost: 0.01000 s, avg_batch_cost: 0.40000 s, avg_samples: 8.0, ips: 20.00000 samples/s, eta: 0:00:02\n"
    "[2026/12/01 10:00:01] ocrforge INFO: cur metric, acc: 0.1, norm_edit_dis: 0.5\n"
    "[2026/12/01 10:00:02] ocrforge INFO: epoch: [2/2], global_step: 3, lr: 0.001000, loss: 7.000000, "
    "avg_reader_cost: 0.01000 s, avg_batch_cost: 0.25000 s, avg_samples: 8.0, ips: 32.00000 samples/s, eta: 0:00:01\n"
    "[2026/12/01 10:00:03] ocrforge INFO: epoch: [2/2], global_step: 4, lr: 0.001000, loss: 6.500000, "
    "avg_reader_cost: 0.01000 s, avg_batch_cost: 0.20000 s, avg_samples: 8.0, ips: 40.00000 samples/s, eta: 0:00:00\n";

TEST(TipcBenchmark, TrainLogGivesEveryIpsAndLossInOrder) {
  const TrainLogSpeed s = read_train_log_speed(kLog);
  EXPECT_EQ(s.ips, (std::vector<double>{16, 20, 32, 40}));
  EXPECT_EQ(s.losses, (std::vector<double>{9.5, 8.25, 7, 6.5}));
}

TEST(TipcBenchmark, JsonSkipsTwoRecordsAndScalesByCards) {
  TipcBenchmarkRun run;
  run.model_name = "tiny_rec_bs8_fp32_DP";
  run.batch_size = 8;
  run.fp_item = "fp32";
  run.run_mode = "DP";
  run.device_num = "N1C2";
  const auto j = nlohmann::json::parse(benchmark_json(run, read_train_log_speed(kLog), "log", 12.4, "ocrforge 1.0"));
  EXPECT_DOUBLE_EQ(j.at("ips").get<double>(), 72.0);  // mean(32, 40) per card x 2 cards
  EXPECT_EQ(j.at("speed_unit"), "samples/s");
  EXPECT_DOUBLE_EQ(j.at("convergence_value").get<double>(), 6.5);  // the last loss
  EXPECT_EQ(j.at("convergence_key"), "loss:");
  EXPECT_EQ(j.at("device_num"), "N1C2");
  EXPECT_EQ(j.at("model_name"), "tiny_rec_bs8_fp32_DP");
  EXPECT_EQ(j.at("batch_size"), 8);
  EXPECT_EQ(j.at("fp_item"), "fp32");
  EXPECT_EQ(j.at("run_mode"), "DP");
  EXPECT_EQ(j.at("model_run_time"), 12);
  EXPECT_EQ(j.at("frame_version"), "ocrforge 1.0");
  for (const char* key : {"model_branch", "model_commit", "frame_commit"}) EXPECT_TRUE(j.contains(key)) << key;
}

TEST(TipcBenchmark, TooFewRecordsIsAnErrorNamingTheLog) {
  TipcBenchmarkRun run;
  run.batch_size = 8;
  run.device_num = "N1C1";
  TrainLogSpeed two;
  two.ips = {10, 11};
  try {
    benchmark_json(run, two, "train_log/x_log", 1, "v");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'train_log/x_log' has 2 'ips:' records"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ocrforge
