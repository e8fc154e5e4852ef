#include "ocrforge/infer/ocr_pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

static OcrParams params(bool cls) {
  OcrParams p;
  p.det.model_dir = test::model_root() + "/det";
  p.rec.model_dir = test::model_root() + "/rec";
  p.cls.model_dir = test::model_root() + "/cls";
  p.rec.char_dict_path = test::model_root() + "/ppocr_keys_v1.txt";
  p.use_angle_cls = cls;
  return p;
}

static std::vector<std::string> texts(const OcrResult& r) {
  std::vector<std::string> out;
  for (const auto& l : r.lines) out.push_back(l.text);
  return out;
}

static bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(OcrPipeline, ReadsTheEnglishSignInReadingOrder) {
  OcrPipeline ocr(params(false));
  auto r = ocr.run(cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg"));
  auto t = texts(r);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0], "EPPING");
  EXPECT_EQ(t[1], "Twinned with");
  EXPECT_NE(t[2].find("Eppingen"), std::string::npos);
}

TEST(OcrPipeline, ReadsChineseDocumentLines) {
  OcrPipeline ocr(params(false));
  auto t = texts(ocr.run(cv::imread(test::data_dir() + "/samples/imgs_11.jpg")));
  EXPECT_TRUE(has(t, "纯臻营养护发素"));
  EXPECT_TRUE(has(t, "产品信息/参数"));
  EXPECT_GE(t.size(), 14u);
  auto hotel = texts(ocr.run(cv::imread(test::data_dir() + "/samples/imgs_12.jpg")));
  EXPECT_TRUE(has(hotel, "打浦路15号"));
}

TEST(OcrPipeline, AngleClassifierReadsAnUpsideDownSign) {
  OcrPipeline ocr(params(true));
  cv::Mat img = cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg"), flipped;
  cv::rotate(img, flipped, cv::ROTATE_180);
  auto r = ocr.run(flipped);
  EXPECT_TRUE(has(texts(r), "EPPING"));
  for (const auto& l : r.lines) EXPECT_FALSE(l.cls_label.empty());
}

TEST(OcrPipeline, DropScoreFiltersLinesButKeepsDetections) {
  OcrParams p = params(false);
  p.drop_score = 1.01f;  // no confidence reaches this
  OcrPipeline ocr(p);
  auto r = ocr.run(cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg"));
  EXPECT_TRUE(r.lines.empty());
  EXPECT_EQ(r.detected.size(), 3u);
}

TEST(OcrPipeline, CoordinateScaleMapsBackToFileSize) {
  OcrPipeline ocr(params(false));
  cv::Mat img = cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg");
  auto a = ocr.run(img);
  auto b = ocr.run(img, 2.f);
  ASSERT_EQ(a.lines.size(), b.lines.size());
  EXPECT_NEAR(b.lines[0].box[2].x, 2 * a.lines[0].box[2].x, 1e-3);
  EXPECT_EQ(b.image_size.width, 2 * img.cols);
}

TEST(OcrPipeline, EmptyAndOneByOneImagesGiveNoLines) {
  OcrPipeline ocr(params(true));
  EXPECT_TRUE(ocr.run(cv::Mat(1, 1, CV_8UC3, cv::Scalar(9, 9, 9))).lines.empty());
}

TEST(OcrPipeline, RunSettingsOverrideThresholdsForOneCall) {
  OcrPipeline ocr(params(false));
  const cv::Mat img = cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg");
  RunParams strict = ocr.default_settings();
  strict.drop_score = 1.01f;  // above any score: every line dropped, the boxes stay
  const OcrResult none = ocr.run(img, strict);
  EXPECT_TRUE(none.lines.empty());
  EXPECT_EQ(none.detected.size(), 3u);
  RunParams few = ocr.default_settings();
  few.det_post.box_thresh = 0.999f;  // no box scores that high
  EXPECT_TRUE(ocr.run(img, few).detected.empty());
  // The pipeline's own settings are untouched by either call.
  EXPECT_EQ(texts(ocr.run(img)).size(), 3u);
}

TEST(OcrPipeline, AskingForAnUnloadedClassifierIsAnError) {
  const OcrPipeline ocr(params(false));
  RunParams s = ocr.default_settings();
  s.use_angle_cls = true;
  try {
    ocr.run(cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg"), s);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--use_angle_cls"), std::string::npos) << e.what();
  }
}

// One pipeline shared by threads (a server's requests) gives each the result
// it gives alone. The TSan build of the tests (OCRFORGE_TSAN) checks the
// sharing itself.
TEST(OcrPipeline, ConcurrentRunsOnOnePipelineMatchSequentialOnes) {
  const OcrPipeline ocr(params(true));
  const std::vector<std::string> names = {"imgs_ger_1.jpg", "imgs_en_254.jpg", "imgs_11.jpg"};
  std::vector<cv::Mat> images;
  std::vector<std::vector<std::string>> expected;
  for (const auto& n : names) {
    images.push_back(cv::imread(test::data_dir() + "/samples/" + n));
    expected.push_back(texts(ocr.run(images.back(), ocr.default_settings())));
  }
  std::vector<std::vector<std::string>> got(names.size() * 2);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] { got[t] = texts(ocr.run(images[t % names.size()], ocr.default_settings())); });
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < got.size(); ++t) EXPECT_EQ(got[t], expected[t % names.size()]) << names[t % names.size()];
}

// Word boxes: a line of words drawn at known places, read back as one line
// whose words' boxes sit on them; the same page upside down (the classifier
// turns the crop, and the word spans must be carried back turned) too.
TEST(OcrPipeline, WordBoxesSitOnTheWords) {
  cv::Mat page(160, 900, CV_8UC3, cv::Scalar(255, 255, 255));
  // Drawn one by one with a gap the recogniser reads as a space, close
  // enough for the detector to take them as one line.
  const int font = cv::FONT_HERSHEY_SIMPLEX, baseline_y = 100;
  const double scale = 1.6;
  std::vector<std::pair<std::string, cv::Rect>> drawn;
  int x = 40, base = 0;
  for (const std::string word : {"INVOICE", "NUMBER", "2024"}) {
    const cv::Size size = cv::getTextSize(word, font, scale, 3, &base);
    cv::putText(page, word, cv::Point(x, baseline_y), font, scale, cv::Scalar(0, 0, 0), 3);
    drawn.emplace_back(word, cv::Rect(x, baseline_y - size.height, size.width, size.height));
    x += size.width + 28;
  }
  OcrParams p = params(true);
  p.word_boxes = true;
  OcrPipeline ocr(p);
  for (bool turned : {false, true}) {
    cv::Mat img = page.clone();
    if (turned) cv::rotate(page, img, cv::ROTATE_180);
    const OcrResult r = ocr.run(img);
    ASSERT_EQ(r.lines.size(), 1u) << "one detected line holding the three words";
    const auto& words = r.lines[0].words;
    ASSERT_EQ(words.size(), 3u) << r.lines[0].text;
    for (const auto& [word, rect] : drawn) {
      const auto it = std::find_if(words.begin(), words.end(), [&](const OcrWord& w) { return w.text == word; });
      ASSERT_NE(it, words.end()) << word << (turned ? " (turned)" : "");
      float x0 = 1e9f, x1 = -1e9f;
      for (const auto& pt : it->box) {
        x0 = std::min(x0, pt.x);
        x1 = std::max(x1, pt.x);
      }
      cv::Rect want = rect;
      if (turned) want = cv::Rect(page.cols - rect.x - rect.width, page.rows - rect.y - rect.height, rect.width, rect.height);
      // Within a fifth of the word's width at both ends.
      const float slack = 0.2f * static_cast<float>(want.width);
      EXPECT_NEAR(x0, want.x, slack) << word << (turned ? " (turned)" : "");
      EXPECT_NEAR(x1, want.x + want.width, slack) << word << (turned ? " (turned)" : "");
    }
  }
}
