// The recognition trainer end to end on a tiny task (label: slow).
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include "ocrforge/train/loop/trainer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "test_support.h"
#include "train/tasks/rec/trainer_fixture.h"

namespace fs = std::filesystem;
using namespace ocrforge;

static Config config_for(const test::TinyTask& t, int epochs, int batch, std::vector<std::string> overrides = {}) {
  Config c = Config::from_string(test::tiny_config(t, epochs, batch));
  c.apply_overrides(overrides);
  return c;
}

TEST(Trainer, OverfitsTinyTaskToFullAccuracy) {
  auto t = test::make_tiny_task("overfit", 64);
  // 400 steps, evaluated every 40: with a constant lr of 0.005 the training
  // accuracy oscillates near the end, so the test asks for the best
  // evaluation (best_accuracy, as a user would keep) to read every crop.
  Trainer trainer(config_for(t, 100, 16, {"Global.eval_batch_step=[0, 40]"}));
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  EXPECT_TRUE(fs::exists(t.save_dir + "/latest.ckpt"));
  EXPECT_TRUE(fs::exists(t.save_dir + "/config.yml"));
  EXPECT_NE(test::read_text(t.save_dir + "/train.log").find("global_step: 400"), std::string::npos);
  Trainer best(config_for(t, 100, 16, {"Global.checkpoints=" + t.save_dir + "/best_accuracy"}), TrainerMode::Eval);
  EvalMetrics r = best.evaluate();
  EXPECT_EQ(r.samples, 64);
  EXPECT_DOUBLE_EQ(r.get("acc"), 1.0) << "norm_edit_dis " << r.get("norm_edit_dis");
}

TEST(Trainer, ResumeEqualsUninterruptedRun) {
  auto t = test::make_tiny_task("resume", 32);
  const std::string straight = t.dir + "/straight", split = t.dir + "/split";
  {
    Trainer a(config_for(t, 2, 8, {"Global.save_model_dir=" + straight}));
    ASSERT_EQ(a.train(), TrainOutcome::Completed);
  }
  {
    // Interrupted mid-epoch 2 (step 6 of 8), as SIGTERM would, then resumed.
    Trainer b(config_for(t, 2, 8, {"Global.save_model_dir=" + split}));
    b.set_step_callback([](long step, torch::nn::Module&) {
      if (step == 6) request_stop(SIGTERM);
    });
    ASSERT_EQ(b.train(), TrainOutcome::Stopped);
    clear_stop_request();
    Trainer c(config_for(t, 2, 8, {"Global.save_model_dir=" + split, "Global.checkpoints=" + split + "/latest"}));
    ASSERT_EQ(c.train(), TrainOutcome::Completed);
  }
  const Config cfg = config_for(t, 2, 8);
  RecModel m1(rec_arch_from_yaml(cfg.root()["Architecture"], 11)), m2(rec_arch_from_yaml(cfg.root()["Architecture"], 11));
  CheckpointData d1 = load_checkpoint(straight + "/latest", *m1, nullptr);
  CheckpointData d2 = load_checkpoint(split + "/latest", *m2, nullptr);
  EXPECT_EQ(d1.progress.global_step, d2.progress.global_step);
  EXPECT_EQ(d1.progress.epoch, 2);
  auto w1 = model_state(*m1), w2 = model_state(*m2);
  ASSERT_EQ(w1.size(), w2.size());
  for (auto& [name, tensor] : w1) {
    const double diff = (tensor - w2.at(name)).abs().max().item<double>();
    EXPECT_LE(diff, 1e-5) << name;
  }
}

TEST(Trainer, NanLossStopsAndKeepsLastGoodCheckpoint) {
  auto t = test::make_tiny_task("nan", 16);
  Trainer trainer(config_for(t, 3, 8));
  trainer.set_step_callback([](long step, torch::nn::Module& model) {
    if (step == 3) {  // epoch 2: poison the weights
      torch::NoGradGuard g;
      for (auto& p : model.parameters()) p.fill_(std::numeric_limits<float>::quiet_NaN());
    }
  });
  ASSERT_EQ(trainer.train(), TrainOutcome::NanLoss);
  RecModel m(rec_arch_from_yaml(config_for(t, 3, 8).root()["Architecture"], 11));
  CheckpointData d = load_checkpoint(t.save_dir + "/latest", *m, nullptr);
  EXPECT_EQ(d.progress.epoch, 1);  // the state after epoch 1, untouched
  for (auto& [name, tensor] : model_state(*m)) EXPECT_FALSE(tensor.isnan().any().item<bool>()) << name;
  EXPECT_NE(test::read_text(t.save_dir + "/train.log").find("training stopped"), std::string::npos);
}

TEST(Trainer, CheckpointOfOtherArchitectureIsRejectedWithKeys) {
  auto t = test::make_tiny_task("mismatch", 8);
  {
    Trainer a(config_for(t, 1, 8));
    ASSERT_EQ(a.train(), TrainOutcome::Completed);
  }
  try {
    Trainer b(config_for(t, 1, 8, {"Architecture.Neck.hidden_size=16", "Global.checkpoints=" + t.save_dir + "/latest"}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("does not fit this model"), std::string::npos) << msg;
    EXPECT_NE(msg.find("shape mismatches: head.fc.weight, neck.encoder.lstm"), std::string::npos) << msg;
  }
}

TEST(Trainer, EvaluationWritesMetricsAndCurve) {
  auto t = test::make_tiny_task("evalrecord", 16);
  Trainer trainer(config_for(t, 2, 8, {"Global.eval_batch_step=[0, 2]"}));
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  const std::string metrics = test::read_text(t.save_dir + "/metrics.jsonl");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 2);  // steps 2 and 4
  EXPECT_TRUE(fs::exists(t.save_dir + "/training_curve.png"));
  EXPECT_TRUE(fs::exists(t.save_dir + "/best_accuracy.ckpt"));
  const std::string log = test::read_text(t.save_dir + "/train.log");
  EXPECT_NE(log.find("cur metric, acc:"), std::string::npos);
  EXPECT_NE(log.find("best metric, acc:"), std::string::npos);
}

// Global.calc_epoch_interval (PaddleOCR's tools/program.py, PP-OCRv5 server
// rec): the training metric is computed in the epochs divisible by it only;
// in the others the log shows the last computed (smoothed) values unchanged.
TEST(Trainer, CalcEpochIntervalComputesTheTrainingMetricInThoseEpochsOnly) {
  auto t = test::make_tiny_task("calc_epoch_interval", 8);
  Trainer trainer(config_for(t, 3, 4, {"Global.calc_epoch_interval=2", "Global.print_batch_step=1"}));
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  std::map<int, std::vector<std::string>> acc_by_epoch;  // the acc field of each step line, per epoch
  std::istringstream log(test::read_text(t.save_dir + "/train.log"));
  for (std::string line; std::getline(log, line);) {
    const size_t e = line.find("epoch: [");
    if (e == std::string::npos || line.find("global_step: ") == std::string::npos) continue;
    const int epoch = std::stoi(line.substr(e + 8));
    const size_t a = line.find(", acc: ");
    acc_by_epoch[epoch].push_back(a == std::string::npos ? "" : line.substr(a + 7, line.find(',', a + 7) - a - 7));
  }
  ASSERT_EQ(acc_by_epoch.size(), 3u);
  for (const auto& v : acc_by_epoch[1]) EXPECT_EQ(v, "") << "epoch 1 is not divisible by 2: no metric yet";
  for (const auto& v : acc_by_epoch[2]) EXPECT_NE(v, "");
  ASSERT_EQ(acc_by_epoch[3].size(), 2u);
  for (const auto& v : acc_by_epoch[3]) EXPECT_EQ(v, acc_by_epoch[2].back()) << "epoch 3: nothing new computed";

  const std::string msg = test::message_of<UsageError>(
      [&] { Trainer bad(config_for(t, 1, 4, {"Global.calc_epoch_interval=0"}), TrainerMode::Check); });
  EXPECT_NE(msg.find("Global.calc_epoch_interval"), std::string::npos) << msg;
}

TEST(Trainer, PretrainedLoadsWeightsOnlyAndReportsSkips) {
  auto t = test::make_tiny_task("pretrained", 8);
  {
    Trainer a(config_for(t, 1, 8));
    ASSERT_EQ(a.train(), TrainOutcome::Completed);
  }
  const std::string other = t.dir + "/other";
  Trainer b(config_for(t, 1, 8, {"Global.save_model_dir=" + other, "Architecture.Neck.hidden_size=16",
                                    "Global.pretrained_model=" + t.save_dir + "/latest"}));
  ASSERT_EQ(b.train(), TrainOutcome::Completed);
  const std::string log = test::read_text(other + "/train.log");
  EXPECT_NE(log.find("load pretrained model"), std::string::npos);
  EXPECT_NE(log.find("(shape mismatch)"), std::string::npos);
}

// One training run per save_model_dir (issue 29): while another process
// holds the folder's lock, a run into it stops before writing anything,
// naming the key and the holder. The lock is taken here on a descriptor of
// its own, which flock(2) treats as another holder.
TEST(Trainer, ASecondRunIntoTheSameSaveModelDirIsRefusedNamingTheHolder) {
  auto t = test::make_tiny_task("save_dir_locked", 8);
  fs::create_directories(t.save_dir);
  const std::string lock_path = t.save_dir + "/.ocrforge.lock";
  test::write_text(lock_path, "pid 4242 on another-host since 2026-12-03 10:00:00\n");
  const int fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string message = test::message_of<Error>([&] { Trainer trainer(config_for(t, 1, 8)); });
  ::close(fd);
  EXPECT_NE(message.find("Global.save_model_dir"), std::string::npos) << message;
  EXPECT_NE(message.find("pid 4242 on another-host"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(t.save_dir + "/train.log")) << "nothing may be written into a folder in use";
  EXPECT_FALSE(fs::exists(t.save_dir + "/config.yml"));
  // Released: the same folder trains.
  Trainer trainer(config_for(t, 1, 8));
  EXPECT_EQ(trainer.train(), TrainOutcome::Completed);
}

TEST(Trainer, ASaveModelDirThatCannotBeCreatedIsAnErrorNamingTheKey) {
  auto t = test::make_tiny_task("save_dir_unusable", 8);
  test::write_text(t.dir + "/a_file", "x");
  const std::string message = test::message_of<Error>(
      [&] { Trainer trainer(config_for(t, 1, 8, {"Global.save_model_dir=" + t.dir + "/a_file/out"})); });
  EXPECT_NE(message.find("Global.save_model_dir '" + t.dir + "/a_file/out': cannot create the folder"),
            std::string::npos)
      << message;
}
