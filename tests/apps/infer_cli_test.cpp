// `ocrforge infer det|cls|rec` end to end.
#include <gtest/gtest.h>

#include <filesystem>

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
