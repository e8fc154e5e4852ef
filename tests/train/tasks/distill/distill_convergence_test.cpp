// The point of distillation (label: slow): a frozen teacher that already
// reads a tiny set makes a student converge faster than the same student
// trained alone. Each pair of students starts from the same weights (same
// seed, the Student is built first), sees the same batches in the same order
// and is scored on held-out crops (another 32 rendered numbers) every 20
// steps; the only difference is the DML term against the teacher.
//
// One pair is one draw: how fast a tiny CTC model leaves its plateau depends
// on its seed, and on the CPU kind's float rounding, as much as on the
// teacher. So the claim is about three pairs (seeds 1, 2, 3): the distilled
// students' held-out curves lie higher on average (the area under them) by a
// margin that the spread over seeds and CPU kinds leaves room for
// (docs/architecture.md, "CPU kinds").
// ctest-labels: convergence train (trains for about a minute on one thread)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ocrforge/train/loop/trainer.h"
#include "train/tasks/distill/distill_fixture.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {

// Student norm_edit_dis at each evaluation of a run (metrics.jsonl).
std::vector<double> eval_curve(const std::string& save_dir) {
  std::vector<double> v;
  std::ifstream in(save_dir + "/metrics.jsonl");
  for (std::string line; std::getline(in, line);) v.push_back(nlohmann::json::parse(line).at("norm_edit_dis"));
  return v;
}

// The seeds of the student pairs, and the least mean gain in held-out
// norm_edit_dis (area under the curve) that counts as faster.
const int kSeeds[] = {1, 2, 3};
const double kMinMeanGain = 0.02;

Config held_out_eval(const std::string& yaml, const test::TinyTask& held_out, const std::string& save_dir, int seed) {
  Config c = Config::from_string(yaml);
  c.apply_overrides({"Global.seed=" + std::to_string(seed), "Global.num_threads=1", "Eval.dataset.data_dir=" + held_out.dir,
                     "Eval.dataset.label_file_list=[" + held_out.dir + "/rec_gt.txt]",
                     "Global.eval_batch_step=[0, 20]", "Global.save_model_dir=" + save_dir});
  return c;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

std::string show(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : " ") + std::to_string(x).substr(0, 5);
  return s;
}

}  // namespace

TEST(DistillConvergence, FrozenTeacherMakesStudentsConvergeFasterThanAloneOnAverage) {
  const auto t = test::make_tiny_task("distill_conv", 32, 7);
  const auto held_out = test::make_tiny_task("distill_conv_heldout", 32, 99);

  // The teacher: 400 steps on the training crops, evaluated on them every
  // 50; its best evaluation teaches.
  {
    Config c = Config::from_string(test::tiny_config(t, 200, 16));
    c.apply_overrides({"Global.eval_batch_step=[0, 50]", "Global.num_threads=1"});
    Trainer teacher(c);
    ASSERT_EQ(teacher.train(), TrainOutcome::Completed);
  }
  const std::string teacher_ckpt = t.save_dir + "/best_accuracy";
  {
    Config c = Config::from_string(test::tiny_config(t, 200, 16));
    c.apply_overrides({"Global.checkpoints=" + teacher_ckpt, "Global.num_threads=1"});
    const EvalMetrics r = Trainer(c, TrainerMode::Eval).evaluate();
    ASSERT_GE(r.get("norm_edit_dis"), 0.95) << "the teacher must read its training crops for this test to mean anything";
  }

  // Per seed, 200 steps each (50 epochs of 4 batches), evaluated every 20.
  std::vector<double> gains;
  std::string curves;
  for (int seed : kSeeds) {
    const std::string tag = "/seed" + std::to_string(seed);
    const std::string alone_dir = t.dir + tag + "/alone", distilled_dir = t.dir + tag + "/distilled";
    {
      Trainer alone(held_out_eval(test::tiny_config(t, 50, 8), held_out, alone_dir, seed));
      ASSERT_EQ(alone.train(), TrainOutcome::Completed);
    }
    {
      test::DistillOptions o;
      o.teacher_pretrained = teacher_ckpt;
      Trainer distilled(held_out_eval(test::tiny_distill_config(t, 50, 8, o), held_out, distilled_dir, seed));
      ASSERT_EQ(distilled.train(), TrainOutcome::Completed);
      const std::string log = test::read_text(distilled_dir + "/train.log");
      EXPECT_NE(log.find("dml_ctc_0"), std::string::npos) << "the DML term is logged";
      EXPECT_NE(log.find("Teacher_acc"), std::string::npos) << "the teacher's metrics are logged with its prefix";
    }
    const auto a = eval_curve(alone_dir), d = eval_curve(distilled_dir);
    ASSERT_EQ(a.size(), 10u);
    ASSERT_EQ(d.size(), a.size());
    gains.push_back(mean(d) - mean(a));
    curves += "seed " + std::to_string(seed) + ": alone " + show(a) + " | distilled " + show(d) + " | gain " +
              std::to_string(gains.back()).substr(0, 6) + "\n";
  }
  std::cout << curves;
  // The mean gain over the seeds, not each seed's: one pair may come out
  // even by chance while the effect is real.
  EXPECT_GT(mean(gains), kMinMeanGain) << curves;
}
