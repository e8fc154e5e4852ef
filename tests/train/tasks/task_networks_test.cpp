// A training checkpoint read by the inference predictors through its task
// (tasks/task_networks.h): the recognizer's reads agree with the trainer's
// own evaluation, and a checkpoint of the wrong kind or a folder without one
// is an error naming the file.
#include "ocrforge/train/tasks/task_networks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ocrforge/core/checkpoint_path.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/checkpoint_networks.h"
#include "ocrforge/infer/text_detector.h"
#include "ocrforge/infer/text_recognizer.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/vision/rec_metric.h"
#include "train/tasks/rec/trainer_fixture.h"

using namespace ocrforge;

namespace {

RuntimeParams one_thread() {
  RuntimeParams rt;
  rt.cpu_threads = 1;
  return rt;
}

TEST(TaskNetworks, RecognizerOnACheckpointAgreesWithTrainerEvaluation) {
  register_task_networks();
  auto t = test::make_tiny_task("ckpt_rec", 32);
  Config c = Config::from_string(test::tiny_config(t, 30, 16));
  Trainer trainer(c);
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  const EvalMetrics eval = trainer.evaluate();

  ASSERT_TRUE(is_checkpoint_path(t.save_dir));
  RecParams p;
  p.model_dir = t.save_dir;
  apply_rec_checkpoint(p, false, false);  // the checkpoint's dictionary and 32 x 100 input
  EXPECT_EQ(p.image_h, 32);
  EXPECT_EQ(p.image_w, 100);
  TextRecognizer rec(p, one_thread());
  EXPECT_NE(rec.model().path().find("latest.ckpt"), std::string::npos);  // no eval ran, so no best_accuracy
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

  // A rec checkpoint is not a detector; int8 is for ONNX models.
  DetParams d;
  d.model_dir = t.save_dir;
  try {
    TextDetector det(d, one_thread());
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a rec checkpoint, not a detector"), std::string::npos) << e.what();
  }
  RuntimeParams int8 = one_thread();
  int8.precision = "int8";
  EXPECT_THROW(TextRecognizer(p, int8), UsageError);
}

TEST(TaskNetworks, FolderWithoutCheckpointIsAnError) {
  register_task_networks();
  const std::string dir = test::fresh_dir("ckpt_rec_empty");
  EXPECT_FALSE(is_checkpoint_path(dir));
  test::write_text(dir + "/latest.ckpt", "x");
  EXPECT_TRUE(is_checkpoint_path(dir));
  test::write_text(dir + "/inference.onnx", "x");  // exported into the training folder: the export wins
  EXPECT_FALSE(is_checkpoint_path(dir));
  EXPECT_TRUE(is_checkpoint_path(dir + "/latest.ckpt"));
  std::filesystem::remove(dir + "/latest.ckpt");
  std::filesystem::remove(dir + "/inference.onnx");
  RecParams p;
  p.model_dir = dir + "/latest.ckpt";
  EXPECT_THROW(TextRecognizer(p, one_thread()), Error);
}

}  // namespace
