// make_cls_pairs: each upright crop written as 0 and turned as 180, losslessly;
// an unreadable image fails alone.
#include "ocrforge/dataprep/cls_pairs.h"

#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;
namespace fs = std::filesystem;

TEST(ClsPairs, EachCropIsWrittenUprightAndTurnedLosslesslyAndBadLinesCount) {
  const std::string dir = test::fresh_dir("cls_pairs");
  fs::create_directories(dir + "/crops");
  cv::Mat crop(24, 60, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::rectangle(crop, cv::Rect(2, 2, 20, 10), cv::Scalar(0, 0, 0), cv::FILLED);  // top left: orientation visible
  ASSERT_TRUE(cv::imwrite(dir + "/crops/w.png", crop));
  test::write_text(dir + "/crops/broken.jpg", "not a jpeg");
  test::write_text(dir + "/rec_gt.txt", "crops/w.png\tword\nno tab here\ncrops/broken.jpg\tx\n");
  std::ostringstream warnings;
  const ClsPairReport r = make_cls_pairs({dir + "/rec_gt.txt", "", dir + "/out"}, warnings);
  EXPECT_EQ(r.written, 1);
  EXPECT_EQ(r.failed, 1);
  EXPECT_EQ(r.bad_lines, 1);
  EXPECT_NE(warnings.str().find("broken.jpg"), std::string::npos) << warnings.str();
  EXPECT_EQ(test::read_text(r.cls_gt_path), "cls_img/1_w_0.png\t0\ncls_img/1_w_180.png\t180\n");
  const cv::Mat up = cv::imread(dir + "/out/cls_img/1_w_0.png");
  const cv::Mat turned = cv::imread(dir + "/out/cls_img/1_w_180.png");
  ASSERT_FALSE(up.empty());
  ASSERT_FALSE(turned.empty());
  EXPECT_EQ(cv::norm(up, crop, cv::NORM_INF), 0);  // lossless
  cv::Mat back;
  cv::rotate(turned, back, cv::ROTATE_180);
  EXPECT_EQ(cv::norm(back, crop, cv::NORM_INF), 0);
  EXPECT_GT(cv::norm(turned, crop, cv::NORM_INF), 0);  // really turned
}

TEST(ClsPairs, NothingReadableAndMissingFlagsAreErrors) {
  const std::string dir = test::fresh_dir("cls_pairs_errors");
  test::write_text(dir + "/rec_gt.txt", "no tab here\n");
  std::ostringstream warnings;
  const std::string m = test::message_of<Error>([&] { make_cls_pairs({dir + "/rec_gt.txt", "", dir + "/out"}, warnings); });
  EXPECT_NE(m.find("no image written"), std::string::npos) << m;
  EXPECT_THROW(make_cls_pairs({dir + "/rec_gt.txt", "", ""}, warnings), UsageError);
}
