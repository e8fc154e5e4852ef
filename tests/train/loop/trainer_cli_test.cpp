// `ocrforge train` / `eval` / `infer rec` on a checkpoint, as a user runs
// them, including SIGTERM during training (label: slow).
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include "ocrforge/train/loop/cpu_bf16.h"
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "train/tasks/rec/trainer_fixture.h"

namespace fs = std::filesystem;
using namespace ocrforge;

static std::string write_config(const test::TinyTask& t, int epochs) {
  const std::string path = t.dir + "/tiny.yml";
  test::write_text(path, test::tiny_config(t, epochs, 8));
  return path;
}

TEST(TrainCli, SigtermSavesLatestAndResumeFinishes) {
  auto t = test::make_tiny_task("cli_sigterm", 32);
  const std::string cfg = write_config(t, 500);
  const std::string log = t.dir + "/train_out.txt";
  // Start training in the background, then stop it once it has saved an epoch.
  const std::string cmd = test::binary() + " train -c " + cfg + " > " + log + " 2>&1 & echo $! > " + t.dir + "/pid";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string pid = test::read_text(t.dir + "/pid");
  for (int i = 0; i < 600 && !fs::exists(t.save_dir + "/latest.ckpt"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs::exists(t.save_dir + "/latest.ckpt")) << test::read_text(log);
  std::system(("kill -TERM " + pid).c_str());
  // The exit status of the background job: wait for the process to end.
  for (int i = 0; i < 300 && std::system(("kill -0 " + pid + " 2>/dev/null").c_str()) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string out = test::read_text(log);
  EXPECT_NE(out.find("signal 15 received: saving latest and stopping"), std::string::npos) << out;
  auto resumed = test::run_command(test::binary() + " train -c " + cfg + " -o Global.epoch_num=3 Global.checkpoints=" +
                                       t.save_dir + "/latest",
                                   t.dir);
  // Stopped after epoch >= 1 of 500; with epoch_num 3 the resume ends at 3 (or
  // at once if the stop came later than epoch 3).
  EXPECT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("resume from"), std::string::npos) << resumed.out;
}

TEST(TrainCli, EvalAndInferFromCheckpoint) {
  auto t = test::make_tiny_task("cli_eval", 16);
  const std::string cfg = write_config(t, 2);
  auto train = test::run_command(test::binary() + " train -c " + cfg, t.dir);
  ASSERT_EQ(train.exit_code, 0) << train.err;
  EXPECT_NE(train.out.find("epoch: [2/2]"), std::string::npos);
  auto eval = test::run_command(test::binary() + " eval -c " + cfg + " -o Global.checkpoints=" + t.save_dir + "/latest", t.dir);
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  EXPECT_NE(eval.out.find("norm_edit_dis: "), std::string::npos) << eval.out;
  auto infer = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.save_dir + " --image_dir " + t.dir +
                                     "/imgs/0.png",
                                 t.dir);
  ASSERT_EQ(infer.exit_code, 0) << infer.err;
  EXPECT_NE(infer.out.find("Predicts of "), std::string::npos);
}

TEST(TrainCli, ConfigMistakesExitTwoNamingTheKey) {
  auto t = test::make_tiny_task("cli_badcfg", 4);
  const std::string cfg = write_config(t, 1);
  auto r = test::run_command(test::binary() + " train -c " + cfg + " -o Optimizer.lr.warmup_epochs=2", t.dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("warmup_epoch"), std::string::npos) << r.err;
  auto b = test::run_command(test::binary() + " train -c " + cfg + " -o Architecture.Backbone.name=MobileNetV9", t.dir);
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("MobileNetV1Enhance"), std::string::npos) << b.err;
  if (cpu_bf16_instructions().empty()) {  // with native bf16 it trains (cpu_bf16_test.cpp)
    auto g = test::run_command(test::binary() + " train -c " + cfg + " -o Global.use_amp=True", t.dir);
    EXPECT_NE(g.exit_code, 0);
    EXPECT_NE(g.err.find("use_amp"), std::string::npos) << g.err;
  }
  auto m = test::run_command(test::binary() + " train -c " + t.dir + "/missing.yml", t.dir);
  EXPECT_EQ(m.exit_code, 2);  // a config that cannot be read is a usage error
  EXPECT_NE(m.err.find("missing.yml"), std::string::npos) << m.err;
}

// Nonsense values, wrong kinds and a missing dictionary are usage errors
// naming the config key (not an inference flag, not "internal error").
TEST(TrainCli, NonsenseValuesExitTwoNamingTheKey) {
  auto t = test::make_tiny_task("cli_ranges", 4);
  const std::string cfg = write_config(t, 1);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Global.epoch_num=-1", "Global.epoch_num: must be >= 1"},
      {"Optimizer.lr.learning_rate=-1", "Optimizer.lr.learning_rate: must be > 0"},
      {"Optimizer.name=AdamW Optimizer.one_dim_param_no_weight_decay=maybe", "Optimizer.one_dim_param_no_weight_decay"},
      {"Global.character_dict_path=" + t.dir + "/no_dict.txt", "Global.character_dict_path"},
  };
  for (const auto& [overrides, expected] : cases) {
    auto r = test::run_command(test::binary() + " train -c " + cfg + " -o " + overrides, t.dir);
    EXPECT_NE(r.exit_code, 0) << overrides;
    EXPECT_NE(r.err.find(expected), std::string::npos) << overrides << ": " << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  }
}
