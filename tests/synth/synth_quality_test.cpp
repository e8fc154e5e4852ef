// Generated data is legible and its labels are right: the default PP-OCRv4
// models read / find it. Small sample counts; tools/synth_quality measures
// the full figures of docs/synth.md (500 crops, 50 images).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/label_file.h"
#include "ocrforge/infer/text_detector.h"
#include "ocrforge/infer/text_recognizer.h"
#include "ocrforge/synth/synth.h"
#include "ocrforge/vision/det_metric.h"
#include "ocrforge/vision/rec_metric.h"
#include "synth_test_support.h"

using namespace ocrforge;

TEST(SynthQuality, RecognizerReadsGeneratedCrops) {
  const std::string dir = test::fresh_dir("synth_quality_rec");
  SynthRecParams p = test::small_rec(dir, 60);
  p.common.seed = 2024;
  synth_rec(p);
  RecParams rp;
  rp.model_dir = test::model_root() + "/rec";
  rp.char_dict_path = test::ppocr_dict();
  TextRecognizer rec(rp, RuntimeParams{});
  const auto labels = read_rec_labels(dir + "/rec_gt.txt");
  std::vector<cv::Mat> crops;
  for (const auto& l : labels) crops.push_back(cv::imread(dir + "/" + l.path));
  const auto got = rec.recognize(crops);
  RecMetric m;
  for (size_t i = 0; i < labels.size(); ++i) m.add(got[i].text, labels[i].text);
  EXPECT_GE(m.acc(), 0.85) << "norm_edit_dis " << m.norm_edit_dis();
}

TEST(SynthQuality, DetectorFindsGeneratedLines) {
  const std::string dir = test::fresh_dir("synth_quality_det");
  SynthDetParams p;
  p.common.out_dir = dir;
  p.common.num = 8;
  p.common.seed = 2024;
  synth_det(p);
  DetParams dp;
  dp.model_dir = test::model_root() + "/det";
  TextDetector det(dp, RuntimeParams{});
  DetMetric m;
  for (const auto& l : read_det_labels(dir + "/det_gt.txt")) {
    std::vector<DetGtPolygon> gt;
    for (const auto& r : l.regions) {
      DetGtPolygon g;
      for (const auto& pt : r.points) g.points.emplace_back(pt[0], pt[1]);
      g.ignore = r.ignore();
      gt.push_back(g);
    }
    std::vector<std::vector<cv::Point2f>> found;
    for (const auto& b : det.detect(cv::imread(dir + "/" + l.path))) found.push_back(b.polygon);
    m.add(gt, found);
  }
  EXPECT_GE(m.hmean(), 0.7) << "precision " << m.precision() << " recall " << m.recall();
}
