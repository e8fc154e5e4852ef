// `ocrforge infer det|cls|rec` end to end.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

TEST(InferCli, RecPrintsPaddleStylePredictions) {
  const std::string dir = test::fresh_dir("infer_rec");
  auto r = test::run_command(test::binary() + " infer rec --cpu_threads 2 --image_dir " + test::data_dir() +
                                 "/rec_toy/imgs/1036169.jpg",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Predicts of "), std::string::npos);
  EXPECT_NE(r.out.find("1036169.jpg:('03/09/2009', 0."), std::string::npos) << r.out;
}

TEST(InferCli, DetWritesDetResults) {
  const std::string dir = test::fresh_dir("infer_det");
  auto r = test::run_command(test::binary() + " infer det --cpu_threads 2 --image_dir " + test::data_dir() +
                                 "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir + "/out",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string res = test::read_text(dir + "/out/det_results.txt");
  EXPECT_EQ(res.substr(0, res.find('\t')), "imgs_ger_1.jpg");
  EXPECT_NE(res.find("[[["), std::string::npos) << res;
  EXPECT_TRUE(fs::exists(dir + "/out/det_res_imgs_ger_1.jpg"));
}

TEST(InferCli, ClsPrintsLabelAndScore) {
  const std::string dir = test::fresh_dir("infer_cls");
  auto r = test::run_command(test::binary() + " infer cls --cpu_threads 2 --image_dir " + test::data_dir() +
                                 "/samples/ch_word_3.jpg",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(":['0', "), std::string::npos) << r.out;
}

TEST(InferCli, WrongModelKindAndMissingSubcommand) {
  const std::string dir = test::fresh_dir("infer_bad");
  auto r = test::run_command(test::binary() + " infer rec --image_dir " + test::data_dir() +
                                 "/samples/ch_word_3.jpg --rec_model_dir " + test::model_root() + "/cls",
                             dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is not a text recognition"), std::string::npos) << r.err;
  auto u = test::run_command(test::binary() + " infer --image_dir x.jpg", dir);
  EXPECT_EQ(u.exit_code, 2);
}

TEST(InferCli, AVeryWideLineIsCappedAndFast) {
  // 30000 x 16 became a 90000-wide recognition input (minutes); PaddleOCR
  // 3.x caps the width at 3200.
  const std::string dir = test::fresh_dir("infer_wide");
  cv::Mat wide(16, 30000, CV_8UC3, cv::Scalar(255, 255, 255));
  for (int x = 0; x < 30000; x += 40) cv::rectangle(wide, cv::Rect(x, 3, 20, 10), cv::Scalar(0, 0, 0), cv::FILLED);
  ASSERT_TRUE(cv::imwrite(dir + "/wide.png", wide));
  const auto t0 = std::chrono::steady_clock::now();
  auto r = test::run_command(test::binary() + " infer rec --cpu_threads 2 --image_dir " + dir + "/wide.png", dir);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Predicts of " + dir + "/wide.png:"), std::string::npos) << r.out;
  EXPECT_LT(s, 30.0) << "capped at 3200 wide this takes about a second";
}

TEST(InferCli, SymlinkLoopIsSkippedNotFatal) {
  const std::string dir = test::fresh_dir("infer_hostile");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/rec_toy/imgs/1036169.jpg", in + "/a.jpg");
  fs::create_symlink("l1.jpg", in + "/l2.jpg");
  fs::create_symlink("l2.jpg", in + "/l1.jpg");
  auto r = test::run_command(test::binary() + " infer rec --cpu_threads 2 --image_dir " + in, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("a.jpg:('03/09/2009'"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("l1.jpg' cannot be read"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("l2.jpg' cannot be read"), std::string::npos) << r.err;
}

TEST(InferCli, DetRefusesWritingIntoTheInputFolder) {
  const std::string dir = test::fresh_dir("infer_det_inplace");
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", dir + "/a.jpg");
  auto r = test::run_command(test::binary() + " infer det --image_dir " + dir + " --draw_img_save_dir " + dir, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/det_results.txt"));
}

// `infer rec` / `infer det` take --precision int8 too (the int8 models made
// into a fresh cache folder).
TEST(InferCli, RecAndDetRunInt8) {
  const std::string dir = test::fresh_dir("infer_int8");
  const std::string env = "OCRFORGE_CACHE_DIR=" + dir + "/cache ";
  auto r = test::run_command(env + test::binary() + " infer rec --precision int8 --cpu_threads 2 --image_dir " +
                                 test::data_dir() + "/rec_toy/imgs/1036169.jpg",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1036169.jpg:('03/09/2009', 0."), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("int8: making the int8 form of rec model"), std::string::npos) << r.err;
  auto d = test::run_command(env + test::binary() + " infer det --precision int8 --benchmark=True --warmup_runs 0"
                                   " --cpu_threads 2 --image_dir " + test::data_dir() +
                                 "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir + "/out",
                             dir);
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.err.find(" precision: int8\n"), std::string::npos) << d.err;
  EXPECT_NE(d.err.find("imgs_ger_1.jpg: 3 boxes"), std::string::npos) << d.err;
}
