// SARLabelEncode (MultiLabelEncode's label_sar): the class layout, BOS / EOS /
// PAD placement, the length rule, the decode rule, and what the data set does
// with a text too long for the SAR label.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/train/tasks/rec/rec_dataset.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"
#include "ocrforge/train/tasks/rec/sar_label_encode.h"
#include "test_support.h"

namespace ocrforge {
namespace {

Charset abc(bool space = false) { return Charset::from_chars({"a", "b", "c"}, space); }

// The CTC indices of `text` (CTCLabelEncode without its padding).
std::vector<int64_t> ctc_of(const std::string& text, const Charset& cs, int max_len) {
  const CtcLabel l = ctc_label_encode(text, cs, max_len);
  EXPECT_EQ(l.status, LabelStatus::kOk) << text;
  return {l.label.begin(), l.label.begin() + l.length};
}

TEST(SarLabelEncode, ClassLayoutIsDictionaryThenUnknownBosEosPad) {
  // PaddleOCR: dict + ["<UKN>"] + ["<BOS/EOS>"] + ["<PAD>"], no blank.
  const SarClasses c = sar_classes(abc());
  EXPECT_EQ(c.chars, 3);
  EXPECT_EQ(c.unknown(), 3);
  EXPECT_EQ(c.start(), 4);
  EXPECT_EQ(c.end(), 4);
  EXPECT_EQ(c.padding(), 5);
  EXPECT_EQ(c.out_channels(), 6);  // = CTC classes (4) + 2, PaddleOCR's out_channels_list["SARLabelDecode"]
  EXPECT_EQ(c.predicted(), 5);
  // use_space_char adds the space as the last character, before the extras.
  const SarClasses s = sar_classes(abc(true));
  EXPECT_EQ(s.chars, 4);
  EXPECT_EQ(s.padding(), 6);
}

TEST(SarLabelEncode, StartTextEndThenPadding) {
  const Charset cs = abc();
  const SarClasses c = sar_classes(cs);
  // "cab": c=2, a=0, b=1 (dictionary order, no blank) between BOS/EOS (4), padded with 5.
  EXPECT_EQ(sar_label_from_ctc(ctc_of("cab", cs, 8), c, 8), (std::vector<int64_t>{4, 2, 0, 1, 4, 5, 5, 5}));
  // Unknown characters were dropped by the CTC step already: "aXb" is "ab".
  EXPECT_EQ(sar_label_from_ctc(ctc_of("aXb", cs, 8), c, 8), (std::vector<int64_t>{4, 0, 1, 4, 5, 5, 5, 5}));
  // The space is the last character class.
  const Charset sp = abc(true);
  EXPECT_EQ(sar_label_from_ctc(ctc_of("a b", sp, 6), sar_classes(sp), 6), (std::vector<int64_t>{5, 0, 3, 1, 5, 6}));
  // A character listed twice encodes to its last line, as the CTC label does.
  const Charset dup = Charset::from_chars({"a", "b", "a"}, false);
  EXPECT_EQ(sar_label_from_ctc(ctc_of("ab", dup, 6), sar_classes(dup), 6), (std::vector<int64_t>{4, 2, 1, 4, 5, 5}));
}

TEST(SarLabelEncode, TextOfMaxLengthMinusOneIsRejected) {
  const Charset cs = abc();
  const SarClasses c = sar_classes(cs);
  // max_text_length 6: BOS + 4 characters + EOS fill it exactly; 5 do not fit.
  EXPECT_EQ(sar_label_from_ctc(ctc_of("abca", cs, 6), c, 6), (std::vector<int64_t>{4, 0, 1, 2, 0, 4}));
  EXPECT_TRUE(sar_label_from_ctc(ctc_of("abcab", cs, 6), c, 6).empty());
  EXPECT_TRUE(sar_label_from_ctc(ctc_of("abcabc", cs, 6), c, 6).empty());  // CTC accepts 6, SAR does not
  // Counted after dropping unknown characters (PaddleOCR's len(encoded)).
  EXPECT_FALSE(sar_label_from_ctc(ctc_of("abXXca", cs, 6), c, 6).empty());
}

TEST(SarLabelDecode, StopsAtEndSkipsPaddingAndALeadingEnd) {
  const Charset cs = abc();
  EXPECT_EQ(sar_indices_to_text({2, 0, 1, 4, 0, 0}, cs), "cab");
  EXPECT_EQ(sar_indices_to_text({4, 0, 4, 1}, cs), "a");  // leading <BOS/EOS> skipped, the next one ends
  EXPECT_EQ(sar_indices_to_text({0, 5, 1, 5}, cs), "ab");  // <PAD> skipped
  EXPECT_EQ(sar_indices_to_text({0, 3, 1}, cs), "a<UKN>b");
  EXPECT_THROW(sar_indices_to_text({7}, cs), Error);
}

// MultiLabelEncode in the data set: label_sar next to the CTC label, and a
// text too long for SAR (but fine for CTC) replaced and counted by reason.
TEST(SarLabelEncode, DataSetMakesLabelSarAndReplacesTextsTooLongForIt) {
  const std::string dir = test::fresh_dir("sar_label_dataset");
  cv::imwrite(dir + "/w.png", cv::Mat(32, 64, CV_8UC3, cv::Scalar(200, 200, 200)));
  const std::vector<RecLabel> samples = {{dir + "/w.png", "abc"}, {dir + "/w.png", "abcabc"}};
  RecTransformSpec t;
  t.charset = abc();
  t.max_text_length = 6;
  t.image_shape = {3, 32, 64};
  t.multi_label_encode = true;
  const RecDataset multi(samples, t, /*random_replacement=*/false);
  DataStats stats;
  const Sample ok = multi.load_sample(0, 1, &stats);
  ASSERT_TRUE(ok.tensors.count("label_sar"));
  EXPECT_TRUE(torch::equal(ok.tensors.at("label_sar"), torch::tensor({4, 0, 1, 2, 4, 5}, torch::kInt64)));
  EXPECT_TRUE(torch::equal(ok.tensors.at("label"), torch::tensor({1, 2, 3, 0, 0, 0}, torch::kInt64)));
  EXPECT_EQ(stats.other.size(), 0u);
  // Sample 1 has 6 characters: CTC takes it, SAR does not -> the next sample replaces it.
  const RecSample replaced = multi.load(1, 1, &stats);
  EXPECT_EQ(replaced.index, 0u);
  EXPECT_EQ(replaced.text, "abc");
  EXPECT_EQ(stats.other.at(RecDataset::kSarTooLongReason), 1);
  EXPECT_EQ(stats.too_long, 0);
  // CTCLabelEncode keeps the 6-character text and makes no label_sar.
  t.multi_label_encode = false;
  const RecDataset ctc(samples, t, false);
  DataStats none;
  const Sample s = ctc.load_sample(1, 1, &none);
  EXPECT_FALSE(s.tensors.count("label_sar"));
  EXPECT_EQ(s.text, "abcabc");
  EXPECT_TRUE(none.other.empty());
}

}  // namespace
}  // namespace ocrforge
