// DB detection on the task-free trainer, end to end on a tiny task
// (label: slow): the tiny det model overfits a few synthetic pages, and the
// evaluation uses the inference post-processing and DetMetric.
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include <gtest/gtest.h>

#include <filesystem>

#include "det_fixture.h"
#include "ocrforge/core/config.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/tasks/det/det_task.h"

namespace fs = std::filesystem;
using namespace ocrforge;

static Config det_config(const test::TinyDetTask& t, int epochs, int batch, std::vector<std::string> overrides = {}) {
  Config c = Config::from_string(test::tiny_det_config(t, epochs, batch));
  c.apply_overrides(overrides);
  return c;
}

TEST(DetTrainer, OverfitsTinyPagesToHmeanAbove0_9) {
  auto t = test::make_tiny_det_task("det_overfit", 4);
  ASSERT_GE(t.boxes, 8);
  Trainer trainer(det_config(t, 300, 4));  // 300 steps of batch 4; hmean reached 1.0 at step 250 here
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  const EvalMetrics m = trainer.evaluate();
  EXPECT_EQ(m.samples, 4);
  EXPECT_GE(m.get("hmean"), 0.9) << "precision " << m.get("precision") << " recall " << m.get("recall");
  const std::string log = test::read_text(t.save_dir + "/train.log");
  for (const char* part : {"loss_shrink_maps:", "loss_threshold_maps:", "loss_binary_maps:"})
    EXPECT_NE(log.find(part), std::string::npos) << part;
  EXPECT_TRUE(fs::exists(t.save_dir + "/latest.ckpt"));
}

TEST(DetTrainer, UntrainedModelFindsNothingUseful) {
  // The same evaluation before training: the metric can fail.
  auto t = test::make_tiny_det_task("det_untrained", 4);
  Trainer trainer(det_config(t, 1, 4));
  const EvalMetrics m = trainer.evaluate();
  EXPECT_LT(m.get("hmean"), 0.5);
}

TEST(DetTrainer, ResumeEqualsUninterruptedRun) {
  auto t = test::make_tiny_det_task("det_resume", 4);
  const std::string straight = t.dir + "/straight", split = t.dir + "/split";
  {
    Trainer a(det_config(t, 2, 2, {"Global.save_model_dir=" + straight, "Global.deterministic=true"}));
    ASSERT_EQ(a.train(), TrainOutcome::Completed);
  }
  {
    Trainer b(det_config(t, 1, 2, {"Global.save_model_dir=" + split, "Global.deterministic=true"}));
    ASSERT_EQ(b.train(), TrainOutcome::Completed);
    Trainer c(det_config(t, 2, 2, {"Global.save_model_dir=" + split, "Global.deterministic=true",
                                   "Global.checkpoints=" + split + "/latest"}));
    ASSERT_EQ(c.train(), TrainOutcome::Completed);
  }
  const Config cfg = det_config(t, 2, 2);
  DetModel m1(det_arch_from_yaml(cfg.root()["Architecture"])), m2(det_arch_from_yaml(cfg.root()["Architecture"]));
  load_checkpoint(straight + "/latest", *m1, nullptr);
  load_checkpoint(split + "/latest", *m2, nullptr);
  auto w1 = model_state(*m1), w2 = model_state(*m2);
  ASSERT_EQ(w1.size(), w2.size());
  for (auto& [name, tensor] : w1)
    EXPECT_LE((tensor - w2.at(name)).abs().max().item<double>(), 1e-5) << name;
}

TEST(DetTrainer, PostProcessKeysAreReadWithRanges) {
  const DbPostParams p = db_post_params_from_yaml(
      YAML::Load("{name: DBPostProcess, thresh: 0.2, box_thresh: 0.5, unclip_ratio: 2.0, score_mode: slow}"));
  EXPECT_FLOAT_EQ(p.thresh, 0.2f);
  EXPECT_FLOAT_EQ(p.unclip_ratio, 2.0f);
  EXPECT_EQ(p.score_mode, DbScoreMode::Slow);
  EXPECT_THROW(db_post_params_from_yaml(YAML::Load("{name: DBPostProcess, thresh: 1.5}")), UsageError);
  EXPECT_THROW(db_post_params_from_yaml(YAML::Load("{name: CTCLabelDecode}")), UsageError);
}
