// Fine-tuning the shipped models through the training tasks (algorithm ONNX):
// a few optimizer steps on real crops / real scene images lower the loss the
// trainer minimises, and the rec task checks its dictionary against the model.
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"

namespace ocrforge {
namespace {

// Loss of the first batch before and after `steps` Adam steps on it.
std::pair<double, double> loss_before_after(const std::string& yaml, int steps, double lr) {
  Config config = Config::from_string(yaml);
  check_config_keys(config);
  const TrainerSpec options = trainer_spec_from_config(config);
  at::set_num_threads(2);
  torch::manual_seed(7);
  std::unique_ptr<Task> task = make_task(config, options, torch::kCPU);
  std::unique_ptr<BatchLoader> loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  EXPECT_TRUE(loader->next(&batch));
  torch::optim::Adam opt(task->model().parameters(), torch::optim::AdamOptions(lr));
  task->model().train();
  double first = 0, last = 0;
  for (int step = 0; step <= steps; ++step) {
    opt.zero_grad();
    StepLoss s = task->train_step(batch);
    const double loss = s.loss.item<double>();
    EXPECT_TRUE(std::isfinite(loss)) << "step " << step;
    if (step == 0) first = loss;
    last = loss;
    if (step == steps) break;
    s.loss.backward();
    opt.step();
  }
  return {first, last};
}

TEST(OnnxFinetune, RecognizerStepsOnRealCropsLowerTheCtcLoss) {
  const std::string data = test::data_dir() + "/rec_toy";
  const auto [before, after] = loss_before_after(
      "Global: {character_dict_path: " + test::model_root() +
          "/ppocr_keys_v1.txt, use_space_char: true, max_text_length: 25}\n"
          "Architecture: {model_type: rec, algorithm: ONNX, onnx_model: " +
          test::model_root() + "/rec/inference.onnx}\n"
          "Train:\n  dataset: {name: SimpleDataSet, data_dir: " + data + ", label_file_list: [" + data +
          "/rec_gt.txt], transforms: [DecodeImage: {img_mode: BGR, channel_first: false}, CTCLabelEncode: null, "
          "RecResizeImg: {image_shape: [3, 48, 320]}, KeepKeys: {keep_keys: [image, label, length]}]}\n"
          "  loader: {shuffle: false, batch_size_per_card: 8, drop_last: true, num_workers: 0}\n",
      4, 1e-4);
  EXPECT_GT(before, 0.0);
  EXPECT_LT(after, before * 0.9) << "before " << before << ", after " << after;
}

TEST(OnnxFinetune, DetectorStepsOnRealScenesLowerTheDbLoss) {
  const std::string data = test::data_dir() + "/det_toy";
  const auto [before, after] = loss_before_after(
      "Architecture: {model_type: det, algorithm: ONNX, onnx_model: " + test::model_root() +
          "/det/inference.onnx}\n"
          "Loss: {name: DBLoss, balance_loss: true, main_loss_type: BCELoss, alpha: 5, beta: 10, ohem_ratio: 3}\n"
          "Train:\n  dataset: {name: SimpleDataSet, data_dir: " + data + ", label_file_list: [" + data +
          "/det_gt.txt], transforms: [DecodeImage: {img_mode: BGR, channel_first: false}, DetLabelEncode: null, "
          "EastRandomCropData: {size: [320, 320], max_tries: 50, keep_ratio: true}, "
          "MakeBorderMap: {shrink_ratio: 0.4, thresh_min: 0.3, thresh_max: 0.7}, "
          "MakeShrinkMap: {shrink_ratio: 0.4, min_text_size: 8}, "
          "NormalizeImage: {scale: 1./255., mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], order: hwc}, "
          "ToCHWImage: null, KeepKeys: {keep_keys: [image, threshold_map, threshold_mask, shrink_map, shrink_mask]}]}\n"
          "  loader: {shuffle: false, batch_size_per_card: 2, drop_last: true, num_workers: 0}\n",
      3, 1e-4);
  EXPECT_GT(before, 0.0);
  EXPECT_LT(after, before * 0.95) << "before " << before << ", after " << after;
}

// The real word crops of tests/data/rec_toy upright ("0") and turned ("180"),
// interleaved, as `ocrforge data cls` writes them.
std::string write_cls_crops() {
  const std::string src = test::data_dir() + "/rec_toy", dir = test::fresh_dir("cls_crops");
  std::string lines;
  int n = 0;
  for (const RecLabel& l : read_rec_labels(src + "/rec_gt.txt")) {
    const cv::Mat up = cv::imread(src + "/" + l.path);
    cv::Mat turned;
    cv::rotate(up, turned, cv::ROTATE_180);
    const std::string name = std::to_string(n++);
    cv::imwrite(dir + "/" + name + "_0.png", up);
    cv::imwrite(dir + "/" + name + "_180.png", turned);
    lines += name + "_0.png\t0\n" + name + "_180.png\t180\n";
  }
  test::write_text(dir + "/cls_gt.txt", lines);
  return dir;
}

std::string cls_yaml(const std::string& dir, const std::string& global) {
  return "Global: {" + global + "}\n"
         "Architecture: {model_type: cls, algorithm: ONNX, onnx_model: " + test::model_root() + "/cls/inference.onnx}\n"
         "Loss: {name: ClsLoss}\nMetric: {name: ClsMetric, main_indicator: acc}\n"
         "Train:\n  dataset: {name: SimpleDataSet, data_dir: " + dir + ", label_file_list: [" + dir +
         "/cls_gt.txt], transforms: [DecodeImage: {img_mode: BGR, channel_first: false}, ClsLabelEncode: null, "
         "ClsResizeImg: {image_shape: [3, 48, 192]}, KeepKeys: {keep_keys: [image, label]}]}\n"
         "  loader: {shuffle: false, batch_size_per_card: 16, drop_last: true, num_workers: 0}\n";
}

TEST(OnnxFinetune, ClassifierStepsOnRealCropsLowerTheCrossEntropy) {
  const auto [before, after] = loss_before_after(cls_yaml(write_cls_crops(), "label_list: ['0', '180']"), 4, 1e-4);
  EXPECT_GT(before, 0.0);
  EXPECT_LT(after, before * 0.9) << "before " << before << ", after " << after;
}

TEST(OnnxFinetune, ClassifierEvaluationCountsEveryCrop) {
  Config config = Config::from_string(cls_yaml(write_cls_crops(), "label_list: ['0', '180']"));
  check_config_keys(config);
  std::unique_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  std::unique_ptr<BatchLoader> loader = task->make_loader("Train", false, 0, 1);
  const EvalMetrics m = task->evaluate(*loader, nullptr);
  EXPECT_EQ(m.samples, 20);  // 10 crops, each upright and turned; no partial batch dropped
  // The shipped classifier tells most of these apart (it is not guessing).
  EXPECT_GT(m.get("acc"), 0.6);
  EXPECT_LE(m.get("acc"), 1.0);
}

TEST(OnnxFinetune, ClassifierLabelListMustFitTheModel) {
  Config config = Config::from_string(cls_yaml(write_cls_crops(), "label_list: ['0', '90', '180']"));
  try {
    make_task(config, trainer_spec_from_config(config), torch::kCPU);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Global.label_list has 3 labels but"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outputs 2 classes"), std::string::npos) << e.what();
  }
  Config native = Config::from_string("Architecture: {model_type: cls, algorithm: CLS}\n");
  EXPECT_THROW(make_task(native, trainer_spec_from_config(native), torch::kCPU), UsageError);
}

}  // namespace
}  // namespace ocrforge
