// crop_label_regions: one straightened crop per usable region, each skip
// counted by its reason, failures alone, rec_gt.txt in PPOCRLabel's layout.
#include "ocrforge/dataprep/region_crops.h"

#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;
namespace fs = std::filesystem;

namespace {

// 200 x 100 white page with a black 80 x 30 block at (10, 20) and a grey 40 x 20 one at (120, 60).
void write_page(const std::string& path) {
  cv::Mat img(100, 200, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::rectangle(img, cv::Rect(10, 20, 80, 30), cv::Scalar(0, 0, 0), cv::FILLED);
  cv::rectangle(img, cv::Rect(120, 60, 40, 20), cv::Scalar(128, 128, 128), cv::FILLED);
  ASSERT_TRUE(cv::imwrite(path, img));
}

const char* kRegions =
    "[{\"transcription\": \"BLOCK\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}, "
    "{\"transcription\": \"###\", \"points\": [[100, 20], [150, 20], [150, 50], [100, 50]]}, "
    "{\"transcription\": \"\", \"points\": [[100, 60], [150, 60], [150, 80], [100, 80]]}, "
    "{\"transcription\": \"flat\", \"points\": [[10, 90], [90, 90], [90, 90.5], [10, 90.5]]}, "
    "{\"transcription\": \"two points\", \"points\": [[10, 90], [90, 90]]}, "
    "{\"transcription\": \"grey\", \"points\": [[120, 60], [160, 60], [160, 80], [120, 80]]}]";

}  // namespace

TEST(RegionCrops, EachUsableRegionIsOneCropOfItsSizeAndEverySkipIsCounted) {
  const std::string dir = test::fresh_dir("region_crops");
  fs::create_directories(dir + "/imgs");
  write_page(dir + "/imgs/a.jpg");
  write_page(dir + "/imgs/a.png");  // same stem: its crops must not overwrite a.jpg's
  test::write_text(dir + "/det_gt.txt", std::string("imgs/a.jpg\t") + kRegions + "\nnot a label line\nimgs/a.png\t" +
                                            kRegions + "\n");
  std::ostringstream warnings;
  const RegionCropReport r = crop_label_regions({dir + "/det_gt.txt", "", dir + "/out"}, warnings);
  EXPECT_EQ(r.images, 2);
  EXPECT_EQ(r.crops, 4);
  EXPECT_EQ(r.ignored, 2);
  EXPECT_EQ(r.empty_text, 2);
  EXPECT_EQ(r.degenerate, 2);
  EXPECT_EQ(r.few_points, 2);
  EXPECT_EQ(r.bad_lines, 1);
  EXPECT_FALSE(r.any_failed());
  EXPECT_NE(warnings.str().find("line 2 skipped"), std::string::npos) << warnings.str();
  // Crops are numbered among the regions with >= 3 points: "grey" is the fifth.
  EXPECT_EQ(test::read_text(r.rec_gt_path),
            "crop_img/a_crop_0.jpg\tBLOCK\ncrop_img/a_crop_4.jpg\tgrey\n"
            "crop_img/a_1_crop_0.jpg\tBLOCK\ncrop_img/a_1_crop_4.jpg\tgrey\n");
  const cv::Mat block = cv::imread(dir + "/out/crop_img/a_crop_0.jpg");
  ASSERT_FALSE(block.empty());
  EXPECT_NEAR(block.cols, 80, 2);
  EXPECT_NEAR(block.rows, 30, 2);
  EXPECT_LT(cv::mean(block)[0], 40);  // the black block, not the page around it
  const cv::Mat grey = cv::imread(dir + "/out/crop_img/a_1_crop_4.jpg");
  ASSERT_FALSE(grey.empty());
  EXPECT_NEAR(cv::mean(grey)[0], 128, 20);
}

TEST(RegionCrops, AnUnreadableImageFailsAloneAndTheOthersAreWritten) {
  const std::string dir = test::fresh_dir("region_crops_broken");
  write_page(dir + "/good.jpg");
  test::write_text(dir + "/broken.jpg", "not a jpeg");
  test::write_text(dir + "/det_gt.txt", std::string("broken.jpg\t") + kRegions + "\ngood.jpg\t" + kRegions + "\n");
  std::ostringstream warnings;
  const RegionCropReport r = crop_label_regions({dir + "/det_gt.txt", "", dir + "/out"}, warnings);
  EXPECT_EQ(r.failed_images, 1);
  EXPECT_TRUE(r.any_failed());
  EXPECT_EQ(r.crops, 2);
  EXPECT_NE(warnings.str().find("broken.jpg"), std::string::npos) << warnings.str();
  EXPECT_EQ(test::read_text(r.rec_gt_path), "crop_img/good_crop_0.jpg\tBLOCK\ncrop_img/good_crop_4.jpg\tgrey\n");
}

TEST(RegionCrops, RefusesOverwritingItsInputsAndALabelFileWithNothingToCrop) {
  const std::string dir = test::fresh_dir("region_crops_refuse");
  fs::create_directories(dir + "/crop_img");
  write_page(dir + "/a.jpg");
  write_page(dir + "/crop_img/a_crop_0.jpg");  // a crop of an earlier run, listed as a page too
  test::write_text(dir + "/det_gt.txt",
                   std::string("a.jpg\t") + kRegions + "\ncrop_img/a_crop_0.jpg\t" + kRegions + "\n");
  std::ostringstream warnings;
  // --out the data folder: a.jpg's first crop would replace the listed page; that region fails alone.
  const RegionCropReport r = crop_label_regions({dir + "/det_gt.txt", "", dir}, warnings);
  EXPECT_EQ(r.failed_regions, 1);
  EXPECT_EQ(r.crops, 3);
  EXPECT_NE(warnings.str().find("would replace the input image"), std::string::npos) << warnings.str();
  EXPECT_EQ(cv::imread(dir + "/crop_img/a_crop_0.jpg").cols, 200);  // the page is untouched

  // The label file as the output's rec_gt.txt.
  const std::string self = test::message_of<Error>([&] { crop_label_regions({dir + "/rec_gt.txt", "", dir}, warnings); });
  EXPECT_NE(self.find("--out"), std::string::npos) << self;

  test::write_text(dir + "/empty.txt", "a.jpg\t[{\"transcription\": \"###\", \"points\": [[1, 1], [9, 1], [9, 9], [1, 9]]}]\n");
  const std::string none = test::message_of<Error>([&] { crop_label_regions({dir + "/empty.txt", "", dir + "/out2"}, warnings); });
  EXPECT_NE(none.find("no crop written"), std::string::npos) << none;
  EXPECT_THROW(crop_label_regions({"", "", dir + "/out3"}, warnings), UsageError);
}
