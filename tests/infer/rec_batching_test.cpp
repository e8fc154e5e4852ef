#include "ocrforge/infer/rec_batching.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/infer/text_recognizer.h"
#include "test_support.h"

using namespace ocrforge;

TEST(RecBatching, WidthDependsOnlyOnTheCrop) {
  // 48 x 100: narrower than 320/48, padded to 320 as PaddleOCR's batch of one.
  EXPECT_EQ(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 1), 320);
  EXPECT_EQ(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 32), 320);
  // 24 x 245: ratio 10.2083 -> int(48 * 10.2083) = 490.
  EXPECT_EQ(rec_input_width(cv::Mat(24, 245, CV_8UC3), 48, 320, 1), 490);
  EXPECT_EQ(rec_input_width(cv::Mat(24, 245, CV_8UC3), 48, 320, 32), 512);
  EXPECT_EQ(rec_input_width(cv::Mat(48, 480, CV_8UC3), 48, 320, 32), 480);
  EXPECT_THROW(rec_input_width(cv::Mat(48, 480, CV_8UC3), 48, 320, 0), Error);
}

TEST(RecBatching, MinWidthLowersOnlyThePaddingFloor) {
  // 48 x 100 keeps its own width above a floor of 64, is padded to 160 below
  // a floor of 160; 0 is PaddleOCR's floor (image_w).
  EXPECT_EQ(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 1, 64), 100);
  EXPECT_EQ(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 1, 160), 160);
  EXPECT_EQ(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 1, 0), 320);
  // A floor above image_w is image_w; widths above image_w are as before.
  EXPECT_EQ(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 1, 400), 320);
  EXPECT_EQ(rec_input_width(cv::Mat(24, 245, CV_8UC3), 48, 320, 32, 64), 512);
  // 30 x 10 at height 48: int(48 * 0.3333) = 15, below a floor of 16.
  EXPECT_EQ(rec_input_width(cv::Mat(30, 10, CV_8UC3), 48, 320, 1, 16), 16);
  EXPECT_THROW(rec_input_width(cv::Mat(48, 100, CV_8UC3), 48, 320, 1, -1), Error);
}

TEST(RecBatching, BatchesOnlyEqualWidthsAndCutsAtBatchNum) {
  const std::vector<int> widths = {320, 512, 320, 480, 320, 512, 320};
  const std::vector<float> ratios = {3.f, 10.5f, 1.f, 9.8f, 2.f, 10.2f, 6.f};
  const auto batches = plan_rec_batches(widths, ratios, 3);
  ASSERT_EQ(batches.size(), 4u);
  EXPECT_EQ(batches[0].width, 320);
  EXPECT_EQ(batches[0].items, (std::vector<size_t>{2, 4, 0}));  // ascending ratio
  EXPECT_EQ(batches[1].width, 320);
  EXPECT_EQ(batches[1].items, (std::vector<size_t>{6}));
  EXPECT_EQ(batches[2].width, 480);
  EXPECT_EQ(batches[2].items, (std::vector<size_t>{3}));
  EXPECT_EQ(batches[3].width, 512);
  EXPECT_EQ(batches[3].items, (std::vector<size_t>{5, 1}));
  std::vector<size_t> seen;
  for (const auto& b : batches) {
    for (size_t i : b.items) EXPECT_EQ(widths[i], b.width);
    seen.insert(seen.end(), b.items.begin(), b.items.end());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(plan_rec_batches({}, {}, 6).empty());
  EXPECT_THROW(plan_rec_batches({320}, {}, 6), Error);
}

static RecParams rec_params(int batch) {
  RecParams p;
  p.model_dir = test::model_root() + "/rec";
  p.char_dict_path = test::model_root() + "/ppocr_keys_v1.txt";
  if (batch > 0) p.batch_num = batch;
  return p;
}

static RuntimeParams two_threads() {
  RuntimeParams rt;
  rt.cpu_threads = 2;
  return rt;
}

// The 10 rec_toy crops, plus wide lines made by joining them side by side
// (widths 320 .. ~900 at height 48), so that several width groups occur.
static std::vector<cv::Mat> toy_crops() {
  const std::string dir = test::data_dir() + "/rec_toy";
  std::ifstream labels(dir + "/rec_gt.txt");
  std::vector<cv::Mat> crops;
  std::string line;
  while (std::getline(labels, line)) {
    auto parts = split(line, '\t');
    if (parts.size() != 2) continue;
    cv::Mat m = cv::imread(dir + "/" + parts[0]);
    if (!m.empty()) crops.push_back(m);
  }
  const size_t n = crops.size();
  for (size_t k = 2; k <= 4 && n >= k; ++k)
    for (size_t start = 0; start + k <= n; start += 2) {
      std::vector<cv::Mat> parts;
      for (size_t i = start; i < start + k; ++i) {
        cv::Mat r;
        cv::resize(crops[i], r, cv::Size(std::max(1, crops[i].cols * 48 / crops[i].rows), 48));
        parts.push_back(r);
      }
      cv::Mat joined;
      cv::hconcat(parts, joined);
      crops.push_back(joined);
    }
  return crops;
}

// Batch 1 against the default batch and against PaddleOCR's 6, at the
// default width step and at step 1.
TEST(RecBatching, AnyBatchSizeReadsTheSameTextsAsBatchOne) {
  const std::vector<cv::Mat> crops = toy_crops();
  ASSERT_GE(crops.size(), 20u);
  for (int step : {1, RecParams{}.width_step}) {
    RecParams one = rec_params(1);
    one.width_step = step;
    TextRecognizer a(one, two_threads());
    const auto ra = a.recognize(crops);
    ASSERT_EQ(ra.size(), crops.size());
    EXPECT_EQ(a.stats().calls, static_cast<long>(crops.size()));
    for (int batch : {RecParams{}.batch_num, 6}) {
      if (batch == 1) continue;
      RecParams many = rec_params(batch);
      many.width_step = step;
      TextRecognizer b(many, two_threads());
      const auto rb = b.recognize(crops);
      ASSERT_EQ(rb.size(), crops.size());
      for (size_t i = 0; i < crops.size(); ++i) {
        EXPECT_EQ(ra[i].text, rb[i].text) << "batch " << batch << ", crop " << i << " (" << crops[i].cols << "x"
                                          << crops[i].rows << ")";
        EXPECT_NEAR(ra[i].score, rb[i].score, 1e-4) << "batch " << batch << ", crop " << i;
      }
      // The comparison means something only if crops really shared calls.
      EXPECT_LT(b.stats().calls, a.stats().calls) << "batch " << batch;
    }
  }
}

// The whole pipeline on the 15 samples: the default batch and batch 6 read
// exactly what batch 1 reads.
TEST(RecBatching, WholePipelineOnTheSamplesEqualsBatchOne) {
  OcrParams p;
  p.det.model_dir = test::model_root() + "/det";
  p.rec = rec_params(1);
  p.runtime = two_threads();
  p.use_angle_cls = false;  // cls inputs have a fixed size; only rec is under test
  OcrPipeline one(p);
  std::vector<std::unique_ptr<OcrPipeline>> others;
  for (int batch : {RecParams{}.batch_num, 6}) {
    if (batch == 1) continue;
    p.rec = rec_params(batch);
    others.push_back(std::make_unique<OcrPipeline>(p));
  }
  ASSERT_FALSE(others.empty());
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::data_dir() + "/samples"))
    if (e.path().extension() == ".jpg") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 15u);
  size_t lines = 0;
  for (const auto& f : files) {
    const cv::Mat img = cv::imread(f);
    ASSERT_FALSE(img.empty()) << f;
    const OcrResult ra = one.run(img);
    lines += ra.detected.size();
    for (auto& other : others) {
      const OcrResult rb = other->run(img);
      ASSERT_EQ(ra.detected.size(), rb.detected.size()) << f;
      for (size_t i = 0; i < ra.detected.size(); ++i) {
        EXPECT_EQ(ra.detected[i].text, rb.detected[i].text) << f << " line " << i;
        EXPECT_NEAR(ra.detected[i].score, rb.detected[i].score, 1e-4) << f << " line " << i;
      }
    }
  }
  EXPECT_GE(lines, 150u);  // ~170 boxes on the 15 samples: the check covers real text
  for (auto& other : others) EXPECT_LT(other->recognizer().stats().calls, one.recognizer().stats().calls);
}
