// DecodeImage, CTCLabelEncode and RecResizeImg.
#include <gtest/gtest.h>

#include <cstring>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"
#include "ocrforge/vision/rec_resize.h"
#include "rec_data_fixtures.h"

namespace ocrforge {
namespace {

Charset abc(bool space = false) { return Charset::from_chars({"a", "b", "c"}, space); }

TEST(CtcLabelEncode, EncodesAndPadsWithBlank) {
  const CtcLabel l = ctc_label_encode("cab", abc(), 6);
  ASSERT_EQ(l.status, LabelStatus::kOk);
  EXPECT_EQ(l.label, (std::vector<int64_t>{3, 1, 2, 0, 0, 0}));
  EXPECT_EQ(l.length, 3);
  EXPECT_EQ(l.text, "cab");
  EXPECT_EQ(l.dropped_chars, 0);
}

TEST(CtcLabelEncode, DropsUnknownCharactersAndCountsThem) {
  const CtcLabel l = ctc_label_encode("aXbY", abc(), 6);
  ASSERT_EQ(l.status, LabelStatus::kOk);
  EXPECT_EQ(l.label, (std::vector<int64_t>{1, 2, 0, 0, 0, 0}));
  EXPECT_EQ(l.length, 2);
  EXPECT_EQ(l.text, "ab");
  EXPECT_EQ(l.dropped_chars, 2);
}

TEST(CtcLabelEncode, RejectsTooLongCountingCharactersBeforeDropping) {
  EXPECT_EQ(ctc_label_encode("abcab", abc(), 4).status, LabelStatus::kTooLong);
  EXPECT_EQ(ctc_label_encode("aXXXb", abc(), 4).status, LabelStatus::kTooLong);  // as PaddleOCR
  EXPECT_EQ(ctc_label_encode("abca", abc(), 4).status, LabelStatus::kOk);
  // Code points, not bytes: 4 Chinese characters are 12 bytes.
  const Charset zh = Charset::from_chars({"中", "文", "字", "符"}, false);
  const CtcLabel l = ctc_label_encode("中文字符", zh, 4);
  ASSERT_EQ(l.status, LabelStatus::kOk);
  EXPECT_EQ(l.label, (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(CtcLabelEncode, RejectsEmptyBeforeAndAfterDropping) {
  EXPECT_EQ(ctc_label_encode("", abc(), 4).status, LabelStatus::kEmpty);
  const CtcLabel l = ctc_label_encode("XYZ", abc(), 4);
  EXPECT_EQ(l.status, LabelStatus::kEmpty);
  EXPECT_EQ(l.dropped_chars, 3);
  EXPECT_TRUE(l.label.empty());
}

TEST(CtcLabelEncode, SpaceIsAClassOnlyWithUseSpaceChar) {
  const CtcLabel with = ctc_label_encode("a b", abc(true), 4);
  EXPECT_EQ(with.label, (std::vector<int64_t>{1, 4, 2, 0}));  // space = last class (n + 1)
  EXPECT_EQ(with.text, "a b");
  const CtcLabel without = ctc_label_encode("a b", abc(false), 4);
  EXPECT_EQ(without.label, (std::vector<int64_t>{1, 2, 0, 0}));
  EXPECT_EQ(without.dropped_chars, 1);
}

TEST(DecodeImage, DecodesBgrAndTellsMissingFromUndecodable) {
  cv::Mat img;
  ASSERT_EQ(decode_image(test::rec_toy_dir() + "/imgs/1036169.jpg", &img), DecodeStatus::kOk);
  EXPECT_EQ(img.type(), CV_8UC3);
  EXPECT_EQ(img.cols, 119);
  EXPECT_EQ(img.rows, 25);
  const cv::Mat ref = cv::imread(test::rec_toy_dir() + "/imgs/1036169.jpg", cv::IMREAD_COLOR);
  EXPECT_EQ(cv::norm(img, ref, cv::NORM_INF), 0.0);

  EXPECT_EQ(decode_image("/nonexistent/x.jpg", &img), DecodeStatus::kMissing);
  const std::string dir = test::fresh_dir("decode");
  test::write_text(dir + "/text.jpg", "this is not a JPEG");
  EXPECT_EQ(decode_image(dir + "/text.jpg", &img), DecodeStatus::kUndecodable);
  test::write_text(dir + "/empty.jpg", "");
  EXPECT_EQ(decode_image(dir + "/empty.jpg", &img), DecodeStatus::kUndecodable);

  // Grey files come out as 3 channels (cv2.imdecode(..., 1)).
  cv::Mat grey(20, 30, CV_8UC1, cv::Scalar(77));
  ASSERT_TRUE(cv::imwrite(dir + "/grey.png", grey));
  ASSERT_EQ(decode_image(dir + "/grey.png", &img), DecodeStatus::kOk);
  EXPECT_EQ(img.type(), CV_8UC3);
}

TEST(RecResizeImg, EqualsTheInferenceRuleOnEveryToyCrop) {
  const std::array<int, 3> shape{3, 48, 320};
  const size_t n = 3 * 48 * 320;
  const auto labels = read_rec_labels(test::rec_toy_labels());
  ASSERT_GE(labels.size(), 10u) << "the toy set must not be empty, or this test checks nothing";
  for (const auto& l : labels) {
    cv::Mat img;
    ASSERT_EQ(decode_image(test::rec_toy_dir() + "/" + l.path, &img), DecodeStatus::kOk);
    std::vector<float> train(n, 7.0f), infer(n, 9.0f);
    const float r_train = rec_resize_img(img, shape, train.data());
    const float r_infer = rec_resize_normalize(img, 48, 320, infer.data());
    EXPECT_EQ(r_train, r_infer) << l.path;
    EXPECT_EQ(std::memcmp(train.data(), infer.data(), n * sizeof(float)), 0) << l.path;
    EXPECT_GT(r_train, 0.0f);
    EXPECT_LE(r_train, 1.0f);
  }
}

TEST(RecResizeImg, RejectsOtherChannelCounts) {
  cv::Mat img(20, 40, CV_8UC3, cv::Scalar(0));
  std::vector<float> out(1 * 32 * 100);
  EXPECT_THROW(rec_resize_img(img, {1, 32, 100}, out.data()), Error);
}

// PaddleOCR's dictionary for an empty character_dict_path lower-cases each
// label before encoding; a dictionary from a file never does.
TEST(CtcLabelEncode, TheBuiltInDictionaryLowerCasesLabels) {
  const Charset builtin = Charset::builtin_lowercase();
  const CtcLabel l = ctc_label_encode("Exit-9B", builtin, 25);
  ASSERT_EQ(l.status, LabelStatus::kOk);
  EXPECT_EQ(l.text, "exit9b");
  EXPECT_EQ(l.dropped_chars, 1);  // '-'
  EXPECT_EQ(l.label[0], builtin.index_of("e"));
  EXPECT_EQ(ctc_label_encode("aXbY", abc(), 6).text, "ab");  // a file's dictionary keeps case
}

}  // namespace
}  // namespace ocrforge
