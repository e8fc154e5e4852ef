// Tests for output files and label formats (ocrforge/synth/label_writer.h).
#include "ocrforge/synth/label_writer.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "synth_test_support.h"

using namespace ocrforge;

TEST(SynthLabelWriter, RecLineFormat) {
  EXPECT_EQ(sample_relative_path(42, "jpg"), "images/00000042.jpg");
  EXPECT_EQ(rec_label_line("images/00000042.jpg", "Hello world"), "images/00000042.jpg\tHello world");
}

TEST(SynthLabelWriter, DetLineIsPaddleOcrJsonAndParsesBack) {
  DetLine a;
  a.text = "say \"hi\" \xE4\xB8\xAD";
  a.quad = {{1.4f, 2.6f}, {50.f, 2.f}, {50.f, 20.f}, {-3.f, 120.f}};
  DetLine b;
  b.text = "tiny";
  b.ignore = true;
  b.quad = {{0, 0}, {5, 0}, {5, 4}, {0, 4}};
  const std::string line = det_label_line("images/00000001.jpg", {a, b}, cv::Size(100, 100));
  EXPECT_EQ(line,
            "images/00000001.jpg\t[{\"transcription\": \"say \\\"hi\\\" \xE4\xB8\xAD\", \"points\": [[1, 3], [50, 2], "
            "[50, 20], [0, 99]]}, {\"transcription\": \"###\", \"points\": [[0, 0], [5, 0], [5, 4], [0, 4]]}]");
  const DetLabel parsed = parse_det_label_line(line, "x", 1);
  ASSERT_EQ(parsed.regions.size(), 2u);
  EXPECT_EQ(parsed.regions[0].transcription, a.text);
  EXPECT_TRUE(parsed.regions[1].ignore());
}

TEST(SynthLabelWriter, LabelFileIsWrittenWhole) {
  const std::string dir = test::fresh_dir("synth_labels");
  write_label_file(dir + "/rec_gt.txt", {"a\tx", "b\ty"});
  EXPECT_EQ(test::read_text(dir + "/rec_gt.txt"), "a\tx\nb\ty\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/rec_gt.txt.tmp"));
}

TEST(SynthLabelWriter, ImagesInBothFormats) {
  const std::string dir = test::fresh_dir("synth_images");
  cv::Mat img(10, 20, CV_8UC3, cv::Scalar(1, 2, 3));
  write_sample_image(dir + "/a.png", img, 90);
  write_sample_image(dir + "/a.jpg", img, 90);
  EXPECT_EQ(cv::norm(cv::imread(dir + "/a.png"), img, cv::NORM_INF), 0.0);
  EXPECT_FALSE(cv::imread(dir + "/a.jpg").empty());
  EXPECT_THROW(write_sample_image(dir + "/missing_folder/a.jpg", img, 90), Error);
}

TEST(SynthLabelWriter, UnwritableOutputFolderIsAClearError) {
  const std::string dir = test::fresh_dir("synth_out");
  prepare_output_dir(dir + "/ok");
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/ok/images"));
  // A file where the folder should be: fails even for root, unlike chmod.
  test::write_text(dir + "/file", "x");
  try {
    prepare_output_dir(dir + "/file/sub");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("file/sub"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--out"), std::string::npos) << e.what();
  }
  EXPECT_THROW(prepare_output_dir(""), Error);
}
