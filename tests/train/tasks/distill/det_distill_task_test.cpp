// The detection distillation task (PP-OCRv3 CML) on hand-made batches: the
// loss parts carry PaddleOCR's names and equal the loss functions on the
// members' maps, the gradient has PaddleOCR's scale, frozen teachers stay
// fixed; per-member pretrained weights; PaddleOCR's own CML file builds and
// trains a step; config mistakes name the key.
#include "ocrforge/train/tasks/distill/det_distill_task.h"

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/distill/det_distill_losses.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "train/tasks/distill/det_distill_fixture.h"
#include "test_support.h"

using namespace ocrforge;

namespace {

std::unique_ptr<DetDistillTask> build(const Config& c) {
  auto task = make_task(c, trainer_spec_from_config(c), torch::kCPU);
  auto* d = dynamic_cast<DetDistillTask*>(task.get());
  if (!d) return nullptr;
  task.release();
  return std::unique_ptr<DetDistillTask>(d);
}

// A batch of n images (h x w) whose labels are one text rectangle each.
Batch batch_of(int64_t n, int64_t h, int64_t w) {
  torch::manual_seed(21);
  Batch b;
  b.tensors["image"] = torch::randn({n, 3, h, w});
  auto shrink = torch::zeros({n, h, w});
  shrink.narrow(1, h / 4, h / 4).narrow(2, w / 8, w / 2).fill_(1.0);
  b.tensors["shrink_map"] = shrink;
  b.tensors["shrink_mask"] = torch::ones({n, h, w});
  b.tensors["threshold_map"] = 0.3 + 0.4 * torch::rand({n, h, w});
  b.tensors["threshold_mask"] = (torch::rand({n, h, w}) > 0.5).to(torch::kFloat32);
  for (int64_t i = 0; i < n; ++i) b.paths.push_back("img" + std::to_string(i));
  return b;
}

double part(const StepLoss& s, const std::string& name) {
  for (const auto& [k, v] : s.parts)
    if (k == name) return v;
  ADD_FAILURE() << "no loss part " << name;
  return 0;
}

std::string error_of(const std::string& yaml) {
  return ocrforge::test::message_of<UsageError>([&] {
    Config c = Config::from_string(yaml);
    build(c);
  });
}

}  // namespace

TEST(DetDistillTask, StepPartsArePaddleOcrsTermsOnTheMembersMaps) {
  const auto t = test::make_tiny_det_task("cml_step", 1);
  const Config c = Config::from_string(test::tiny_cml_config(t, 1, 2));
  auto task = build(c);
  ASSERT_TRUE(task);
  const Batch b = batch_of(2, 64, 64);
  task->model().train();
  const StepLoss s = task->train_step(b);

  std::vector<std::string> names;
  for (const auto& p : s.parts) names.push_back(p.first);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "dila_dbloss_Student_Teacher", "dila_dbloss_Student2_Teacher", "dml_thrink_maps_0",
                       "db_Student_loss_shrink_maps", "db_Student_loss_threshold_maps", "db_Student_loss_binary_maps",
                       "db_Student2_loss_shrink_maps", "db_Student2_loss_threshold_maps",
                       "db_Student2_loss_binary_maps"}));
  double sum = 0;
  for (const auto& p : s.parts) sum += p.second;
  EXPECT_NEAR(s.loss.item<double>(), sum, 1e-4 * std::abs(sum));  // the value is the logged total

  // The same terms computed here from the members' own outputs.
  const auto& x = b.at("image");
  DetModel student = task->member("Student").native, student2 = task->member("Student2").native;
  DetModel teacher = task->member("Teacher").native;
  const torch::Tensor s1 = student->forward(x), s2 = student2->forward(x);
  torch::Tensor tm;
  {
    torch::NoGradGuard g;
    tm = teacher->forward(x);  // frozen: eval mode, the shrink map only
  }
  ASSERT_EQ(tm.size(1), 1);
  const auto& mask = b.at("shrink_mask");
  const double dila = dila_db_loss(s1.select(1, 0), s1.select(1, 2), tm.select(1, 0), mask, {}).item<double>();
  EXPECT_NEAR(part(s, "dila_dbloss_Student_Teacher"), dila, 1e-5);
  const torch::Tensor dml = dml_maps_per_sample(s1.select(1, 0), s2.select(1, 0), "");
  EXPECT_NEAR(part(s, "dml_thrink_maps_0"), dml.mean().item<double>(), 1e-6);
  const DBTargets targets{b.at("shrink_map"), mask, b.at("threshold_map"), b.at("threshold_mask")};
  const DBLossParts db = DBLoss()(s2, targets);
  EXPECT_NEAR(part(s, "db_Student2_loss_threshold_maps"), db.loss_threshold_maps.item<double>(), 1e-5);
  EXPECT_NEAR(part(s, "db_Student2_loss_binary_maps"), db.loss_binary_maps.item<double>(), 1e-5);

  // Gradient: PaddleOCR's per-sample DML makes the total a batch vector
  // seeded with ones, i.e. batch size (2) times the gradient of the mean.
  const torch::Tensor w = student->named_parameters()["head.binarize.conv1.weight"];
  const torch::Tensor w_teacher = teacher->named_parameters()["head.binarize.conv1.weight"];
  auto grad_of = [&](const torch::Tensor& loss) {
    task->model().zero_grad();
    loss.backward();
    return w.grad().clone();
  };
  const torch::Tensor g_step = grad_of(s.loss);
  EXPECT_FALSE(w_teacher.grad().defined() && w_teacher.grad().abs().sum().item<double>() > 0);
  const torch::Tensor mean_total =
      dila_db_loss(s1.select(1, 0), s1.select(1, 2), tm.select(1, 0), mask, {}) +
      dila_db_loss(s2.select(1, 0), s2.select(1, 2), tm.select(1, 0), mask, {}) + dml.mean() +
      DBLoss()(s1, targets).loss + db.loss;
  const torch::Tensor g_mean = grad_of(mean_total);
  EXPECT_GT(g_mean.abs().max().item<double>(), 0.0);
  EXPECT_LE((g_step - 2.0 * g_mean).abs().max().item<double>(), 1e-4 * g_step.abs().max().item<double>() + 1e-7);
}

TEST(DetDistillTask, MembersLoadTheirOwnPretrainedWeights) {
  const auto t = test::make_tiny_det_task("cml_pretrained", 1);
  // A teacher trained alone (a plain det checkpoint) and a whole CML checkpoint.
  const Config alone = Config::from_string(test::tiny_teacher_config(t, 1, 2));
  DetModel teacher(det_arch_from_yaml(alone.root()["Architecture"]));
  {
    torch::NoGradGuard g;
    for (auto& p : teacher->parameters()) p.add_(0.5);
  }
  save_checkpoint(t.dir + "/teacher", *teacher, nullptr, CheckpointData{});
  const Config first = Config::from_string(test::tiny_cml_config(t, 1, 2));
  auto a = build(first);
  {
    torch::NoGradGuard g;
    for (auto& p : a->member("Student").native->parameters()) p.add_(0.25);
  }
  save_checkpoint(t.dir + "/cml", a->model(), nullptr, CheckpointData{});
  const auto keys = model_state(a->model());
  EXPECT_TRUE(keys.count("Teacher.neck.pan_lat_conv.3.weight"));
  EXPECT_TRUE(keys.count("Student2.head.thresh.conv3.bias"));

  test::CmlOptions o;
  o.teacher_pretrained = t.dir + "/teacher";
  YAML::Node root = YAML::Load(test::tiny_cml_config(t, 1, 2, o));
  root["Architecture"]["Models"]["Student"]["pretrained"] = t.dir + "/cml";
  const Config second = Config::from_string(YAML::Dump(root));
  auto b = build(second);
  const auto teacher_state = model_state(*teacher);
  DetModel loaded_teacher = b->member("Teacher").native, loaded_student = b->member("Student").native;
  for (const auto& [name, value] : model_state(*loaded_teacher))
    EXPECT_TRUE(torch::equal(value, teacher_state.at(name))) << name;
  const auto cml_state = model_state(a->model());
  for (const auto& [name, value] : model_state(*loaded_student))
    EXPECT_TRUE(torch::equal(value, cml_state.at("Student." + name))) << name;
  for (const auto& p : b->member("Teacher").native->parameters()) EXPECT_FALSE(p.requires_grad());
}

TEST(DetDistillTask, PaddleOcrsCmlConfigBuildsEveryTermAndTrainsAStep) {
  Config c = Config::load_file(test::source_dir() + "/configs/det/PP-OCRv3/ch_PP-OCRv3_det_cml.yml");
  // Its keys all read: config_keys_test's EveryShippedConfigReadsWithNoUnknownKey.
  auto task = build(c);
  ASSERT_TRUE(task);
  ASSERT_EQ(task->members().size(), 3u);
  EXPECT_EQ(task->members()[2]->spec.name, "Teacher");
  EXPECT_EQ(task->member("Teacher").arch.neck.name, "LKPAN");
  EXPECT_EQ(task->member("Teacher").arch.backbone.layers, 50);
  EXPECT_EQ(task->member("Teacher").arch.head.kernel_list, (std::vector<int>{7, 2, 2}));
  EXPECT_EQ(task->metric_key(), "Student");
  EXPECT_FLOAT_EQ(task->postprocess().box_thresh, 0.6f);
  std::string warnings;
  for (const auto& w : task->startup_warnings()) warnings += w + "\n";
  EXPECT_NE(warnings.find("Architecture.Models.Teacher: frozen"), std::string::npos) << warnings;
  task->model().train();
  const StepLoss s = task->train_step(batch_of(1, 64, 64));
  ASSERT_EQ(s.parts.size(), 9u);
  EXPECT_EQ(s.parts[0].first, "dila_dbloss_Student_Teacher");
  EXPECT_EQ(s.parts[2].first, "dml_thrink_maps_0");
  EXPECT_EQ(s.parts[8].first, "db_Student2_loss_binary_maps");
  for (const auto& [name, value] : s.parts) EXPECT_TRUE(std::isfinite(value)) << name;
}

TEST(DetDistillTask, ConfigMistakesNameTheKey) {
  const auto t = test::make_tiny_det_task("cml_errors", 1);
  const YAML::Node base = YAML::Load(test::tiny_cml_config(t, 1, 2));
  const auto with = [&](const std::function<void(YAML::Node&)>& edit) {
    YAML::Node r = YAML::Clone(base);
    edit(r);
    return error_of(YAML::Dump(r));
  };
  const auto has = [](const std::string& error, const std::string& part) {
    EXPECT_NE(error.find(part), std::string::npos) << "'" << error << "' lacks '" << part << "'";
  };
  has(with([](YAML::Node& r) { r["Architecture"]["Models"]["Student"]["freeze_params"] = true; }),
      "binary map of 'Student'");
  has(with([](YAML::Node& r) { r["Architecture"]["Models"]["Student2"]["Neck"]["name"] = "FPN"; }),
      "Architecture.Models.Student2.Neck.name");
  has(with([](YAML::Node& r) { r["PostProcess"]["name"] = "DBPostProcess"; }), "DistillationDBPostProcess");
  has(with([](YAML::Node& r) { r["PostProcess"]["model_name"] = YAML::Load("[Pupil]"); }), "PostProcess.model_name");
  has(with([](YAML::Node& r) { r["Metric"]["base_metric_name"] = "RecMetric"; }), "Metric.base_metric_name");
  has(with([](YAML::Node& r) { r["Metric"]["key"] = "Student3"; }), "Metric.key");
  has(with([](YAML::Node& r) {
        r["Loss"]["loss_config_list"][2]["DistillationDBLoss"]["model_name_list"] = YAML::Load("[Teacher]");
      }),
      "'Teacher' is frozen");
  has(with([](YAML::Node& r) {
        r["Loss"]["loss_config_list"][1]["DistillationDMLLoss"]["model_name_pairs"] = YAML::Load("[Student, Teacher]");
        r["Loss"]["loss_config_list"][1]["DistillationDMLLoss"]["maps_name"] = "binary_maps";
      }),
      "binary map of 'Teacher'");
  // Every model the loss reads frozen: nothing would train.
  has(with([](YAML::Node& r) {
        r["Loss"] = YAML::Load("{name: CombinedLoss, loss_config_list: [{DistillationDMLLoss: {weight: 1, key: maps, "
                               "maps_name: thrink_maps, model_name_pairs: [Student, Teacher]}}]}");
        r["Architecture"]["Models"]["Student"]["freeze_params"] = true;
      }),
      "nothing would train");
}
