#include "ocrforge/infer/image_reader.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

static std::string error_of(const std::string& path) {
  try {
    read_image(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ImageReader, ReadsRealJpegAsBgr) {
  LoadedImage img = read_image(test::data_dir() + "/samples/imgs_ger_1.jpg");
  ASSERT_FALSE(img.bgr.empty());
  EXPECT_EQ(img.bgr.channels(), 3);
  EXPECT_EQ(img.bgr.size(), img.original);
  EXPECT_FLOAT_EQ(img.scale, 1.f);
}

TEST(ImageReader, MissingFileErrorNamesIt) {
  EXPECT_NE(error_of("/nonexistent/pic.jpg").find("/nonexistent/pic.jpg"), std::string::npos);
}

TEST(ImageReader, ZeroByteFileIsReportedAsEmpty) {
  const std::string dir = test::fresh_dir("zero");
  test::write_text(dir + "/empty.jpg", "");
  const std::string msg = error_of(dir + "/empty.jpg");
  EXPECT_NE(msg.find("empty.jpg"), std::string::npos);
  EXPECT_NE(msg.find("0 bytes"), std::string::npos);
}

TEST(ImageReader, CorruptAndNonImageFilesAreErrors) {
  const std::string dir = test::fresh_dir("corrupt");
  test::write_text(dir + "/notes.png", "this is text, not a picture\n");
  std::string jpeg = test::read_text(test::data_dir() + "/samples/imgs_ger_1.jpg");
  test::write_text(dir + "/truncated.jpg", jpeg.substr(0, 40));
  EXPECT_NE(error_of(dir + "/notes.png").find("cannot be decoded"), std::string::npos);
  EXPECT_NE(error_of(dir + "/truncated.jpg").find("truncated.jpg"), std::string::npos);
}

TEST(ImageReader, ProbesSizeFromHeaders) {
  const std::string dir = test::fresh_dir("probe");
  cv::Mat m(37, 53, CV_8UC3, cv::Scalar(10, 20, 30));
  for (const char* ext : {".jpg", ".png", ".bmp"}) {
    const std::string p = dir + "/m" + ext;
    ASSERT_TRUE(cv::imwrite(p, m));
    EXPECT_EQ(probe_image_size(p), cv::Size(53, 37)) << ext;
  }
}

TEST(ImageReader, HugeJpegIsDecodedReducedWithScale) {
  // 20000 x 20000 would be 1.2 GB decoded; the reader must not do that.
  const std::string dir = test::fresh_dir("huge");
  const std::string p = dir + "/huge.jpg";
  {
    cv::Mat big(20000, 20000, CV_8UC3, cv::Scalar(255, 255, 255));
    ASSERT_TRUE(cv::imwrite(p, big, {cv::IMWRITE_JPEG_QUALITY, 50}));
  }
  LoadedImage img = read_image(p, 4000);
  EXPECT_EQ(img.original, cv::Size(20000, 20000));
  EXPECT_EQ(img.bgr.cols, 5000);  // 1/4: the largest reduction keeping >= 4000
  EXPECT_FLOAT_EQ(img.scale, 4.f);
}

TEST(ImageReader, GreyPngBecomesThreeChannels) {
  const std::string dir = test::fresh_dir("grey");
  cv::Mat g(10, 12, CV_8UC1, cv::Scalar(7));
  ASSERT_TRUE(cv::imwrite(dir + "/g.png", g));
  LoadedImage img = read_image(dir + "/g.png");
  EXPECT_EQ(img.bgr.channels(), 3);
  EXPECT_EQ(img.bgr.at<cv::Vec3b>(0, 0)[0], 7);
}
