// `ocrforge train` / `eval` / `infer det` / `eval-det` on a detection
// checkpoint, as a user runs them (label: slow).
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include <gtest/gtest.h>

#include <filesystem>

#include "det_fixture.h"

namespace fs = std::filesystem;
using namespace ocrforge;

TEST(DetTrainerCli, TrainEvalInferAndScoreFromCheckpoint) {
  auto t = test::make_tiny_det_task("det_cli", 4);
  const std::string cfg = t.dir + "/tiny_det.yml";
  test::write_text(cfg, test::tiny_det_config(t, 2, 2));
  auto train = test::run_command(test::binary() + " train -c " + cfg, t.dir);
  ASSERT_EQ(train.exit_code, 0) << train.out << train.err;
  EXPECT_NE(train.out.find("loss_shrink_maps"), std::string::npos) << train.out;

  auto eval = test::run_command(test::binary() + " eval -c " + cfg + " -o Global.checkpoints=" + t.save_dir + "/latest",
                                t.dir);
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  EXPECT_NE(eval.out.find("hmean: "), std::string::npos) << eval.out;

  const std::string out = t.dir + "/det_vis";
  auto infer = test::run_command(test::binary() + " infer det --det_model_dir " + t.save_dir + " --image_dir " + t.dir +
                                     "/imgs --draw_img_save_dir " + out,
                                 t.dir);
  ASSERT_EQ(infer.exit_code, 0) << infer.err;
  EXPECT_NE(infer.err.find("(LibTorch)"), std::string::npos) << infer.err;
  ASSERT_TRUE(fs::exists(out + "/det_results.txt"));
  EXPECT_EQ(test::read_text(out + "/det_results.txt").find("0.png\t["), 0u);

  auto score = test::run_command(
      test::binary() + " eval-det --gt " + t.dir + "/det_gt.txt --pred " + out + "/det_results.txt", t.dir);
  EXPECT_EQ(score.exit_code, 0) << score.err;
  EXPECT_NE(score.out.find("hmean"), std::string::npos) << score.out;

  // A det checkpoint given as a recognizer is refused by name.
  auto wrong = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.save_dir + " --image_dir " + t.dir +
                                     "/imgs/0.png",
                                 t.dir);
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.err.find("not a recognizer"), std::string::npos) << wrong.err;
}
