#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_label_list.h"
#include "rec_data_fixtures.h"
#include "test_support.h"

namespace ocrforge {
namespace {

std::string lines(int n, const std::string& prefix) {
  std::string s;
  for (int i = 0; i < n; ++i) s += prefix + std::to_string(i) + ".jpg\tword" + std::to_string(i) + "\n";
  return s;
}

std::string error_of(const RecLabelListSpec& spec) {
  return ocrforge::test::message_of<Error>([&] {
    read_rec_label_list(spec);
  });
}

TEST(RecLabelList, SplitsAtFirstTabAndJoinsDataDir) {
  const std::string dir = test::fresh_dir("labels_tab");
  test::write_text(dir + "/l.txt", "a.jpg\tHello world\nb.jpg\tx\ty\r\n\n   \n/abs/c.jpg\t\n");
  RecLabelListSpec spec;
  spec.data_dir = "/data";
  spec.label_file_list = {dir + "/l.txt"};
  const auto r = read_rec_label_list(spec);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].path, "/data/a.jpg");
  EXPECT_EQ(r[0].text, "Hello world");
  EXPECT_EQ(r[1].text, "x\ty");  // the rest of the line stays in the text; "\r" is stripped
  EXPECT_EQ(r[2].path, "/abs/c.jpg");  // an absolute path ignores data_dir (os.path.join)
  EXPECT_EQ(r[2].text, "");            // empty text parses; CTCLabelEncode rejects it later
}

TEST(RecLabelList, CustomDelimiter) {
  const std::string dir = test::fresh_dir("labels_delim");
  test::write_text(dir + "/l.txt", "imgs/a.jpg two words\nimgs/b.jpg one\n");
  RecLabelListSpec spec;
  spec.label_file_list = {dir + "/l.txt"};
  spec.delimiter = ' ';
  const auto r = read_rec_label_list(spec);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].path, "imgs/a.jpg");  // empty data_dir: the path as written
  EXPECT_EQ(r[0].text, "two words");
}

TEST(RecLabelList, RatioListSamplesRoundedCountsPerFile) {
  const std::string dir = test::fresh_dir("labels_ratio");
  test::write_text(dir + "/a.txt", lines(10, "a"));
  test::write_text(dir + "/b.txt", lines(7, "b"));
  RecLabelListSpec spec;
  spec.label_file_list = {dir + "/a.txt", dir + "/b.txt"};
  spec.ratio_list = {0.25, 0.5};  // round(2.5) = 2 (half to even), round(3.5) = 4
  const auto r = read_rec_label_list(spec);
  size_t from_a = 0, from_b = 0;
  for (const auto& l : r) (l.path[0] == 'a' ? from_a : from_b)++;
  EXPECT_EQ(from_a, 2u);
  EXPECT_EQ(from_b, 4u);
  // Same seed, same lines; the selection keeps file order.
  const auto again = read_rec_label_list(spec);
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].path, again[i].path);
  EXPECT_LT(r[0].path, r[1].path);

  spec.ratio_list = {0.5};  // one value applies to every file
  EXPECT_EQ(read_rec_label_list(spec).size(), 5u + 4u);
  spec.ratio_list = {1.0, 0.0};
  EXPECT_EQ(read_rec_label_list(spec).size(), 10u);
}

TEST(RecLabelList, RatioSelectionDependsOnSeed) {
  const std::string dir = test::fresh_dir("labels_seed");
  test::write_text(dir + "/a.txt", lines(40, "a"));
  RecLabelListSpec spec;
  spec.label_file_list = {dir + "/a.txt"};
  spec.ratio_list = {0.5};
  std::set<std::vector<std::string>> selections;
  for (uint64_t seed : {1, 2, 3}) {
    spec.seed = seed;
    std::vector<std::string> paths;
    for (const auto& l : read_rec_label_list(spec)) paths.push_back(l.path);
    EXPECT_EQ(paths.size(), 20u);
    selections.insert(paths);
  }
  EXPECT_EQ(selections.size(), 3u);
}

TEST(RecLabelList, RatioListLengthMismatchIsAnError) {
  const std::string dir = test::fresh_dir("labels_mismatch");
  test::write_text(dir + "/a.txt", lines(3, "a"));
  RecLabelListSpec spec;
  spec.label_file_list = {dir + "/a.txt", dir + "/a.txt", dir + "/a.txt"};
  spec.ratio_list = {1.0, 0.5};
  EXPECT_NE(error_of(spec).find("Train.dataset.ratio_list"), std::string::npos);
}

TEST(RecLabelList, BadLinesAreListedWithFileAndLineNumber) {
  const std::string dir = test::fresh_dir("labels_bad");
  const std::string file = dir + "/bad.txt";
  test::write_text(file, "a.jpg\tok\nno delimiter here\nb.jpg\tok\n\tempty path\n");
  RecLabelListSpec spec;
  spec.label_file_list = {file};
  const std::string msg = error_of(spec);
  EXPECT_NE(msg.find("2 malformed"), std::string::npos) << msg;
  EXPECT_NE(msg.find(file), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no delimiter here"), std::string::npos) << msg;
}

TEST(RecLabelList, ManyBadLinesShowTheFirstFive) {
  const std::string dir = test::fresh_dir("labels_many_bad");
  std::string text;
  for (int i = 0; i < 8; ++i) text += "bad" + std::to_string(i) + "\n";
  test::write_text(dir + "/bad.txt", text);
  RecLabelListSpec spec;
  spec.label_file_list = {dir + "/bad.txt"};
  const std::string msg = error_of(spec);
  EXPECT_NE(msg.find("line 5"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("line 6"), std::string::npos) << msg;
  EXPECT_NE(msg.find("and 3 more"), std::string::npos) << msg;
}

TEST(RecLabelList, MissingLabelFileNamesItAndTheConfigKey) {
  RecLabelListSpec spec;
  spec.label_file_list = {"/nonexistent/train_list.txt"};
  spec.config_key = "Eval.dataset";
  const std::string msg = error_of(spec);
  EXPECT_NE(msg.find("/nonexistent/train_list.txt"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Eval.dataset.label_file_list"), std::string::npos) << msg;
}

TEST(RecLabelList, EmptyDataSetIsAnError) {
  const std::string dir = test::fresh_dir("labels_empty");
  test::write_text(dir + "/empty.txt", "\n\n");
  RecLabelListSpec spec;
  spec.label_file_list = {dir + "/empty.txt"};
  EXPECT_NE(error_of(spec).find("no samples"), std::string::npos);
  test::write_text(dir + "/two.txt", lines(2, "a"));
  spec.label_file_list = {dir + "/two.txt"};
  spec.ratio_list = {0.1};  // round(0.2) = 0 lines kept
  EXPECT_NE(error_of(spec).find("after ratio_list"), std::string::npos);
}

TEST(RecLabelList, ReadsTheToyLabels) {
  RecLabelListSpec spec;
  spec.data_dir = test::rec_toy_dir();
  spec.label_file_list = {test::rec_toy_labels()};
  const auto r = read_rec_label_list(spec);
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r[0].text, "GRAND");
  for (const auto& l : r) EXPECT_TRUE(std::filesystem::exists(l.path)) << l.path;
}

}  // namespace
}  // namespace ocrforge
