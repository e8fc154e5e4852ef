// Recognition from a training checkpoint agrees with the trainer's own
// evaluation (same preprocessing, same decoding).
#include "ocrforge/train/loop/checkpoint_recognizer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/vision/rec_metric.h"
#include "trainer_fixture.h"

using namespace ocrforge;

TEST(CheckpointRecognizer, AgreesWithTrainerEvaluation) {
  auto t = test::make_tiny_task("ckpt_rec", 32);
  Config c = Config::from_string(test::tiny_config(t, 30, 16));
  Trainer trainer(c);
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  const EvalMetrics eval = trainer.evaluate();

  ASSERT_TRUE(is_checkpoint_path(t.save_dir));
  CheckpointRecognizer rec(t.save_dir, 2);
  EXPECT_NE(rec.path().find("latest.ckpt"), std::string::npos);  // no eval ran, so no best_accuracy
  std::ifstream labels(t.dir + "/rec_gt.txt");
  std::vector<cv::Mat> crops;
  std::vector<std::string> truth;
  std::string line;
  while (std::getline(labels, line)) {
    auto parts = split(line, '\t');
    crops.push_back(cv::imread(t.dir + "/" + parts[0]));
    truth.push_back(parts[1]);
  }
  auto results = rec.recognize(crops);
  RecMetric m;
  for (size_t i = 0; i < crops.size(); ++i) m.add(results[i].text, truth[i]);
  EXPECT_DOUBLE_EQ(m.acc(), eval.get("acc"));
  EXPECT_DOUBLE_EQ(m.norm_edit_dis(), eval.get("norm_edit_dis"));
}

TEST(CheckpointRecognizer, FolderWithoutCheckpointIsAnError) {
  const std::string dir = test::fresh_dir("ckpt_rec_empty");
  EXPECT_FALSE(is_checkpoint_path(dir));
  test::write_text(dir + "/latest.ckpt", "x");
  EXPECT_TRUE(is_checkpoint_path(dir));
  test::write_text(dir + "/inference.onnx", "x");  // exported into the training folder: the export wins
  EXPECT_FALSE(is_checkpoint_path(dir));
  EXPECT_TRUE(is_checkpoint_path(dir + "/latest.ckpt"));
  std::filesystem::remove(dir + "/latest.ckpt");
  std::filesystem::remove(dir + "/inference.onnx");
  EXPECT_THROW(CheckpointRecognizer(dir, 1), Error);
}
