#include "ocrforge/train/optim/lr_schedule.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "ocrforge/core/error.h"

using namespace ocrforge;

static LrSchedule make(const std::string& yaml, int epochs, long steps) {
  return LrSchedule(lr_spec_from_yaml(YAML::Load(yaml), epochs), steps);
}

TEST(LrSchedule, CosineWithWarmupMatchesPaddle) {
  // 10 steps/epoch, 4 epochs, warm-up 1 epoch: linear 0 -> lr over 10 steps,
  // then cosine over T_max = 40 steps counted from the end of warm-up.
  auto s = make("{name: Cosine, learning_rate: 0.001, warmup_epoch: 1}", 4, 10);
  EXPECT_DOUBLE_EQ(s.at(0), 0.0);
  EXPECT_DOUBLE_EQ(s.at(5), 0.0005);
  EXPECT_DOUBLE_EQ(s.at(10), 0.001);
  EXPECT_NEAR(s.at(30), 0.001 * 0.5 * (1 + std::cos(M_PI * 20 / 40)), 1e-12);
}

TEST(LrSchedule, PiecewiseSwitchesAtEpochBoundaries) {
  auto s = make("{name: Piecewise, decay_epochs: [2, 3], values: [0.1, 0.01, 0.001]}", 4, 5);
  EXPECT_DOUBLE_EQ(s.at(0), 0.1);
  EXPECT_DOUBLE_EQ(s.at(9), 0.1);
  EXPECT_DOUBLE_EQ(s.at(10), 0.01);
  EXPECT_DOUBLE_EQ(s.at(15), 0.001);
}

// PaddleOCR's PP-OCRv3 distillation config lists as many values as
// boundaries; Paddle keeps the last value past the last boundary.
TEST(LrSchedule, PiecewiseWithAsManyValuesAsBoundariesKeepsTheLast) {
  auto s = make("{name: Piecewise, decay_epochs: [2, 3], values: [0.1, 0.01]}", 4, 5);
  EXPECT_DOUBLE_EQ(s.at(9), 0.1);
  EXPECT_DOUBLE_EQ(s.at(10), 0.01);
  EXPECT_DOUBLE_EQ(s.at(15), 0.01);
}

TEST(LrSchedule, LinearDecaysToEndLr) {
  auto s = make("{name: Linear, learning_rate: 1.0, end_lr: 0.0}", 2, 5);
  EXPECT_DOUBLE_EQ(s.at(0), 1.0);
  EXPECT_DOUBLE_EQ(s.at(5), 0.5);
  EXPECT_DOUBLE_EQ(s.at(10), 0.0);
  EXPECT_DOUBLE_EQ(s.at(20), 0.0);
}

TEST(LrSchedule, ConstAndBadSpecs) {
  EXPECT_DOUBLE_EQ(make("{name: Const, learning_rate: 0.02}", 3, 7).at(15), 0.02);
  EXPECT_THROW(make("{name: Exp, learning_rate: 0.1}", 1, 1), UsageError);
  EXPECT_THROW(make("{name: Piecewise, decay_epochs: [1, 2, 3], values: [0.1]}", 2, 1), UsageError);
  EXPECT_THROW(make("{name: Piecewise, decay_epochs: [1], values: [0.1, 0.01, 0.001]}", 2, 1), UsageError);
}

TEST(LrSchedule, IsAPureFunctionOfStep) {
  auto a = make("{name: Cosine, learning_rate: 0.001, warmup_epoch: 0.5}", 3, 8);
  auto b = make("{name: Cosine, learning_rate: 0.001, warmup_epoch: 0.5}", 3, 8);
  for (long step : {17L, 3L, 23L}) EXPECT_DOUBLE_EQ(a.at(step), b.at(step));
}
