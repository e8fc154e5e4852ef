#include "ocrforge/infer/result_files.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace ocrforge;

static OcrResult sample_result() {
  OcrResult r;
  r.image_size = {100, 50};
  OcrLine a;
  a.box = {cv::Point2f(1.7f, 2.2f), cv::Point2f(30, 2), cv::Point2f(30, 12), cv::Point2f(1, 12)};
  a.polygon = {a.box.begin(), a.box.end()};
  a.text = "Hello \"you\"";
  a.score = 0.9f;
  a.det_score = 0.8f;
  OcrLine b = a;
  b.text = "中文";
  b.score = 0.3f;
  r.detected = {a, b};
  r.lines = {a};
  return r;
}

TEST(ResultFiles, LabelJsonMatchesPythonJsonDumps) {
  const std::string s = lines_to_label_json(sample_result().detected);
  EXPECT_EQ(s,
            "[{\"transcription\": \"Hello \\\"you\\\"\", \"points\": [[1, 2], [30, 2], [30, 12], [1, 12]]}, "
            "{\"transcription\": \"中文\", \"points\": [[1, 2], [30, 2], [30, 12], [1, 12]]}]");
}

TEST(ResultFiles, SystemResultsLineUsesFileName) {
  const std::string s = system_results_line("/some/dir/img_7.jpg", sample_result());
  EXPECT_EQ(s.substr(0, s.find('\t')), "img_7.jpg");
  EXPECT_EQ(s.find("中文"), std::string::npos) << "dropped lines must not be written";
}

TEST(ResultFiles, ResultJsonHasPaddleOcr3Fields) {
  OcrParams p;
  auto j = nlohmann::json::parse(result_json("a/b.jpg", sample_result(), p))["res"];
  EXPECT_EQ(j["input_path"], "a/b.jpg");
  EXPECT_EQ(j["dt_polys"].size(), 2u);
  EXPECT_EQ(j["dt_scores"].size(), 2u);
  EXPECT_EQ(j["rec_texts"], nlohmann::json::array({"Hello \"you\""}));
  EXPECT_EQ(j["rec_boxes"][0], nlohmann::json::array({1, 2, 30, 12}));
  EXPECT_DOUBLE_EQ(j["text_det_params"]["box_thresh"].get<double>(), 0.6f);
  EXPECT_EQ(j["text_det_params"]["limit_type"], "max");
}

TEST(ResultFiles, LabelLineIsRelativeToLabelFolder) {
  const std::string s = label_file_line("/data/set/imgs/x.jpg", "/data/set/Label.txt", sample_result());
  EXPECT_EQ(s.substr(0, s.find('\t')), "imgs/x.jpg");
  EXPECT_NE(s.find("\"difficult\": false"), std::string::npos);
  // The recognition score, for `data select --uncertain`.
  EXPECT_NE(s.find("\"difficult\": false, \"score\": 0.9}"), std::string::npos) << s;
  const std::string outside = label_file_line("/elsewhere/x.jpg", "/data/set/Label.txt", sample_result());
  EXPECT_EQ(outside.substr(0, outside.find('\t')), "/elsewhere/x.jpg");
}
