// Recognition accuracy on real IC15 scene word crops from ../shared/data
// (the team's data; skipped when absent). Guards against preprocessing or
// decoding regressions that a handful of crops would not reveal.
#include <gtest/gtest.h>

#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/label_file.h"
#include "ocrforge/core/text.h"
#include "ocrforge/core/cpu_features.h"
#include "ocrforge/infer/int8_model.h"
#include "ocrforge/infer/text_recognizer.h"
#include "ocrforge/vision/rec_metric.h"
#include "test_support.h"

using namespace ocrforge;

TEST(RecAccuracy, Ic15First400Crops) {
  const std::string data = test::shared_data_dir();
  if (data.empty()) GTEST_SKIP() << "../shared/data not present";
  RecParams p;
  p.model_dir = test::model_root() + "/rec";
  p.char_dict_path = test::model_root() + "/ppocr_keys_v1.txt";
  RuntimeParams rt;
  rt.cpu_threads = 2;
  TextRecognizer rec(p, rt);
  std::ifstream labels(data + "/ic15_rec_train/rec_gt_train.txt");
  std::vector<cv::Mat> crops;
  std::vector<std::string> truth;
  std::string line;
  while (crops.size() < 400 && std::getline(labels, line)) {
    auto parts = split(line, '\t');
    crops.push_back(cv::imread(data + "/ic15_rec_train/" + parts[0]));
    ASSERT_FALSE(crops.back().empty()) << parts[0];
    truth.push_back(parts[1]);
  }
  auto results = rec.recognize(crops);
  RecMetric metric;
  for (size_t i = 0; i < crops.size(); ++i) metric.add(results[i].text, truth[i]);
  // Measured 0.735 / 0.87 with PP-OCRv4 here (docs/accuracy.md).
  EXPECT_GE(metric.acc(), 0.70);
  EXPECT_GE(metric.norm_edit_dis(), 0.85);
  std::cout << "acc " << metric.acc() << " norm_edit_dis " << metric.norm_edit_dis() << "\n";
}

// --precision int8 is used only if it stays within 1 point of fp32 (issue
// 14): the same 400 crops, int8 against fp32, both metrics. The int8 model
// is made into a fresh cache folder from the shipped calibration crops. The
// scheme this CPU gets (int8_plan: s8 with VNNI, u8 without) runs, and u8
// also where it is not the default, so VNNI machines check the AVX2 one too.
TEST(RecAccuracy, Int8WithinOnePointOfFp32OnIc15First400Crops) {
  const std::string data = test::shared_data_dir();
  if (data.empty()) GTEST_SKIP() << "../shared/data not present";
  RecParams p;
  p.model_dir = test::model_root() + "/rec";
  p.char_dict_path = test::model_root() + "/ppocr_keys_v1.txt";
  const auto labels = read_rec_labels(data + "/ic15_rec_train/rec_gt_train.txt");
  std::vector<cv::Mat> crops;
  for (size_t i = 0; i < 400; ++i) crops.push_back(cv::imread(data + "/ic15_rec_train/" + labels[i].path));
  std::vector<std::string> schemes = {"fp32", "auto"};
  if (int8_plan("rec", RuntimeParams{}, cpu_features()).weights != Int8Weights::Unsigned8) schemes.push_back("u8");
  std::vector<double> acc, ned;
  for (const std::string& scheme : schemes) {
    RuntimeParams rt;
    rt.cpu_threads = 2;
    rt.precision = scheme == "fp32" ? "fp32" : "int8";
    if (scheme != "fp32") rt.int8_scheme = scheme;
    rt.int8_cache_dir = test::fresh_dir("rec_accuracy_int8");
    rt.int8_calibration_dir = test::source_dir() + "/data/int8_calibration";
    TextRecognizer rec(p, rt);
    ASSERT_EQ(rec.model().precision(), rt.precision) << rec.model().int8_plan();
    const auto results = rec.recognize(crops);
    RecMetric metric;
    for (size_t i = 0; i < crops.size(); ++i) metric.add(results[i].text, labels[i].text);
    acc.push_back(metric.acc());
    ned.push_back(metric.norm_edit_dis());
    std::cout << scheme << " (" << rec.model().int8_plan() << "): acc " << acc.back() << " norm_edit_dis "
              << ned.back() << "\n";
  }
  for (size_t k = 1; k < schemes.size(); ++k) {
    EXPECT_GE(acc[k], acc[0] - 0.01) << schemes[k];
    EXPECT_GE(ned[k], ned[0] - 0.01) << schemes[k];
  }
}
