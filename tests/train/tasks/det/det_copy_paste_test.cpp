// CopyPaste (PaddleOCR's PP-OCRv3 det augmentation): how many regions are
// pasted, that the pasted pixels and the new region agree, that pastes
// avoid existing text with limit_paste, that ignored regions are never
// pasted; and the transform from a config.
#include "ocrforge/train/tasks/det/det_copy_paste.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"
#include "ocrforge/train/tasks/det/det_polygon.h"
#include "ocrforge/train/tasks/det/det_transform_config.h"

using namespace ocrforge;

namespace {
DetPolygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

// An "other image": dark text-like blocks on white, one per region.
struct Ext {
  cv::Mat img{200, 300, CV_8UC3, cv::Scalar(255, 255, 255)};
  std::vector<DetPolygon> polys;
  std::vector<bool> ignore;
};

Ext ext_with(int n, bool ignored = false) {
  Ext e;
  for (int i = 0; i < n; ++i) {
    const float y = 10.f + 30.f * static_cast<float>(i);
    e.polys.push_back(rect(20, y, 120, y + 20));
    e.ignore.push_back(ignored);
    cv::rectangle(e.img, cv::Point(20, static_cast<int>(y)), cv::Point(119, static_cast<int>(y) + 19),
                  cv::Scalar(10, 20, 30), cv::FILLED);
  }
  return e;
}

cv::Rect2f box_of(const DetPolygon& p) {
  float x0 = p[0].x, x1 = p[0].x, y0 = p[0].y, y1 = p[0].y;
  for (const auto& c : p) {
    x0 = std::min(x0, c.x);
    x1 = std::max(x1, c.x);
    y0 = std::min(y0, c.y);
    y1 = std::max(y1, c.y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

bool boxes_meet(const DetPolygon& a, const DetPolygon& b) { return (box_of(a) & box_of(b)).area() > 0; }
}  // namespace

TEST(DetCopyPaste, PastesRatioOfTheOtherImagesRegionsAsNewTextRegions) {
  const Ext e = ext_with(5);
  cv::Mat img(400, 400, CV_8UC3, cv::Scalar(200, 200, 200));
  std::vector<DetPolygon> polys = {rect(300, 300, 380, 330)};
  std::vector<bool> ignore = {false};
  DataRng rng(7);
  DetCopyPasteParams p;
  p.objects_paste_ratio = 0.6;  // int(0.6 x 5) = 3 regions
  copy_paste(p, rng, e.img, e.polys, e.ignore, &img, &polys, &ignore);
  ASSERT_EQ(polys.size(), 4u);  // 400 x 400 has room for all three 100 x 20 crops
  int whole = 0;
  for (size_t i = 1; i < polys.size(); ++i) {
    EXPECT_FALSE(ignore[i]);
    ASSERT_EQ(polys[i].size(), 4u);
    bool clipped = false;
    for (const auto& c : polys[i]) {
      EXPECT_TRUE(c.x >= 0.f && c.x <= 400.f && c.y >= 0.f && c.y <= 400.f) << c;
      clipped = clipped || c.x == 0.f || c.x == 400.f || c.y == 0.f || c.y == 400.f;
    }
    // limit_paste: no region's box meets another's.
    for (size_t j = 0; j < i; ++j) EXPECT_FALSE(boxes_meet(polys[i], polys[j])) << i << " meets " << j;
    // As PaddleOCR, the paste position only keeps the unturned crop inside
    // the image; a turned one may reach past the edge and is clipped there.
    if (clipped) continue;
    ++whole;
    // A turned 100 x 20 rectangle (the crop's size) ...
    EXPECT_NEAR(cv::norm(polys[i][0] - polys[i][1]), 100.0, 1e-3);
    EXPECT_NEAR(cv::norm(polys[i][1] - polys[i][2]), 20.0, 1e-3);
    // ... whose pixels are the text block.
    cv::Point2f centre(0, 0);
    for (const auto& c : polys[i]) centre += c * 0.25f;
    const cv::Vec3b px = img.at<cv::Vec3b>(cvRound(centre.y), cvRound(centre.x));
    EXPECT_EQ(px, cv::Vec3b(10, 20, 30)) << "region " << i;
  }
  EXPECT_GE(whole, 1);
  // At least one region of the other image is taken even when the ratio rounds to 0.
  std::vector<DetPolygon> few = {rect(300, 300, 380, 330)};
  std::vector<bool> few_ignore = {false};
  cv::Mat img2(400, 400, CV_8UC3, cv::Scalar(200, 200, 200));
  p.objects_paste_ratio = 0.1;
  copy_paste(p, rng, e.img, e.polys, e.ignore, &img2, &few, &few_ignore);
  EXPECT_EQ(few.size(), 2u);
}

TEST(DetCopyPaste, IgnoredRegionsAndCropsLargerThanTheImageAreNotPasted) {
  const Ext ignored = ext_with(3, /*ignored=*/true);
  cv::Mat img(400, 400, CV_8UC3, cv::Scalar(200, 200, 200));
  const cv::Mat before = img.clone();
  std::vector<DetPolygon> polys;
  std::vector<bool> ignore;
  DataRng rng(3);
  copy_paste({}, rng, ignored.img, ignored.polys, ignored.ignore, &img, &polys, &ignore);
  EXPECT_TRUE(polys.empty());
  EXPECT_EQ(cv::norm(img, before, cv::NORM_INF), 0.0);
  cv::Mat small(15, 60, CV_8UC3, cv::Scalar(200, 200, 200));  // the 100 x 20 crops do not fit
  copy_paste({}, rng, ext_with(2).img, ext_with(2).polys, ext_with(2).ignore, &small, &polys, &ignore);
  EXPECT_TRUE(polys.empty());
}

TEST(DetCopyPaste, ReadFromTheTransformList) {
  const auto spec = det_transform_spec_from_yaml(
      YAML::Load("[{DecodeImage: {img_mode: BGR}}, {DetLabelEncode: }, {CopyPaste: {objects_paste_ratio: 0.5, "
                 "limit_paste: false}}, {MakeBorderMap: }, {MakeShrinkMap: }, {NormalizeImage: }, {ToCHWImage: }]"),
      "Train.dataset.transforms", true);
  EXPECT_TRUE(spec.use_copy_paste);
  EXPECT_DOUBLE_EQ(spec.copy_paste.objects_paste_ratio, 0.5);
  EXPECT_FALSE(spec.copy_paste.limit_paste);
  const YAML::Node typo = YAML::Load(
      "[{DecodeImage: }, {DetLabelEncode: }, {CopyPaste: {ratio: 0.5}}, {MakeBorderMap: }, {MakeShrinkMap: }, "
      "{NormalizeImage: }, {ToCHWImage: }]");
  EXPECT_NE(test::read_error(typo, "Train.dataset.transforms",
                             [&] { det_transform_spec_from_yaml(typo, "Train.dataset.transforms", true); })
                .find("unknown config key 'Train.dataset.transforms[2].CopyPaste.ratio'"),
            std::string::npos);
  EXPECT_THROW(det_transform_spec_from_yaml(
                   YAML::Load("[{DecodeImage: }, {DetLabelEncode: }, {CopyPaste: }, {DetResizeForTest: }, "
                              "{NormalizeImage: }, {ToCHWImage: }]"),
                   "Eval.dataset.transforms", false),
               UsageError);
}
