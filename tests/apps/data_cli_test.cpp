// `ocrforge data crop|split` end to end: crops and their label file from a
// hand-made detection label file, an unreadable image failing alone, the
// split's files, and bad usage.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "test_support.h"

using namespace ocrforge;

namespace {

// 200 x 100 white page with a black 80 x 30 block at (10, 20).
void write_page(const std::string& path) {
  cv::Mat img(100, 200, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::rectangle(img, cv::Rect(10, 20, 80, 30), cv::Scalar(0, 0, 0), cv::FILLED);
  ASSERT_TRUE(cv::imwrite(path, img));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST(DataCli, CropWritesOneCropPerReadableRegionAndSkipsTheRest) {
  const std::string dir = test::fresh_dir("data_crop");
  std::filesystem::create_directories(dir + "/imgs");
  write_page(dir + "/imgs/a.jpg");
  test::write_text(dir + "/imgs/broken.jpg", "not a jpeg");
  test::write_text(dir + "/det_gt.txt",
                   "imgs/a.jpg\t[{\"transcription\": \"BLOCK\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}, "
                   "{\"transcription\": \"###\", \"points\": [[100, 20], [150, 20], [150, 50], [100, 50]]}, "
                   "{\"transcription\": \"\", \"points\": [[100, 60], [150, 60], [150, 80], [100, 80]]}, "
                   "{\"transcription\": \"flat\", \"points\": [[10, 90], [90, 90], [90, 90.5], [10, 90.5]]}]\n"
                   "imgs/broken.jpg\t[{\"transcription\": \"x\", \"points\": [[0, 0], [9, 0], [9, 9], [0, 9]]}]\n"
                   "this line has no tab\n");
  const auto r = test::run_command(test::binary() + " data crop --label " + dir + "/det_gt.txt --out " + dir + "/rec", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the broken image failed (alone)
  EXPECT_NE(r.err.find("broken.jpg"), std::string::npos) << r.err;
  const auto labels = lines_of(test::read_text(dir + "/rec/rec_gt.txt"));
  ASSERT_EQ(labels.size(), 1u) << r.out;
  EXPECT_EQ(labels[0], "crop_img/a_crop_0.jpg\tBLOCK");
  const cv::Mat crop = cv::imread(dir + "/rec/crop_img/a_crop_0.jpg");
  ASSERT_FALSE(crop.empty());
  EXPECT_EQ(crop.size(), cv::Size(80, 30));
  EXPECT_LT(cv::mean(crop)[0], 40.0);  // the black block, not the page around it
  EXPECT_NE(r.out.find("1 ignored"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 empty text"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 thinner than 2 px"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 bad lines"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 unreadable images"), std::string::npos) << r.out;
}

TEST(DataCli, SplitWritesTwoDisjointFilesBesideTheLabelFile) {
  const std::string dir = test::fresh_dir("data_split");
  std::string text;
  for (int i = 0; i < 20; ++i) text += "imgs/" + std::to_string(i) + ".jpg\tw" + std::to_string(i) + "\n";
  test::write_text(dir + "/rec_gt.txt", text + "\n");  // a trailing blank line is not a sample
  const auto r = test::run_command(test::binary() + " data split --label " + dir + "/rec_gt.txt --ratio 0.75 --seed 3", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto train = lines_of(test::read_text(dir + "/rec_gt_train.txt"));
  const auto eval = lines_of(test::read_text(dir + "/rec_gt_eval.txt"));
  EXPECT_EQ(train.size(), 15u);
  EXPECT_EQ(eval.size(), 5u);
  for (const auto& e : eval) EXPECT_EQ(std::find(train.begin(), train.end(), e), train.end()) << e;
  // The same seed gives the same files.
  const auto again = test::run_command(test::binary() + " data split --label " + dir + "/rec_gt.txt --ratio 0.75 --seed 3 "
                                       "--train_out " + dir + "/t2.txt --eval_out " + dir + "/e2.txt", dir);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(test::read_text(dir + "/e2.txt"), test::read_text(dir + "/rec_gt_eval.txt"));
}

TEST(DataCli, BadUsageExitsTwoNamingTheProblem) {
  const std::string dir = test::fresh_dir("data_usage");
  test::write_text(dir + "/l.txt", "a\tb\nc\td\n");
  const auto none = test::run_command(test::binary() + " data", dir);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("data crop"), std::string::npos) << none.err;
  const auto ratio = test::run_command(test::binary() + " data split --label " + dir + "/l.txt --ratio 1.5", dir);
  EXPECT_EQ(ratio.exit_code, 2);
  EXPECT_NE(ratio.err.find("ratio"), std::string::npos) << ratio.err;
  const auto self = test::run_command(
      test::binary() + " data split --label " + dir + "/l.txt --train_out " + dir + "/l.txt", dir);
  EXPECT_EQ(self.exit_code, 2);
  EXPECT_NE(self.err.find("is the --label file"), std::string::npos) << self.err;
  const auto missing = test::run_command(test::binary() + " data crop --label " + dir + "/nope.txt --out " + dir + "/o", dir);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.txt"), std::string::npos) << missing.err;
}

TEST(DataCli, ClsWritesEachCropUprightAndTurned) {
  const std::string dir = test::fresh_dir("data_cls");
  std::filesystem::create_directories(dir + "/crops");
  cv::Mat crop(30, 80, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::rectangle(crop, cv::Rect(0, 0, 20, 10), cv::Scalar(0, 0, 0), cv::FILLED);  // dark top-left corner
  ASSERT_TRUE(cv::imwrite(dir + "/crops/w.jpg", crop));
  test::write_text(dir + "/crops/broken.jpg", "not a jpeg");
  test::write_text(dir + "/rec_gt.txt", "crops/w.jpg\tWORD\ncrops/broken.jpg\tX\nno tab here\n");
  const auto r = test::run_command(test::binary() + " data cls --label " + dir + "/rec_gt.txt --out " + dir + "/cls", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the broken image fails alone
  EXPECT_NE(r.err.find("broken.jpg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 3 skipped"), std::string::npos) << r.err;
  const auto lines = lines_of(test::read_text(dir + "/cls/cls_gt.txt"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "cls_img/1_w_0.png\t0");
  EXPECT_EQ(lines[1], "cls_img/1_w_180.png\t180");
  const cv::Mat up = cv::imread(dir + "/cls/cls_img/1_w_0.png");
  const cv::Mat turned = cv::imread(dir + "/cls/cls_img/1_w_180.png");
  ASSERT_EQ(up.size(), crop.size());
  ASSERT_EQ(turned.size(), crop.size());
  // The dark corner moves from top-left to bottom-right; PNG keeps the JPEG's pixels exactly.
  EXPECT_LT(up.at<cv::Vec3b>(2, 2)[0], 60);
  EXPECT_LT(turned.at<cv::Vec3b>(27, 77)[0], 60);
  EXPECT_GT(turned.at<cv::Vec3b>(2, 2)[0], 200);
  cv::Mat back;
  cv::rotate(turned, back, cv::ROTATE_180);
  EXPECT_EQ(cv::norm(back, up, cv::NORM_INF), 0.0);
}

// One rule for every command that writes (issue 29): `data crop --out` the
// label file's own folder used to replace det_gt.txt... named rec_gt.txt
// with the crops' labels, exit 0; crops must not replace listed images.
TEST(DataCli, OutputsNeverReplaceTheirInputs) {
  const std::string dir = test::fresh_dir("data_inplace");
  write_page(dir + "/a.jpg");
  const std::string det = "a.jpg\t[{\"transcription\": \"BLOCK\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}]\n";
  test::write_text(dir + "/rec_gt.txt", det);
  for (const char* mode : {"crop", "cls"}) {
    SCOPED_TRACE(mode);
    const std::string label = std::string(mode) == "crop" ? "rec_gt.txt" : "cls_gt.txt";
    if (label != "rec_gt.txt") test::write_text(dir + "/" + label, "a.jpg\tBLOCK\n");
    const std::string before = test::read_text(dir + "/" + label);
    const auto r = test::run_command(test::binary() + " data " + mode + " --label " + dir + "/" + label + " --out " + dir, dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--out: '" + dir + "/" + label + "' is the --label file"), std::string::npos) << r.err;
    EXPECT_EQ(test::read_text(dir + "/" + label), before) << "the input label file was replaced";
  }
  // A label file listing a.jpg and an earlier crop of it, cropped into the
  // folder they are in: a.jpg's crop would be written over the listed one.
  std::filesystem::create_directories(dir + "/rec/crop_img");
  write_page(dir + "/rec/a.jpg");
  write_page(dir + "/rec/crop_img/a_crop_0.jpg");
  const std::string photo = test::read_text(dir + "/rec/crop_img/a_crop_0.jpg");
  const std::string region = "\t[{\"transcription\": \"B\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}]\n";
  test::write_text(dir + "/again.txt", "a.jpg" + region + "crop_img/a_crop_0.jpg" + region);
  const auto r = test::run_command(test::binary() + " data crop --label " + dir + "/again.txt --data_dir " + dir +
                                       "/rec --out " + dir + "/rec", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("would replace the input image"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(dir + "/rec/crop_img/a_crop_0.jpg"), photo);
}

// One bad record fails alone and is named (issue 29): a box of 50000 x 40000
// on a 200 x 100 page used to end the run with OpenCV's "Failed to allocate
// 6000000000 bytes" as an internal error, writing no crop at all.
TEST(DataCli, AHugeRegionFailsAloneAndTheGoodOnesAreWritten) {
  const std::string dir = test::fresh_dir("data_huge");
  write_page(dir + "/a.jpg");
  write_page(dir + "/b.jpg");
  test::write_text(dir + "/det_gt.txt",
                   "a.jpg\t[{\"transcription\": \"HUGE\", \"points\": [[0, 0], [50000, 0], [50000, 40000], [0, 40000]]}, "
                   "{\"transcription\": \"BLOCK\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}]\n"
                   "b.jpg\t[{\"transcription\": \"BLOCK\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}]\n");
  const auto r = test::run_command(test::binary() + " data crop --label " + dir + "/det_gt.txt --out " + dir + "/rec", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("line 1: region 0 of 'a.jpg' skipped: the region is 50000 x 40000 pixels"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  const auto labels = lines_of(test::read_text(dir + "/rec/rec_gt.txt"));
  ASSERT_EQ(labels.size(), 2u) << r.out;
  EXPECT_EQ(labels[0], "crop_img/a_crop_1.jpg\tBLOCK");
  EXPECT_EQ(labels[1], "crop_img/b_crop_0.jpg\tBLOCK");
  EXPECT_NE(r.out.find("1 failed regions"), std::string::npos) << r.out;
}

// A BOM at the start of a label file (Windows editors) is not part of the
// first image's path (before: "1 unreadable images" for the first line).
TEST(DataCli, AUtf8BomDoesNotCostTheFirstLine) {
  const std::string dir = test::fresh_dir("data_bom");
  write_page(dir + "/a.jpg");
  test::write_text(dir + "/det_gt.txt",
                   "\xEF\xBB\xBF" "a.jpg\t[{\"transcription\": \"BLOCK\", \"points\": [[10, 20], [90, 20], [90, 50], [10, 50]]}]\n");
  const auto r = test::run_command(test::binary() + " data crop --label " + dir + "/det_gt.txt --out " + dir + "/rec", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(test::read_text(dir + "/rec/rec_gt.txt")).size(), 1u) << r.err;
}

// Active learning: the N lowest-score lines of an `ocr --save_label` file, in
// PPOCRLabel's layout (score dropped, difficult kept), pages in file order.
TEST(DataCli, SelectUncertainWritesTheLowestScoreLinesAsALabelFile) {
  const std::string dir = test::fresh_dir("data_select");
  test::write_text(dir + "/Label.txt",
                   "imgs/a.jpg\t[{\"transcription\": \"sure\", \"points\": [[0, 0], [9, 0], [9, 9], [0, 9]], "
                   "\"difficult\": false, \"score\": 0.99}, "
                   "{\"transcription\": \"unsure\", \"points\": [[0, 10], [9, 10], [9, 19], [0, 19]], "
                   "\"difficult\": false, \"score\": 0.41}]\n"
                   "imgs/b.jpg\t[{\"transcription\": \"worst\", \"points\": [[1, 1], [8, 1], [8, 8], [1, 8]], "
                   "\"difficult\": false, \"score\": 0.2}]\n"
                   "imgs/c.jpg\t[{\"transcription\": \"fine\", \"points\": [[1, 1], [8, 1], [8, 8], [1, 8]], "
                   "\"difficult\": false, \"score\": 0.95}]\n");
  const auto r = test::run_command(test::binary() + " data select --uncertain 2 --label " + dir + "/Label.txt --out " +
                                       dir + "/to_correct.txt",
                                   dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("selected 2 of 4 lines"), std::string::npos) << r.out;
  const auto out = lines_of(test::read_text(dir + "/to_correct.txt"));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0],
            "imgs/a.jpg\t[{\"difficult\":false,\"points\":[[0,10],[9,10],[9,19],[0,19]],\"transcription\":\"unsure\"}]");
  EXPECT_EQ(out[1], "imgs/b.jpg\t[{\"difficult\":false,\"points\":[[1,1],[8,1],[8,8],[1,8]],\"transcription\":\"worst\"}]");

  // More than there are: all of them, with a note.
  const auto all = test::run_command(test::binary() + " data select --uncertain 10 --label " + dir +
                                         "/Label.txt --out " + dir + "/all.txt",
                                     dir);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(lines_of(test::read_text(dir + "/all.txt")).size(), 3u);
  EXPECT_NE(all.err.find("more lines than the 4"), std::string::npos) << all.err;
}

TEST(DataCli, SelectRefusesLabelsWithoutScoresAndBadUsage) {
  const std::string dir = test::fresh_dir("data_select_bad");
  test::write_text(dir + "/det_gt.txt",
                   "imgs/a.jpg\t[{\"transcription\": \"x\", \"points\": [[0, 0], [9, 0], [9, 9], [0, 9]]}]\n");
  auto r = test::run_command(test::binary() + " data select --uncertain 1 --label " + dir + "/det_gt.txt --out " + dir +
                                 "/o.txt",
                             dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("no numeric \"score\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--save_label"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/o.txt"));
  r = test::run_command(test::binary() + " data select --label " + dir + "/det_gt.txt --out " + dir + "/o.txt", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--uncertain"), std::string::npos) << r.err;
  r = test::run_command(test::binary() + " data select --uncertain 1 --label " + dir + "/det_gt.txt --out " + dir +
                            "/det_gt.txt",
                        dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
}
