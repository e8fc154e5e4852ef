// Schedule: PaddleOCR's rules for when the loop logs, evaluates and saves.
#include "ocrforge/train/loop/schedule.h"

#include <gtest/gtest.h>

#include "ocrforge/train/loop/trainer_spec.h"

using namespace ocrforge;

static TrainerSpec options(int epochs, int print_step, long eval_start, long eval_interval, int save_step) {
  TrainerSpec o;
  o.epoch_num = epochs;
  o.print_batch_step = print_step;
  o.eval_start = eval_start;
  o.eval_interval = eval_interval;
  o.save_epoch_step = save_step;
  return o;
}

TEST(Schedule, LogsEveryPrintStepAndAtEpochEnd) {
  const Schedule s(options(3, 10, 0, 100, 1), 25);
  EXPECT_EQ(s.total_steps(), 75);
  EXPECT_TRUE(s.log_now(10, false));
  EXPECT_TRUE(s.log_now(20, false));
  EXPECT_FALSE(s.log_now(21, false));
  EXPECT_TRUE(s.log_now(25, true));  // end of epoch 1 although 25 % 10 != 0
}

TEST(Schedule, EvaluatesAfterStartEveryInterval) {
  const Schedule s(options(1, 10, 100, 50, 1), 1000);
  EXPECT_FALSE(s.evaluate_now(50));
  EXPECT_FALSE(s.evaluate_now(100));  // strictly after start, as PaddleOCR
  EXPECT_TRUE(s.evaluate_now(150));
  EXPECT_FALSE(s.evaluate_now(175));
  EXPECT_TRUE(s.evaluate_now(200));
}

TEST(Schedule, SnapshotsEverySaveEpochStep) {
  const Schedule s(options(9, 10, 0, 10, 3), 5);
  EXPECT_FALSE(s.save_epoch_snapshot(1));
  EXPECT_FALSE(s.save_epoch_snapshot(2));
  EXPECT_TRUE(s.save_epoch_snapshot(3));
  EXPECT_TRUE(s.save_epoch_snapshot(6));
}

TEST(Schedule, MidEpochResumeSkipsTheBatchesAlreadyTrained) {
  const Schedule s(options(3, 10, 0, 10, 1), 8);
  EXPECT_EQ(s.batches_done_in_next_epoch(14, 1), 6);  // stopped at step 6 of epoch 2
  EXPECT_EQ(s.batches_done_in_next_epoch(16, 2), 0);  // saved at the end of epoch 2
}
