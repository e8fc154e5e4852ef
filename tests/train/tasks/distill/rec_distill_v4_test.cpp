// PP-OCRv4's recognition distillation recipe (DKD on the NRTR outputs, the
// student's CTC and NRTR losses, DistillCTCLogits) with the server
// recognizer's network as teacher (configs/rec/ch_PP-OCRv4_rec_hgnet_distillation.yml):
// it builds with the NRTR branch kept where a term reads it, one step gives
// PaddleOCR's four loss values, the frozen teacher gets no gradient and the
// student's NRTR branch does; the two loss functions are PaddleOCR's; a
// member's `pretrained` takes PaddleOCR's inference.onnx (the shipped
// PP-OCRv4 recognizer as the student computes what ONNX Runtime does on it).
// ctest-labels: model train (runs the shipped recognizer in ONNX Runtime)
#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/distill/distill_losses.h"
#include "ocrforge/train/tasks/distill/rec_distill_task.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"
#include "train/onnx/shipped_model_inputs.h"
#include "train/tasks/rec/trainer_fixture.h"

namespace ocrforge {
namespace {

Config hgnet_recipe(const test::TinyTask& t) {
  Config c = Config::load_file(test::source_dir() + "/configs/rec/ch_PP-OCRv4_rec_hgnet_distillation.yml");
  c.apply_overrides({"Global.character_dict_path=" + t.dict, "Train.dataset.data_dir=" + t.dir,
                     "Train.dataset.label_file_list=[" + t.dir + "/rec_gt.txt]", "Train.loader.batch_size_per_card=2",
                     "Train.loader.num_workers=0", "Eval.dataset.data_dir=" + t.dir,
                     "Eval.dataset.label_file_list=[" + t.dir + "/rec_gt.txt]"});
  return c;
}

TEST(RecDistillV4, HgnetTeacherRecipeStepsWithPaddleOcrsFourTerms) {
  const auto t = test::make_tiny_task("distill_v4_hgnet", 4);
  const Config c = hgnet_recipe(t);
  check_config_keys(c);
  torch::manual_seed(1);
  auto task = make_task(c, trainer_spec_from_config(c), torch::kCPU);
  auto* d = dynamic_cast<RecDistillTask*>(task.get());
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->member("Teacher").arch.backbone.name, "PPHGNet_small");
  EXPECT_EQ(d->member("Student").arch.backbone.name, "PPLCNetV3");
  // DKD reads both NRTR outputs, so both members keep the branch.
  EXPECT_TRUE(d->member("Teacher").arch.nrtr.has_value());
  EXPECT_TRUE(d->member("Student").arch.nrtr.has_value());

  auto loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  task->model().train();
  const StepLoss s = task->train_step(batch);
  std::vector<std::string> names;
  double sum = 0;
  for (const auto& [n, v] : s.parts) {
    names.push_back(n);
    sum += v;
    EXPECT_TRUE(std::isfinite(v)) << n;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"dkd_0", "loss_ctc_Student_0", "loss_nrtr_Student_0", "ctc_logits_0"}));
  EXPECT_NEAR(s.loss.item<double>(), sum, 1e-4 * std::abs(sum));
  s.loss.backward();
  const auto params = task->model().named_parameters();
  for (const auto& p : params)
    if (p.key().rfind("Teacher.", 0) == 0) EXPECT_FALSE(p.value().grad().defined()) << p.key();
  // The student's NRTR branch learns from its NRTR loss and the DKD term.
  const torch::Tensor g = params["Student.gtc_head.tgt_word_prj.weight"].grad();
  ASSERT_TRUE(g.defined());
  EXPECT_GT(g.abs().sum().item<double>(), 0.0);
}

TEST(RecDistillV4, AMembersPretrainedMayBeTheShippedInferenceFile) {
  const auto t = test::make_tiny_task("distill_v4_shipped", 2);
  Config c = hgnet_recipe(t);
  c.apply_overrides({"Global.character_dict_path=" + test::model_root() + "/ppocr_keys_v1.txt",
                     "Architecture.Models.Student.pretrained=" + test::model_root() + "/rec/inference.onnx"});
  auto task = make_task(c, trainer_spec_from_config(c), torch::kCPU);
  auto* d = dynamic_cast<RecDistillTask*>(task.get());
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->member("Student").arch.backbone.rep_deploy);  // built in the file's fused form
  RecModel student = d->member("Student").native;
  student->eval();
  torch::NoGradGuard g;
  const torch::Tensor x = test::sample_picture("ch_word_3.jpg", 48, 320, false);
  const double diff =
      (student->predict(x) - test::ort_output(test::model_root() + "/rec/inference.onnx", "rec", x)).abs().max()
          .item<double>();
  EXPECT_LE(diff, 1e-4);
}

TEST(RecDistillV4, NrtrTermsNeedAnNrtrBranch) {
  const auto t = test::make_tiny_task("distill_v4_nobranch", 4);
  Config c = hgnet_recipe(t);
  YAML::Node root = YAML::Clone(c.root());
  YAML::Node heads = root["Architecture"]["Models"]["Teacher"]["Head"]["head_list"];
  YAML::Node ctc_only;
  ctc_only.push_back(heads[0]);
  root["Architecture"]["Models"]["Teacher"]["Head"]["head_list"] = ctc_only;
  const Config bad = Config::from_string(YAML::Dump(root));
  const std::string msg =
      test::message_of<UsageError>([&] { make_task(bad, trainer_spec_from_config(bad), torch::kCPU); });
  EXPECT_NE(msg.find("'Teacher' has no NRTR branch"), std::string::npos) << msg;
  EXPECT_NE(msg.find("DistillationDKDLoss"), std::string::npos) << msg;
}

// DKD as PaddleOCR's DKDLoss computes it, written out for one position.
TEST(RecDistillV4, DkdIsPaddleOcrs) {
  const torch::Tensor s = torch::tensor({1.0f, 2.0f, 0.5f}).view({1, 1, 3});
  const torch::Tensor te = torch::tensor({0.2f, 3.0f, 1.0f}).view({1, 1, 3});
  const torch::Tensor target = torch::tensor({1}, torch::kLong).view({1, 1});
  const double T = 2.0, alpha = 1.0, beta = 2.0;
  const auto soft = [&](const torch::Tensor& x) { return torch::softmax(x.view({3}) / T, 0); };
  const torch::Tensor ps = soft(s), pt = soft(te);
  // Target class 1 against the others.
  const double bs[2] = {ps[1].item<double>(), 1 - ps[1].item<double>()};
  const double bt[2] = {pt[1].item<double>(), 1 - pt[1].item<double>()};
  double tckd = 0;
  for (int i = 0; i < 2; ++i) tckd += bt[i] * (std::log(bt[i] + 1e-10) - std::log(bs[i]));
  // Among classes 0 and 2 only (the target masked by -1000).
  const auto others = [&](const torch::Tensor& x) {
    const double a = x.view({3})[0].item<double>() / T, b = x.view({3})[2].item<double>() / T;
    const double m = std::max(a, b), z = std::exp(a - m) + std::exp(b - m);
    return std::pair<double, double>{std::exp(a - m) / z, std::exp(b - m) / z};
  };
  const auto [s0, s2] = others(s);
  const auto [t0, t2] = others(te);
  const double nckd = t0 * (std::log(t0 + 1e-10) - std::log(s0)) + t2 * (std::log(t2 + 1e-10) - std::log(s2));
  const double expected = (alpha * tckd + beta * nckd) * T * T;
  EXPECT_NEAR(dkd_loss(s, te, target, T, alpha, beta).item<double>(), expected, 1e-5);
  EXPECT_NEAR(dkd_loss(te, te, target, T, alpha, beta).item<double>(), 0.0, 1e-6);
}

TEST(RecDistillV4, CtcLogitsKlNegatesTheBlankAndAveragesOverTime) {
  torch::manual_seed(2);
  const torch::Tensor a = torch::randn({2, 5, 4});
  // The same distributions: only PaddleOCR's eps terms remain.
  EXPECT_NEAR(ctc_logits_kl(a, a).item<double>(), 0.0, 1e-5);
  // Written out: negate the blank, softmax at 0.5, average over time.
  const torch::Tensor b = torch::randn({2, 5, 4});
  const torch::Tensor sign = torch::tensor({-1.0f, 1.0f, 1.0f, 1.0f});
  const torch::Tensor s = torch::softmax(a * sign / 0.5, -1).mean(1), q = torch::softmax(b * sign / 0.5, -1).mean(1);
  const double expected = (q * torch::log((q + 1e-6) / (s + 1e-6) + 1e-6)).sum().item<double>() / 2;
  EXPECT_NEAR(ctc_logits_kl(a, b).item<double>(), expected, 1e-6);
  // Time order does not matter (the distributions are averaged over it).
  EXPECT_NEAR(ctc_logits_kl(a.flip(1), b).item<double>(), expected, 1e-6);
}

}  // namespace
}  // namespace ocrforge
