// for_each_image (apps/ocrforge/image_loop.h): every exception type one image
// can throw is reported with the file named, and the loop goes on.
#include "image_loop.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <new>

#include <opencv2/imgcodecs.hpp>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

static std::vector<std::string> four_images(const std::string& dir) {
  std::vector<std::string> out;
  for (const char* n : {"a.png", "b.png", "c.png", "d.png"}) {
    EXPECT_TRUE(cv::imwrite(dir + "/" + n, cv::Mat(8, 8, CV_8UC3, cv::Scalar(9, 9, 9))));
    out.push_back(dir + "/" + n);
  }
  return out;
}

TEST(ImageLoop, EveryExceptionTypeIsIsolatedAndNamed) {
  const std::string dir = test::fresh_dir("image_loop");
  const auto images = four_images(dir);
  std::vector<std::string> seen;
  testing::internal::CaptureStderr();
  const size_t failed = for_each_image("ocr", images, ImageReadParams{}, [&](const std::string& path, LoadedImage&) {
    seen.push_back(path);
    if (path == images[0]) {
      std::vector<uchar> buf;
      cv::imencode(".nope", cv::Mat(2, 2, CV_8UC3), buf);  // throws cv::Exception: no encoder
    }
    if (path == images[1])
      throw fs::filesystem_error("cannot copy", path, std::make_error_code(std::errc::no_space_on_device));
    if (path == images[2]) throw std::bad_alloc();
  });
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_EQ(seen.size(), 4u) << "every image must be tried";
  EXPECT_EQ(failed, 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NE(err.find("image '" + images[i] + "'"), std::string::npos) << err;
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
  EXPECT_NE(err.find("out of memory"), std::string::npos) << err;
  EXPECT_EQ(err.find("d.png"), std::string::npos) << "the good image reports no error: " << err;
}

TEST(ImageLoop, RunAbortedEndsTheLoop) {
  const std::string dir = test::fresh_dir("image_loop_abort");
  const auto images = four_images(dir);
  size_t calls = 0;
  EXPECT_THROW(for_each_image("ocr", images, ImageReadParams{}, [&](const std::string&, LoadedImage&) {
                 ++calls;
                 throw RunAborted("system_results.txt: disk full");
               }),
               RunAborted);
  EXPECT_EQ(calls, 1u);
}

TEST(ImageLoop, UnreadableImagesNeverReachTheCallback) {
  const std::string dir = test::fresh_dir("image_loop_bad");
  auto images = four_images(dir);
  test::write_text(images[1], "");
  size_t calls = 0;
  testing::internal::CaptureStderr();
  const size_t failed = for_each_image("infer", images, ImageReadParams{}, [&](const std::string&, LoadedImage&) { ++calls; });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(calls, 3u);
  EXPECT_NE(err.find("ocrforge infer: error: image '" + images[1] + "' is empty"), std::string::npos) << err;
}

TEST(ImageLoop, DecoderWarningsAreOneLineNamingTheFile) {
  // libjpeg printed "Premature end of JPEG file" on its own, naming nothing.
  const std::string dir = test::fresh_dir("image_loop_warn");
  const std::string whole = test::read_text(test::data_dir() + "/rec_toy/imgs/1036169.jpg");
  test::write_text(dir + "/half.jpg", whole.substr(0, whole.size() * 3 / 4));
  test::write_text(dir + "/stub.jpg", whole.substr(0, 120));
  size_t calls = 0;
  testing::internal::CaptureStderr();
  const size_t failed =
      for_each_image("ocr", {dir + "/half.jpg", dir + "/stub.jpg"}, ImageReadParams{},
                     [&](const std::string&, LoadedImage&) { ++calls; });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(failed, 1u);
  size_t lines = 0;
  for (size_t at = 0; (at = err.find('\n', at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, 2u) << "one line per image, nothing raw:\n" << err;
  EXPECT_NE(err.find("warning: image '" + dir + "/half.jpg': "), std::string::npos) << err;
  EXPECT_NE(err.find("error: image '" + dir + "/stub.jpg' cannot be decoded"), std::string::npos) << err;
}
