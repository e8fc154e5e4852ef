// Tests for PaddleOCR label-file parsing in ocrforge/core/label_file.h.
#include "ocrforge/core/label_file.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
// The error message of `fn`, or "" when it does not throw Error.
template <typename Fn>
std::string error_of(Fn fn) {
  return ocrforge::test::message_of<Error>([&] {
    fn();
  });
}
}  // namespace

TEST(LabelFile, ParsesRecLineAtFirstTab) {
  RecLabel r = parse_rec_label_line("train/word_001.jpg\tSimple and reliable\r", "f.txt", 1);
  EXPECT_EQ(r.path, "train/word_001.jpg");
  EXPECT_EQ(r.text, "Simple and reliable");
  EXPECT_EQ(parse_rec_label_line("a.jpg\t", "f", 1).text, "");
  EXPECT_EQ(parse_rec_label_line("a.jpg a b", "f", 1, ' ').text, "a b");
}

TEST(LabelFile, ParsesDetLineWithIgnoreTags) {
  DetLabel d = parse_det_label_line(
      "imgs/img_1.jpg\t[{\"transcription\": \"MASA\", \"points\": [[310, 104], [416, 141], [418, 216], "
      "[312, 179]]}, {\"transcription\": \"###\", \"points\": [[1.5, 2], [3, 2], [3, 4]]}]",
      "f.txt", 3);
  EXPECT_EQ(d.path, "imgs/img_1.jpg");
  ASSERT_EQ(d.regions.size(), 2u);
  EXPECT_EQ(d.regions[0].transcription, "MASA");
  EXPECT_FALSE(d.regions[0].ignore());
  ASSERT_EQ(d.regions[0].points.size(), 4u);
  EXPECT_FLOAT_EQ(d.regions[0].points[1][0], 416.f);
  EXPECT_FLOAT_EQ(d.regions[0].points[1][1], 141.f);
  EXPECT_TRUE(d.regions[1].ignore());
  EXPECT_FLOAT_EQ(d.regions[1].points[0][0], 1.5f);
  EXPECT_TRUE(parse_det_label_line("a.jpg\t[]", "f", 1).regions.empty());
}

TEST(LabelFile, KeepsUtf8Transcriptions) {
  DetLabel d =
      parse_det_label_line("a.jpg\t[{\"transcription\": \"中文\", \"points\": [[0,0],[1,0],[1,1]]}]", "f", 1);
  EXPECT_EQ(d.regions.at(0).transcription, "中文");
}

TEST(LabelFile, ErrorsNameFileAndLine) {
  EXPECT_NE(error_of([] { parse_rec_label_line("no_tab_here", "labels.txt", 7); }).find("labels.txt' line 7"),
            std::string::npos);
  const std::string bad_json = error_of([] { parse_det_label_line("a.jpg\t[{\"points\": [[1,", "d.txt", 2); });
  EXPECT_NE(bad_json.find("d.txt' line 2"), std::string::npos) << bad_json;
  EXPECT_NE(bad_json.find("JSON"), std::string::npos) << bad_json;
  const std::string two_points =
      error_of([] { parse_det_label_line("a.jpg\t[{\"points\": [[1, 2], [3, 4]]}]", "d", 1); });
  EXPECT_NE(two_points.find("at least 3"), std::string::npos);
  EXPECT_NE(error_of([] { parse_det_label_line("a.jpg\t[{\"points\": [[1, \"x\"], [3, 4], [5, 6]]}]", "d", 1); })
                .find("not a number"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_det_label_line("a.jpg\t{}", "d", 1); }).find("JSON list"), std::string::npos);
}

TEST(LabelFile, ReadsFilesSkippingEmptyLines) {
  const std::string dir = test::fresh_dir("label_file");
  test::write_text(dir + "/rec_gt.txt", "a.jpg\tone\n\nb.jpg\ttwo\r\n");
  auto recs = read_rec_labels(dir + "/rec_gt.txt");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[1].path, "b.jpg");
  EXPECT_EQ(recs[1].text, "two");
  test::write_text(dir + "/det_gt.txt", "a.jpg\t[]\nb.jpg\tnot json\n");
  const std::string err = error_of([&] { read_det_labels(dir + "/det_gt.txt"); });
  EXPECT_NE(err.find("line 2"), std::string::npos) << err;
  EXPECT_NE(error_of([&] { read_rec_labels(dir + "/missing.txt"); }).find("missing.txt"), std::string::npos);
}

TEST(LabelFile, ReadsTheShippedToySets) {
  auto det = read_det_labels(test::data_dir() + "/det_toy/det_gt.txt");
  EXPECT_EQ(det.size(), 10u);
  auto rec = read_rec_labels(test::data_dir() + "/rec_toy/rec_gt.txt");
  EXPECT_EQ(rec.size(), 10u);
}

TEST(LabelFile, LabelFileDir) {
  EXPECT_EQ(label_file_dir("a/b/rec_gt.txt"), "a/b");
  EXPECT_EQ(label_file_dir("rec_gt.txt"), ".");
  EXPECT_EQ(label_file_dir("/rec_gt.txt"), "/");
}

// A UTF-8 BOM (EF BB BF) that an editor put at the start of the file is not
// part of the first image's path (before: the path began with the BOM, and
// training counted "1 missing image").
TEST(LabelFile, AUtf8BomIsNotPartOfTheFirstPath) {
  const std::string dir = test::fresh_dir("label_bom");
  test::write_text(dir + "/rec.txt", "\xEF\xBB\xBF" "imgs/a.jpg\tHello\nimgs/b.jpg\tWorld\n");
  const auto rec = read_rec_labels(dir + "/rec.txt");
  ASSERT_EQ(rec.size(), 2u);
  EXPECT_EQ(rec[0].path, "imgs/a.jpg");
  test::write_text(dir + "/det.txt", "\xEF\xBB\xBF" "imgs/a.jpg\t[{\"transcription\": \"A\", \"points\": [[0,0],[9,0],[9,9]]}]\n");
  EXPECT_EQ(read_det_labels(dir + "/det.txt").at(0).path, "imgs/a.jpg");
  // The line parser alone too: the training layer's readers call it per line.
  EXPECT_EQ(parse_rec_label_line("\xEF\xBB\xBF" "x.jpg\tt", "f", 1).path, "x.jpg");
}
