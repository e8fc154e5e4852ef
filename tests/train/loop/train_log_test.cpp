#include "ocrforge/train/loop/train_log.h"

#include <gtest/gtest.h>

#include "ocrforge/train/loop/smoothed_value.h"

using namespace ocrforge;

TEST(TrainLog, StepLineHasPaddleFieldsInOrder) {
  StepLogFields f;
  f.epoch = 1;
  f.epochs = 5;
  f.global_step = 10;
  f.lr = 0.0001;
  f.metrics = {{"acc", 0.5}, {"loss", 12.25}};
  f.reader_cost_s = 0.01;
  f.batch_cost_s = 0.5;
  f.samples = 16;
  f.eta_s = 754;
  EXPECT_EQ(format_step_line(f),
            "epoch: [1/5], global_step: 10, lr: 0.000100, acc: 0.500000, loss: 12.250000, avg_reader_cost: 0.01000 s, "
            "avg_batch_cost: 0.50000 s, avg_samples: 16.0, ips: 32.00000 samples/s, eta: 0:12:34");
}

TEST(TrainLog, EtaFormatsLikePythonTimedelta) {
  EXPECT_EQ(format_eta(59), "0:00:59");
  EXPECT_EQ(format_eta(3600 * 25 + 61), "1 day, 1:01:01");
  EXPECT_EQ(format_eta(86400 * 3), "3 days, 0:00:00");
}

TEST(SmoothedValue, AveragesTheLastWindow) {
  SmoothedValue v(3);
  for (double x : {1.0, 2.0, 3.0, 10.0}) v.add(x);
  EXPECT_DOUBLE_EQ(v.average(), 5.0);
}

TEST(TrainLog, MissingPretrainedWeightsAreGroupedByModuleWhenMany) {
  const std::vector<std::string> missing = {"head.fc.bias",        "gtc_head.a.weight", "gtc_head.b.weight",
                                            "gtc_head.c.weight",   "gtc_head.d.bias",   "before_gtc.1.fc.weight"};
  EXPECT_EQ(missing_weight_lines(missing),
            (std::vector<std::string>{"pretrained: no weight for head.fc.bias (kept its initial value)",
                                      "pretrained: no weights for the 4 tensors of gtc_head.* (kept their initial values)",
                                      "pretrained: no weight for before_gtc.1.fc.weight (kept its initial value)"}));
  EXPECT_TRUE(missing_weight_lines({}).empty());
}
