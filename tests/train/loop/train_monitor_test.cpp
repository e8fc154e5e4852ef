// The trainer feeds a registered training monitor (Global.metrics_port) from
// its main rank: every log line and every evaluation; without a registered
// monitor the key is a clear error.
#include "ocrforge/train/loop/train_monitor.h"

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/trainer.h"
#include "train/tasks/rec/trainer_fixture.h"

using namespace ocrforge;

namespace {

struct Seen {
  std::string host;
  int port = -2;
  std::vector<long> steps;
  std::vector<std::string> evals;  // main indicator of each evaluation
  bool loss_in_every_step = true;
};

class RecordingMonitor : public TrainMonitor {
 public:
  explicit RecordingMonitor(Seen* seen) : seen_(seen) {}
  std::string address() const override { return "recording"; }
  void on_step(const StepLogFields& f) override {
    seen_->steps.push_back(f.global_step);
    bool loss = false;
    for (const auto& [name, v] : f.metrics) loss |= name == "loss";
    seen_->loss_in_every_step &= loss;
  }
  void on_eval(const std::vector<std::pair<std::string, double>>& values, const std::string& main,
               double) override {
    EXPECT_FALSE(values.empty());
    seen_->evals.push_back(main);
  }

 private:
  Seen* seen_;
};

TEST(TrainMonitor, TheTrainerFeedsItEveryLogLineAndEvaluation) {
  Seen seen;
  register_train_monitor([&seen](const std::string& host, int port) {
    seen.host = host;
    seen.port = port;
    return std::make_unique<RecordingMonitor>(&seen);
  });
  auto t = test::make_tiny_task("train_monitor", 16);
  Config c = Config::from_string(test::tiny_config(t, 2, 8));  // 4 steps
  c.apply_overrides({"Global.metrics_port=0", "Global.print_batch_step=1", "Global.eval_batch_step=[0, 2]"});
  Trainer trainer(c);
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  register_train_monitor(nullptr);
  EXPECT_EQ(seen.host, "127.0.0.1");
  EXPECT_EQ(seen.port, 0);
  EXPECT_EQ(seen.steps, (std::vector<long>{1, 2, 3, 4}));
  EXPECT_TRUE(seen.loss_in_every_step);
  ASSERT_FALSE(seen.evals.empty()) << "evaluations every 2 steps";
  for (const auto& main : seen.evals) EXPECT_EQ(main, "acc");
  EXPECT_NE(test::read_text(t.save_dir + "/train.log").find("metrics: recording"), std::string::npos);
}

TEST(TrainMonitor, AskingForOneWithoutAServerIsAUsageError) {
  register_train_monitor(nullptr);
  auto t = test::make_tiny_task("train_monitor_none", 4);
  Config c = Config::from_string(test::tiny_config(t, 1, 4));
  c.apply_overrides({"Global.metrics_port=9"});
  try {
    Trainer trainer(c);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Global.metrics_port"), std::string::npos) << e.what();
  }
}

TEST(TrainMonitor, APortOutOfRangeIsAUsageError) {
  auto t = test::make_tiny_task("train_monitor_range", 4);
  Config c = Config::from_string(test::tiny_config(t, 1, 4));
  c.apply_overrides({"Global.metrics_port=70000"});
  EXPECT_THROW(Trainer{c}, UsageError);
}

}  // namespace
