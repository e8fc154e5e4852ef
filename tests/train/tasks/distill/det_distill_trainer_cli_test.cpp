// PP-OCRv3 CML end to end as a user runs it (label: slow): `ocrforge train`
// on tiny pages with the shipped PP-OCRv4 detector as the frozen teacher
// (ONNX) and two tiny students; the log carries PaddleOCR's loss names; the
// Student's hmean on held-out pages ends far above the untrained Student's;
// `ocrforge export` writes OUT/Student, OUT/Student2, OUT/Teacher and
// `ocrforge infer det` / `ocrforge ocr --det_model_dir OUT/Student` read them.
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include <gtest/gtest.h>

#include <filesystem>

#include "ocrforge/core/config.h"
#include "ocrforge/train/loop/trainer.h"
#include "train/tasks/distill/det_distill_fixture.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {
// The last evaluation's value of `key` in metrics.jsonl ("hmean": 0.93).
double last_metric(const std::string& jsonl, const std::string& key) {
  const std::string text = test::read_text(jsonl);
  const size_t at = text.rfind("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + key.size() + 3));
}
}  // namespace

TEST(DetDistillTrainerCli, TinyCmlTrainsExportsAndInfers) {
  // 128 x 128 pages with small words: the students detect the held-out
  // pages after ~150 steps (hmean 0.6 at step 120, 1.0 from 160 here).
  constexpr int kSize = 128;
  constexpr double kTextScale = 0.55;
  const auto train = test::make_tiny_det_task("cml_cli", 8, kSize, 11, kTextScale);
  const auto held = test::make_tiny_det_task("cml_cli_heldout", 4, kSize, 77, kTextScale);  // never trained on
  test::CmlOptions o;
  o.teacher_onnx = test::model_root() + "/det/inference.onnx";
  constexpr int kEpochs = 90;  // 8 pages, batch 4: 180 steps
  YAML::Node root = YAML::Load(test::tiny_cml_config(train, kEpochs, 4, o, kSize, 0.004));
  root["Eval"]["dataset"]["data_dir"] = held.dir;
  root["Eval"]["dataset"]["label_file_list"] = YAML::Load("[" + held.dir + "/det_gt.txt]");
  root["Global"]["eval_batch_step"] = YAML::Load("[0, " + std::to_string(2 * kEpochs) + "]");
  root["Global"]["print_batch_step"] = 10;
  const std::string cfg = train.dir + "/cml.yml";
  test::write_text(cfg, YAML::Dump(root));

  // The untrained Student on the held-out pages (same seed: the run's initial weights).
  double untrained = 0;
  {
    Trainer before(Config::from_string(YAML::Dump(root)));
    untrained = before.evaluate().get("hmean");
  }

  const auto run = test::run_command(test::binary() + " train -c " + cfg, train.dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  for (const char* name : {"dila_dbloss_Student_Teacher:", "dila_dbloss_Student2_Teacher:", "dml_thrink_maps_0:",
                           "db_Student_loss_shrink_maps:", "db_Student_loss_threshold_maps:",
                           "db_Student2_loss_binary_maps:", "Teacher_hmean", "Student2_hmean"})
    EXPECT_NE(run.out.find(name), std::string::npos) << name;
  const double hmean = last_metric(train.save_dir + "/metrics.jsonl", "hmean");
  std::printf("held-out Student hmean: untrained %.3f, after %d steps %.3f\n", untrained, 2 * kEpochs, hmean);
  EXPECT_LT(untrained, 0.2);
  EXPECT_GE(hmean, 0.7);

  const std::string out = train.dir + "/inference";
  const auto exported = test::run_command(test::binary() + " export -c " + cfg + " -o Global.pretrained_model=" +
                                              train.save_dir + "/latest Global.save_inference_dir=" + out,
                                          train.dir);
  ASSERT_EQ(exported.exit_code, 0) << exported.out << exported.err;
  for (const char* m : {"Student", "Student2", "Teacher"}) {
    EXPECT_TRUE(fs::exists(out + "/" + m + "/inference.onnx")) << m;
    EXPECT_TRUE(fs::exists(out + "/" + m + "/inference.yml")) << m;
  }

  const std::string vis = train.dir + "/det_vis";
  const auto infer = test::run_command(test::binary() + " infer det --det_model_dir " + out + "/Student --image_dir " +
                                           held.dir + "/imgs --draw_img_save_dir " + vis,
                                       train.dir);
  ASSERT_EQ(infer.exit_code, 0) << infer.err;
  ASSERT_TRUE(fs::exists(vis + "/det_results.txt"));
  const auto score = test::run_command(
      test::binary() + " eval-det --gt " + held.dir + "/det_gt.txt --pred " + vis + "/det_results.txt", train.dir);
  EXPECT_EQ(score.exit_code, 0) << score.err;
  EXPECT_NE(score.out.find("hmean"), std::string::npos) << score.out;

  const std::string sys = train.dir + "/ocr_vis";
  const auto ocr = test::run_command(test::binary() + " ocr --det_model_dir " + out + "/Student --image_dir " +
                                         held.dir + "/imgs/0.png --draw_img_save_dir " + sys,
                                     train.dir);
  EXPECT_EQ(ocr.exit_code, 0) << ocr.err;
  EXPECT_TRUE(fs::exists(sys + "/system_results.txt"));

  // The distillation checkpoint itself is not a detector folder: the error says to export.
  const auto direct = test::run_command(test::binary() + " infer det --det_model_dir " + train.save_dir +
                                            " --image_dir " + held.dir + "/imgs/0.png",
                                        train.dir);
  EXPECT_NE(direct.exit_code, 0);
  EXPECT_NE(direct.err.find("export it first"), std::string::npos) << direct.err;
}
