// `ocrforge export` of a model fine-tuned from ONNX: with no training the
// written file computes exactly what the shipped one does (in ONNX Runtime),
// trained weights from a checkpoint reach the file, and bad requests fail
// with errors naming the key.
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include "ocrforge/train/export/export_model.h"

#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "ocrforge/train/tasks/distill/det_distill_task.h"
#include "ocrforge/train/tasks/distill/rec_distill_task.h"
#include "ocrforge/train/tasks/rec/rec_task.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "train/onnx/shipped_model_inputs.h"
#include "train/tasks/distill/det_distill_fixture.h"
#include "train/tasks/distill/distill_fixture.h"
#include "train/tasks/rec/multihead_fixture.h"
#include "test_support.h"

namespace ocrforge {
namespace {

std::string rec_config(const std::string& out, const std::string& extra = "") {
  return "Global: {character_dict_path: " + test::model_root() +
         "/ppocr_keys_v1.txt, use_space_char: true, save_inference_dir: " + out + extra +
         "}\nArchitecture: {model_type: rec, algorithm: ONNX, onnx_model: " + test::model_root() +
         "/rec/inference.onnx}\n";
}

TEST(ExportModel, RecognizerWithoutTrainingComputesExactlyTheShippedModel) {
  const std::string out = test::fresh_dir("export_rec_untrained");
  const ExportReport r = export_inference_model(Config::from_string(rec_config(out)));
  EXPECT_EQ(r.onnx_path, out + "/inference.onnx");
  EXPECT_GT(r.parameters, 100);
  for (const auto& [name, w] : {std::pair{"ch_word_3.jpg", 320}, {"imgs_en_254.jpg", 160}}) {
    const torch::Tensor x = test::sample_picture(name, 48, w, false);
    const double diff =
        (test::ort_output(r.onnx_path, "rec", x) - test::ort_output(test::model_root() + "/rec/inference.onnx", "rec", x)).abs().max().item<double>();
    EXPECT_LE(diff, 1e-6) << name;
  }
}

TEST(ExportModel, DetectorWithoutTrainingComputesExactlyTheShippedModel) {
  const std::string out = test::fresh_dir("export_det_untrained");
  const ExportReport r = export_inference_model(Config::from_string(
      "Global: {save_inference_dir: " + out + "}\nArchitecture: {model_type: det, algorithm: ONNX, onnx_model: " +
      test::model_root() + "/det/inference.onnx}\nLoss: {name: DBLoss}\n"));
  const torch::Tensor x = test::sample_picture("imgs_11.jpg", 320, 416, true);
  const double diff =
      (test::ort_output(r.onnx_path, "det", x) - test::ort_output(test::model_root() + "/det/inference.onnx", "det", x)).abs().max().item<double>();
  EXPECT_LE(diff, 1e-6);
}

// The classifier has no training task yet (no cls data pipeline), but its
// graph goes back to ONNX unchanged all the same.
TEST(ExportModel, ClassifierGraphWrittenBackComputesExactlyTheShippedModel) {
  const std::string out = test::fresh_dir("export_cls_untrained");
  const std::string shipped = test::model_root() + "/cls/inference.onnx";
  OnnxGraphModule graph(shipped);
  graph->save_onnx(out + "/inference.onnx");
  const torch::Tensor x = test::sample_picture("ch_word_2.jpg", 48, 192, false);
  const double diff =
      (test::ort_output(out + "/inference.onnx", "cls", x) - test::ort_output(shipped, "cls", x)).abs().max().item<double>();
  EXPECT_LE(diff, 1e-6);
}

// Weights changed in LibTorch, saved as a checkpoint, exported: ORT on the
// file computes what the changed LibTorch module computes, not the original.
TEST(ExportModel, TrainedWeightsFromACheckpointReachTheFile) {
  const std::string out = test::fresh_dir("export_rec_trained");
  const Config config = Config::from_string(rec_config(out));
  std::unique_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  auto* graph = dynamic_cast<OnnxGraphModuleImpl*>(&task->model());
  ASSERT_NE(graph, nullptr);
  {
    torch::NoGradGuard no_grad;
    torch::Generator g = at::detail::createCPUGenerator(5);
    for (auto& p : graph->parameters()) p.add_(torch::randn(p.sizes(), g) * 0.01 * (p.abs().mean() + 1e-3));
  }
  save_checkpoint(out + "/ckpt", task->model(), nullptr, CheckpointData{});
  const ExportReport r = export_inference_model(Config::from_string(rec_config(out, ", pretrained_model: " + out + "/ckpt")));
  EXPECT_EQ(r.weights_from, out + "/ckpt.ckpt");

  graph->eval();
  const torch::Tensor x = test::sample_picture("ch_word_3.jpg", 48, 320, false);
  torch::Tensor ours;
  {
    torch::NoGradGuard no_grad;
    ours = graph->forward(x);
  }
  const torch::Tensor exported = test::ort_output(r.onnx_path, "rec", x);
  EXPECT_LE((exported - ours).abs().max().item<double>(), 1e-4);
  const torch::Tensor shipped = test::ort_output(test::model_root() + "/rec/inference.onnx", "rec", x);
  EXPECT_GT((exported - shipped).abs().max().item<double>(), 1e-3) << "the perturbed weights must show";
}

TEST(ExportModel, ErrorsNameTheProblem) {
  const std::string out = test::fresh_dir("export_errors");
  auto error_of = [](const std::string& yaml) -> std::string {
    return ocrforge::test::message_of<Error>([&] {
      export_inference_model(Config::from_string(yaml));
    });
  };
  EXPECT_NE(error_of("Global: {character_dict_path: x}\nArchitecture: {model_type: rec, algorithm: ONNX, onnx_model: " +
                     test::model_root() + "/rec/inference.onnx}\n")
                .find("Global.save_inference_dir: missing"),
            std::string::npos);
  // A native det model exports, but only with its trained weights.
  EXPECT_NE(error_of("Global: {save_inference_dir: " + out +
                     "}\nArchitecture: {model_type: det, algorithm: DB, Backbone: {name: MobileNetV3}, "
                     "Neck: {name: DBFPN, out_channels: 96}, Head: {name: DBHead}}\nLoss: {name: DBLoss}\n")
                .find("needs its weights"),
            std::string::npos);
  // A native classifier exports too, but only with its trained weights.
  EXPECT_NE(error_of("Global: {save_inference_dir: " + out +
                     "}\nArchitecture: {model_type: cls, algorithm: CLS, Backbone: {name: MobileNetV3}, "
                     "Head: {name: ClsHead, class_dim: 2}}\n")
                .find("needs its weights"),
            std::string::npos);
  // A dictionary that does not fit the model's 6,625 classes.
  test::write_text(out + "/abc.txt", "a\nb\nc\n");
  EXPECT_NE(error_of("Global: {character_dict_path: " + out + "/abc.txt, save_inference_dir: " + out +
                     "}\nArchitecture: {model_type: rec, algorithm: ONNX, onnx_model: " + test::model_root() +
                     "/rec/inference.onnx}\n")
                .find("outputs 6625"),
            std::string::npos);
  // A checkpoint that is not there.
  EXPECT_NE(error_of(rec_config(out, ", pretrained_model: /nonexistent/ckpt")).find("/nonexistent/ckpt"),
            std::string::npos);
}

// A distillation checkpoint exports one normal inference folder per model;
// ORT on OUT/Student computes what the Student computes in LibTorch.
TEST(ExportModel, DistillationWritesAFolderPerModelThatOrtRunsLikeLibTorch) {
  const auto t = test::make_tiny_task("export_distill", 4);
  const std::string out = t.dir + "/inference";
  Config config = Config::from_string(test::tiny_distill_config(t, 1, 8, {}));
  std::unique_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  {
    // Weights and batch-norm statistics away from their initial values, so the file must carry them.
    torch::NoGradGuard no_grad;
    torch::Generator g = at::detail::createCPUGenerator(11);
    for (auto& p : task->model().parameters()) p.add_(torch::randn(p.sizes(), g) * 0.05);
    for (auto& b : task->model().named_buffers())
      if (b.key().find("running_var") != std::string::npos) b.value().uniform_(0.5, 1.5, g);
  }
  save_checkpoint(t.dir + "/ckpt", task->model(), nullptr, CheckpointData{});
  config.apply_overrides({"Global.pretrained_model=" + t.dir + "/ckpt", "Global.save_inference_dir=" + out});
  const ExportReport r = export_inference_model(config);
  ASSERT_EQ(r.members.size(), 2u);
  EXPECT_EQ(r.members[0].name, "Student");
  EXPECT_EQ(r.members[0].onnx_path, out + "/Student/inference.onnx");
  EXPECT_EQ(r.members[1].onnx_path, out + "/Teacher/inference.onnx");
  auto* d = dynamic_cast<RecDistillTask*>(task.get());
  ASSERT_NE(d, nullptr);
  const torch::Tensor x = torch::rand({2, 3, 32, 100}) * 2 - 1;
  for (const auto& m : r.members) {
    RecModel model = d->member(m.name).native;
    model->eval();
    torch::NoGradGuard no_grad;
    const double diff = (test::ort_output(m.onnx_path, "rec", x) - model->predict(x)).abs().max().item<double>();
    EXPECT_LE(diff, 1e-4) << m.name;
    const YAML::Node yml = YAML::LoadFile(m.yml_path);
    EXPECT_EQ(yml["PostProcess"]["name"].as<std::string>(), "CTCLabelDecode") << m.name;
    EXPECT_EQ(yml["PostProcess"]["character_dict"].size(), 10u) << m.name;
  }
}

// A PP-OCRv3 MultiHead exports its CTC branch: ORT on the file computes what
// the model's (CTC) predict computes, the SARHead's tensors are left out and
// said so, and a checkpoint without them (trained before ocrforge built the
// SAR branch) exports too; any other missing tensor is still an error.
TEST(ExportModel, MultiHeadExportsTheCtcBranchAndLeavesTheSarHeadOut) {
  const auto t = test::make_tiny_task("export_multihead", 4);
  Config config = Config::from_string(test::tiny_multihead_config(t, 1, 4));
  std::unique_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  {
    torch::NoGradGuard no_grad;
    torch::Generator g = at::detail::createCPUGenerator(13);
    for (auto& p : task->model().parameters()) p.add_(torch::randn(p.sizes(), g) * 0.05);
  }
  save_checkpoint(t.dir + "/ckpt", task->model(), nullptr, CheckpointData{});
  config.apply_overrides({"Global.pretrained_model=" + t.dir + "/ckpt", "Global.save_inference_dir=" + t.dir + "/out"});
  const ExportReport r = export_inference_model(config);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("Architecture MultiHead: the SARHead (training only"), std::string::npos) << r.notes[0];
  RecModel model = dynamic_cast<RecTask*>(task.get())->rec_model();
  model->eval();
  const torch::Tensor x = torch::rand({2, 3, 32, 100}) * 2 - 1;
  {
    torch::NoGradGuard no_grad;
    EXPECT_LE((test::ort_output(r.onnx_path, "rec", x) - model->predict(x)).abs().max().item<double>(), 1e-4);
  }
  // The same network saved without its SARHead (a MultiHead without the SARHead entry).
  test::MultiHeadOptions no_sar;
  no_sar.sar = false;
  const Config ctc_only = Config::from_string(test::tiny_multihead_config(t, 1, 4, no_sar));
  std::unique_ptr<Task> old = make_task(ctc_only, trainer_spec_from_config(ctc_only), torch::kCPU);
  save_checkpoint(t.dir + "/old", old->model(), nullptr, CheckpointData{});
  config.apply_overrides({"Global.pretrained_model=" + t.dir + "/old", "Global.save_inference_dir=" + t.dir + "/out2"});
  EXPECT_NO_THROW(export_inference_model(config));
  // A checkpoint of another CTC branch is refused, naming the keys.
  Config other = Config::from_string(test::tiny_multihead_config(t, 1, 4, no_sar));
  other.apply_overrides({"Architecture.Head.head_list=[{CTCHead: {Neck: {name: rnn, hidden_size: 16}}}]"});
  std::unique_ptr<Task> wrong = make_task(other, trainer_spec_from_config(other), torch::kCPU);
  save_checkpoint(t.dir + "/wrong", wrong->model(), nullptr, CheckpointData{});
  config.apply_overrides({"Global.pretrained_model=" + t.dir + "/wrong"});
  EXPECT_NE(test::message_of<UsageError>([&] { export_inference_model(config); }).find("pass --overwrite"),
            std::string::npos);
  try {
    export_inference_model(config, /*overwrite=*/true);
    ADD_FAILURE() << "a checkpoint with another neck exported";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shape mismatches: head.fc.weight"), std::string::npos) << e.what();
  }
}

// A CML checkpoint exports OUT/Student/, OUT/Student2/ and OUT/Teacher/ (the
// LKPAN teacher through its emitter), each a det inference folder whose
// inference.yml carries DBPostProcess with the config's thresholds; ORT on
// each computes what the member computes in LibTorch.
TEST(ExportModel, DetDistillationWritesADetFolderPerModelThatOrtRunsLikeLibTorch) {
  const auto t = test::make_tiny_det_task("export_cml", 1);
  const std::string out = t.dir + "/inference";
  Config config = Config::from_string(test::tiny_cml_config(t, 1, 2));
  // The same networks every run: unseeded, their conditioning (and so the
  // float32 rounding measured below) varied from run to run.
  torch::manual_seed(7);
  std::unique_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  auto* d = dynamic_cast<DetDistillTask*>(task.get());
  ASSERT_NE(d, nullptr);
  {
    // Weights and batch-norm statistics away from their initial values, so
    // the file must carry them: random weights, then each member's
    // statistics taken from one batch (momentum 1), as a trained network's
    // are (random statistics would blow the deep teacher's activations up
    // until float32 rounding alone exceeds 1e-4; det_model_onnx_test.cpp).
    torch::NoGradGuard no_grad;
    torch::Generator g = at::detail::createCPUGenerator(11);
    for (auto& p : task->model().parameters()) p.add_(torch::randn(p.sizes(), g) * 0.02);
    for (auto& mod : task->model().modules(/*include_self=*/false))
      if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) {
        bn->weight.uniform_(0.5, 1.5, g);
        bn->options.momentum(1.0);
      }
    for (const DetDistillMember* m : d->members()) {
      DetModel model = m->native;
      model->train();
      model->forward(torch::randn({2, 3, 128, 128}, g));
    }
  }
  save_checkpoint(t.dir + "/ckpt", task->model(), nullptr, CheckpointData{});
  config.apply_overrides({"Global.pretrained_model=" + t.dir + "/ckpt", "Global.save_inference_dir=" + out,
                          "PostProcess.box_thresh=0.55"});
  const ExportReport r = export_inference_model(config);
  ASSERT_EQ(r.members.size(), 3u);
  EXPECT_EQ(r.members[0].onnx_path, out + "/Student/inference.onnx");
  EXPECT_EQ(r.members[1].onnx_path, out + "/Student2/inference.onnx");
  EXPECT_EQ(r.members[2].onnx_path, out + "/Teacher/inference.onnx");
  const torch::Tensor x = test::sample_picture("imgs_11.jpg", 320, 256, true);
  for (const auto& m : r.members) {
    DetModel model = d->member(m.name).native;
    model->eval();
    torch::NoGradGuard no_grad;
    const torch::Tensor ours = model->forward(x);
    EXPECT_GT((ours.max() - ours.min()).item<double>(), 0.01) << m.name;  // a map that varies
    const torch::Tensor ort = test::ort_output(m.onnx_path, "det", x);
    // Float32 rounding alone moves these maps by up to ~1e-4 (the tiny
    // teacher: ResNet18_vd, then LKPAN's 81-tap convolutions; the students
    // varied 3e-6 to 4e-5 between runs), in LibTorch as in ORT, so each
    // member is held to max(1e-4, twice LibTorch's own distance from a
    // float64 run) rather than |ORT - LibTorch| to a fixed 1e-4, which the
    // rounding of the two alone can pass.
    model->to(torch::kFloat64);  // float32 -> float64 -> float32 is lossless
    const torch::Tensor exact = model->forward(x.to(torch::kFloat64));
    model->to(torch::kFloat32);
    const double rounding = (ours.to(torch::kFloat64) - exact).abs().max().item<double>();
    const double diff = (ort.to(torch::kFloat64) - exact).abs().max().item<double>();
    const double vs_torch = (ort - ours).abs().max().item<double>();
    std::printf("%s: max |ORT - LibTorch| %.3g; from float64: ORT %.3g, LibTorch %.3g\n", m.name.c_str(), vs_torch,
                diff, rounding);
    EXPECT_LE(diff, std::max(1e-4, 2 * rounding)) << m.name << ": LibTorch's own rounding " << rounding;
    const YAML::Node yml = YAML::LoadFile(m.yml_path);
    EXPECT_EQ(yml["Global"]["model_type"].as<std::string>(), "det") << m.name;
    EXPECT_EQ(yml["PostProcess"]["name"].as<std::string>(), "DBPostProcess") << m.name;
    EXPECT_FLOAT_EQ(yml["PostProcess"]["box_thresh"].as<float>(), 0.55f) << m.name;
    EXPECT_FALSE(yml["PostProcess"]["model_name"]) << m.name;
  }
}

}  // namespace
}  // namespace ocrforge
