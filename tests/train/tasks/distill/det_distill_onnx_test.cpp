// A deployed ONNX detector as a CML member (label: model, it loads the
// shipped PP-OCRv4 det model): frozen as the teacher it trains the students
// without changing, exports back unchanged; as a DilaDB student it is
// refused by name (its graph has no binary map).
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/export/export_model.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/distill/det_distill_task.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "train/onnx/shipped_model_inputs.h"
#include "train/tasks/distill/det_distill_fixture.h"

using namespace ocrforge;

namespace {
std::string shipped_det() { return test::model_root() + "/det/inference.onnx"; }
}  // namespace

TEST(DetDistillOnnx, ShippedDetectorTeachesFrozenAndExportsUnchanged) {
  const auto t = test::make_tiny_det_task("cml_onnx", 2);
  test::CmlOptions o;
  o.teacher_onnx = shipped_det();
  Config c = Config::from_string(test::tiny_cml_config(t, 1, 2, o));
  auto task = make_task(c, trainer_spec_from_config(c), torch::kCPU);
  auto* d = dynamic_cast<DetDistillTask*>(task.get());
  ASSERT_NE(d, nullptr);
  ASSERT_TRUE(d->member("Teacher").onnx);
  for (const auto& p : d->member("Teacher").onnx->parameters()) EXPECT_FALSE(p.requires_grad());
  OnnxGraphModule teacher = d->member("Teacher").onnx;
  const auto before = model_state(*teacher);

  // One step on a real page: the teacher's map gives the students a label.
  Batch b;
  b.tensors["image"] = test::sample_picture("imgs_11.jpg", 256, 256, true);
  b.tensors["shrink_map"] = torch::zeros({1, 256, 256});
  b.tensors["shrink_mask"] = torch::ones({1, 256, 256});
  b.tensors["threshold_map"] = torch::full({1, 256, 256}, 0.3);
  b.tensors["threshold_mask"] = torch::ones({1, 256, 256});
  b.paths = {"imgs_11.jpg"};
  d->model().train();
  const StepLoss s = d->train_step(b);
  for (const auto& [name, value] : s.parts) EXPECT_TRUE(std::isfinite(value)) << name;
  s.loss.backward();
  for (const auto& [name, value] : model_state(*teacher))
    EXPECT_TRUE(torch::equal(value, before.at(name))) << name;

  // Export: the teacher goes back as the graph it came from.
  save_checkpoint(t.dir + "/ckpt", d->model(), nullptr, CheckpointData{});
  const std::string out = t.dir + "/inference";
  c.apply_overrides({"Global.pretrained_model=" + t.dir + "/ckpt", "Global.save_inference_dir=" + out});
  const ExportReport r = export_inference_model(c);
  ASSERT_EQ(r.members.size(), 3u);
  const torch::Tensor x = test::sample_picture("imgs_11.jpg", 320, 256, true);
  const double diff = (test::ort_output(out + "/Teacher/inference.onnx", "det", x) -
                       test::ort_output(shipped_det(), "det", x))
                          .abs()
                          .max()
                          .item<double>();
  EXPECT_EQ(diff, 0.0);
}

TEST(DetDistillOnnx, OnnxStudentOfTheDilatedTeacherLossIsNotYetSupported) {
  const auto t = test::make_tiny_det_task("cml_onnx_student", 1);
  YAML::Node r = YAML::Load(test::tiny_cml_config(t, 1, 2));
  YAML::Node s2;
  s2["model_type"] = "det";
  s2["algorithm"] = "ONNX";
  s2["onnx_model"] = shipped_det();
  r["Architecture"]["Models"]["Student2"] = s2;
  const Config c = Config::from_string(YAML::Dump(r));
  try {
    make_task(c, trainer_spec_from_config(c), torch::kCPU);
    FAIL() << "an ONNX student of DistillationDilaDBLoss was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("not yet supported"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Student2"), std::string::npos) << e.what();
  }
}
