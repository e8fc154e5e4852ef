// DetDataset on the real IC15 images of tests/data/det_toy, and the bad
// label cases of issue 9 (each skipped, clipped or ignored, and counted).
#include <gtest/gtest.h>

#include <cmath>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_dataset.h"
#include "ocrforge/vision/det_resize.h"
#include "test_support.h"

using namespace ocrforge;

namespace {

std::string toy_dir() { return test::data_dir() + "/det_toy"; }

DetLabelListSpec toy_list() {
  DetLabelListSpec list;
  list.data_dir = toy_dir();
  list.label_file_list = {toy_dir() + "/det_gt.txt"};
  return list;
}

DetTransformSpec train_spec(int crop = 160) {
  DetTransformSpec t;
  t.training = true;
  t.use_iaa = true;
  t.use_crop = true;
  t.crop.width = t.crop.height = crop;
  return t;
}

DetTransformSpec eval_spec() {
  DetTransformSpec t;
  t.training = false;
  return t;
}

bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

TEST(DetDataset, ReadsTheToyLabels) {
  DetDataset ds(toy_list(), train_spec(), true);
  ASSERT_EQ(ds.size(), 10u);
  EXPECT_EQ(ds.entry(0).path, toy_dir() + "/imgs/img_1.jpg");
  EXPECT_EQ(ds.entry(0).regions.size(), 7u);
  EXPECT_EQ(ds.label_stats().invalid_lines, 0);
  EXPECT_EQ(ds.label_stats().few_points, 0);
}

TEST(DetDataset, TrainingSampleHasTheFourMaps) {
  DetDataset ds(toy_list(), train_spec(160), true);
  DetDataStats stats;
  for (size_t i = 0; i < 3; ++i) {
    const DetSample s = ds.load(i, 1000 + i, &stats);
    ASSERT_EQ(s.height, 160);
    ASSERT_EQ(s.width, 160);
    const size_t plane = 160 * 160;
    ASSERT_EQ(s.image.size(), 3 * plane);
    for (const auto* m : {&s.threshold_map, &s.threshold_mask, &s.shrink_map, &s.shrink_mask}) {
      ASSERT_EQ(m->size(), plane);
      EXPECT_TRUE(all_finite(*m));
    }
    EXPECT_TRUE(all_finite(s.image));
    for (size_t k = 0; k < plane; ++k) {
      ASSERT_GE(s.threshold_map[k], 0.3f - 1e-6f);
      ASSERT_LE(s.threshold_map[k], 0.7f + 1e-6f);
      ASSERT_TRUE(s.shrink_map[k] == 0.f || s.shrink_map[k] == 1.f);
      ASSERT_TRUE(s.shrink_mask[k] == 0.f || s.shrink_mask[k] == 1.f);
      ASSERT_TRUE(s.threshold_mask[k] == 0.f || s.threshold_mask[k] == 1.f);
    }
    EXPECT_TRUE(s.polygons.empty());  // evaluation only
  }
  EXPECT_EQ(stats.replaced(), 0);
}

TEST(DetDataset, SampleDependsOnlyOnSeedAndIndex) {
  DetDataset ds(toy_list(), train_spec(128), true);
  const DetSample a = ds.load(2, 77, nullptr);
  const DetSample b = ds.load(2, 77, nullptr);
  const DetSample c = ds.load(2, 78, nullptr);
  EXPECT_EQ(a.image, b.image);
  EXPECT_EQ(a.shrink_map, b.shrink_map);
  EXPECT_EQ(a.threshold_map, b.threshold_map);
  EXPECT_NE(a.image, c.image);
}

TEST(DetDataset, EvalSampleEqualsTheInferenceInput) {
  DetDataset ds(toy_list(), eval_spec(), false);
  const DetSample s = ds.load(0, 1, nullptr);
  const cv::Mat img = cv::imread(toy_dir() + "/imgs/img_1.jpg", cv::IMREAD_COLOR);
  ASSERT_FALSE(img.empty());
  const DetInput ref = det_preprocess(img, DetResizeParams{736, DetLimitType::Min, 4000});
  EXPECT_EQ(s.src_h, img.rows);
  EXPECT_EQ(s.src_w, img.cols);
  EXPECT_EQ(s.height, ref.size.height);
  EXPECT_EQ(s.width, ref.size.width);
  EXPECT_FLOAT_EQ(s.ratio_h, ref.ratio_h);
  EXPECT_FLOAT_EQ(s.ratio_w, ref.ratio_w);
  ASSERT_EQ(s.image.size(), ref.chw.size());
  EXPECT_EQ(s.image, ref.chw);  // bit for bit: one rule for train-time eval and `infer det`
  // Ground truth in source pixels with ignore flags ("###" in img_1: 3 of 7).
  ASSERT_EQ(s.polygons.size(), 7u);
  int ignored = 0;
  for (const auto& p : s.polygons) ignored += p.ignore;
  EXPECT_EQ(ignored, 3);
  EXPECT_EQ(s.polygons[0].points[0], cv::Point2f(377, 117));
  EXPECT_TRUE(s.threshold_map.empty());
}

TEST(DetDataset, BadRegionsAreClippedOrIgnoredAndCounted) {
  const cv::Size image(100, 50);
  // Outside the image (clipped), zero area (collinear), self-intersecting
  // (bow tie), a good one, and an ignored one that is also outside.
  const std::vector<DetRegion> regions = {
      {"out", {{-20, 10}, {40, 10}, {40, 30}, {-20, 30}}},
      {"flat", {{10, 10}, {20, 10}, {30, 10}}},
      {"bowtie", {{10, 10}, {50, 40}, {50, 10}, {10, 30}}},  // area 200, edges cross at (26, 22)
      {"good", {{50, 10}, {90, 10}, {90, 30}, {50, 30}}},
      {"###", {{90, 40}, {120, 40}, {120, 60}, {90, 60}}},
  };
  std::vector<DetPolygon> polys;
  std::vector<bool> ignore;
  DetDataStats stats;
  det_validate_regions(regions, image, &polys, &ignore, &stats);
  ASSERT_EQ(polys.size(), 5u);
  EXPECT_EQ(stats.clipped, 2);
  EXPECT_EQ(stats.zero_area, 1);
  EXPECT_EQ(stats.self_intersecting, 1);
  EXPECT_EQ(ignore, (std::vector<bool>{false, true, true, false, true}));
  EXPECT_EQ(polys[0][0], cv::Point2f(0, 10));
  EXPECT_EQ(polys[4][2], cv::Point2f(99, 49));
}

TEST(DetDataset, BadLinesAndImagesAreSkippedReplacedAndCounted) {
  const std::string dir = test::fresh_dir("det_bad_labels");
  const std::string img = toy_dir() + "/imgs/img_2.jpg";  // 1280 x 720
  const std::string good = R"([{"transcription": "EXIT", "points": [[602, 173], [635, 175], [634, 197], [602, 196]]}])";
  test::write_text(dir + "/labels.txt",
                   img + "\t" + good + "\n" +                                                    // 0 good
                   img + "\t[{\"transcription\": \"a\", \"points\": [[1, 2], [3, 4]\n" +             // invalid JSON
                   img + " no tab here\n" +                                                      // no delimiter
                   img + "\t{\"points\": []}\n" +                                                // not a list
                   img + "\t[{\"transcription\": \"two\", \"points\": [[1, 2], [3, 4]]}, " +        // 1: < 3 points
                   "{\"transcription\": \"x\", \"points\": [[1200, 600], [1400, 600], [1400, 800], [1200, 800]]}]\n" +
                   img + "\t[]\n" +                                                              // 2: no text
                   dir + "/missing.jpg\t" + good + "\n" +                                        // 3: missing image
                   "\n");
  DetLabelListSpec list;
  list.label_file_list = {dir + "/labels.txt"};
  // Evaluation: no-text images are kept, a missing image is replaced by the next sample.
  DetDataset eval(list, eval_spec(), false);
  ASSERT_EQ(eval.size(), 4u);
  EXPECT_EQ(eval.label_stats().invalid_lines, 3);
  EXPECT_EQ(eval.label_stats().few_points, 1);
  DetDataStats stats;
  const DetSample s1 = eval.load(1, 1, &stats);
  ASSERT_EQ(s1.polygons.size(), 1u);  // the 2-point region was dropped
  EXPECT_EQ(stats.clipped, 1);
  const DetSample s2 = eval.load(2, 1, &stats);
  EXPECT_TRUE(s2.polygons.empty());
  EXPECT_EQ(stats.no_text, 1);
  const DetSample s3 = eval.load(3, 1, &stats);
  EXPECT_EQ(s3.index, 0u);  // next after the last: wraps to 0
  EXPECT_EQ(stats.missing_images, 1);
  EXPECT_EQ(stats.replaced(), 1);

  // Training: the no-text image is replaced too, and no map has a NaN.
  DetDataset train(list, train_spec(96), true);
  DetDataStats tstats;
  const DetSample t2 = train.load(2, 5, &tstats);
  EXPECT_NE(t2.index, 2u);
  EXPECT_GE(tstats.no_text_replaced, 1);
  EXPECT_TRUE(all_finite(t2.shrink_map) && all_finite(t2.threshold_map) && all_finite(t2.image));
}

TEST(DetDataset, AllImagesMissingIsAnError) {
  const std::string dir = test::fresh_dir("det_all_missing");
  test::write_text(dir + "/labels.txt", dir + "/nope.jpg\t[]\n");
  DetLabelListSpec list;
  list.label_file_list = {dir + "/labels.txt"};
  DetDataset ds(list, eval_spec(), false);
  try {
    ds.load(0, 1, nullptr);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nope.jpg"), std::string::npos) << e.what();
  }
}

TEST(DetDataset, RejectsASpecForTheOtherMode) {
  EXPECT_THROW(DetDataset(toy_list(), eval_spec(), true), Error);
}
