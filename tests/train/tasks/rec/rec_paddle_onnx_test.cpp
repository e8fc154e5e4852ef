// The shipped PP-OCRv4 recognizer (models/PP-OCRv4/rec/inference.onnx,
// PaddleOCR's PPLCNetV3 x0.95 + svtr neck + CTCHead) loaded into the native
// network that PaddleOCR's ch_PP-OCRv4_rec.yml builds: its LibTorch eval
// forward equals ONNX Runtime on the file, on real word crops; the native
// export equals LibTorch; `ocrforge export` with the file as
// Global.pretrained_model writes a model that reads as the shipped one; a
// network of another shape is refused naming the file, with nothing loaded;
// `ocrforge train` fine-tunes that inference form and resumes in it.
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include "ocrforge/train/tasks/rec/rec_paddle_onnx.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/export/export_model.h"
#include "ocrforge/train/tasks/rec/rec_model_onnx.h"
#include "ocrforge/train/tasks/rec/rec_pplcnet_v3.h"
#include "train/onnx/shipped_model_inputs.h"

namespace ocrforge {
namespace {

const int kClasses = 6625;  // blank + ppocr_keys_v1.txt (6623) + space

std::string shipped() { return test::model_root() + "/rec/inference.onnx"; }
std::string v4_config() { return test::source_dir() + "/configs/rec/PP-OCRv4/ch_PP-OCRv4_rec.yml"; }

RecArchSpec v4_arch(bool deploy) {
  RecArchSpec spec = rec_arch_from_yaml(YAML::LoadFile(v4_config())["Architecture"], kClasses);
  spec.backbone.rep_deploy = deploy;
  return spec;
}

RecModel shipped_native() {
  RecModel m(v4_arch(true));
  load_rec_paddle_onnx(*m, shipped());
  m->eval();
  return m;
}

double max_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}

// Real word crops at the model's height, at the training width and others.
std::vector<torch::Tensor> crops() {
  return {test::sample_picture("ch_word_3.jpg", 48, 320, false), test::sample_picture("ch_word_2.jpg", 48, 160, false),
          test::sample_picture("imgs_en_254.jpg", 48, 480, false)};
}

TEST(RecPaddleOnnx, ShippedWeightsInNativeNetworkMatchOrtOnTheFile) {
  RecModel m = shipped_native();
  torch::NoGradGuard g;
  for (const auto& x : crops()) {
    const torch::Tensor ours = m->predict(x);
    const torch::Tensor ort = test::ort_output(shipped(), "rec", x);
    ASSERT_EQ(ours.sizes(), ort.sizes());
    // The model is sure of some steps: the crops are read, not noise.
    EXPECT_GT(ort.max().item<double>(), 0.9);
    const double d = max_diff(ours, ort);
    std::printf("native PPLCNetV3 rec vs ORT on the shipped file (48x%lld): max |diff| %.3g\n",
                static_cast<long long>(x.size(3)), d);
    EXPECT_LE(d, 1e-4);
  }
}

TEST(RecPaddleOnnx, NativeExportOfTheLoadedNetworkMatchesLibTorch) {
  RecModel m = shipped_native();
  const std::string path = test::fresh_dir("rec_pplcnet_export") + "/inference.onnx";
  write_onnx_graph(rec_model_to_onnx(*m, 48), path);
  check_onnx_model(path);
  torch::NoGradGuard g;
  for (const auto& x : crops()) {
    const double d = max_diff(m->predict(x), test::ort_output(path, "rec", x));
    std::printf("native PPLCNetV3 rec vs ORT on its own export: max |diff| %.3g\n", d);
    EXPECT_LE(d, 1e-4);
  }
}

TEST(RecPaddleOnnx, TrainingFormExportFusesTheBranchesAndPoolsAsPaddleOcr) {
  // A training-form network with random BN statistics and affine parameters.
  RecModel m(v4_arch(false));
  {
    torch::NoGradGuard g;
    torch::manual_seed(7);
    for (auto& mod : m->modules(false))
      if (auto* bn = mod->as<torch::nn::BatchNorm2d>()) {
        bn->weight.uniform_(0.1, 0.3);  // six summed branches per layer: keep the gain near 1
        bn->bias.uniform_(-0.2, 0.2);
        bn->running_mean.uniform_(-0.2, 0.2);
        bn->running_var.uniform_(0.5, 1.5);
      }
  }
  // PaddleOCR's pool: 40 steps in training whatever the width, W / 8 in eval.
  const torch::Tensor wide = test::sample_picture("imgs_en_254.jpg", 48, 640, false);
  m->train();
  EXPECT_EQ(m->backbone()->forward(wide.repeat({2, 1, 1, 1})).sizes(), (std::vector<int64_t>{2, 480, 1, 40}));
  m->eval();
  EXPECT_EQ(m->backbone()->forward(wide).size(3), 80);
  const torch::Tensor x = crops().front();
  {
    // Logits spread over several units, so the softmax is neither flat nor one-hot.
    torch::NoGradGuard g;
    const double spread = m->forward(x).std().item<double>();
    m->head()->named_parameters()["fc.weight"].mul_(6.0 / spread);
  }
  const std::string path = test::fresh_dir("rec_pplcnet_train_form") + "/inference.onnx";
  write_onnx_graph(rec_model_to_onnx(*m, 48), path);
  torch::NoGradGuard g;
  const torch::Tensor ours = m->predict(x);
  const double d = max_diff(ours, test::ort_output(path, "rec", x));
  const double top = ours.amax(-1).mean().item<double>();
  std::printf("training-form PPLCNetV3 rec vs ORT on its fused export: max |diff| %.3g (mean top probability %.3g)\n",
              d, top);
  EXPECT_GT(top, 0.05);  // neither flat nor saturated: a wrong fusion would show
  EXPECT_LT(top, 0.95);
  EXPECT_LE(d, 1e-4);
}

TEST(RecPaddleOnnx, ANetworkOfAnotherShapeIsRefusedNamingTheFileAndKeepsItsWeights) {
  RecArchSpec spec = v4_arch(true);
  spec.backbone.scale = 0.5;
  RecModel m(spec);
  const torch::Tensor before = m->head()->named_parameters()["fc.weight"].clone();
  const std::string msg = test::message_of<Error>([&] { load_rec_paddle_onnx(*m, shipped()); });
  EXPECT_NE(msg.find(shipped()), std::string::npos) << msg;
  EXPECT_TRUE(torch::equal(before, m->head()->named_parameters()["fc.weight"]));
  // A training-form network cannot take the fused file at all.
  RecModel branches(v4_arch(false));
  EXPECT_NE(test::message_of<Error>([&] { load_rec_paddle_onnx(*branches, shipped()); }).find("training form"),
            std::string::npos);
}

// What `ocrforge export -c configs/rec/PP-OCRv4/ch_PP-OCRv4_rec.yml -o
// Global.pretrained_model=<shipped> Global.save_inference_dir=OUT` runs.
TEST(RecPaddleOnnx, ExportFromThePaddleOcrConfigWithTheShippedFileReadsAsTheShippedModel) {
  const std::string out = test::fresh_dir("rec_pplcnet_cli_export");
  Config c = Config::load_file(v4_config());
  c.apply_overrides({"Global.pretrained_model=" + shipped(), "Global.save_inference_dir=" + out,
                     "Global.character_dict_path=" + test::model_root() + "/ppocr_keys_v1.txt"});
  const ExportReport r = export_inference_model(c);
  EXPECT_EQ(r.weights_from, shipped());
  for (const auto& x : crops()) {
    const double d = max_diff(test::ort_output(r.onnx_path, "rec", x), test::ort_output(shipped(), "rec", x));
    EXPECT_LE(d, 1e-4);
  }
}

// `ocrforge train` from the shipped file: the task says it builds the
// inference form, trains, and a resume without Global.pretrained_model
// builds the same form again (the checkpoint's weights are in that form), as
// do a second resume and `ocrforge export` with the checkpoint as
// Global.pretrained_model.
TEST(RecPaddleOnnx, TrainFromTheShippedFileThenResumeInTheSameForm) {
  const std::string dir = test::fresh_dir("rec_pplcnet_train");
  const std::string data = test::data_dir() + "/rec_toy";
  const std::string base = test::binary() + " train -c " + test::source_dir() +
                           "/configs/rec/ch_PP-OCRv4_rec_native_finetune.yml -o Global.character_dict_path=" +
                           test::model_root() + "/ppocr_keys_v1.txt Train.dataset.data_dir=" + data +
                           " Train.dataset.label_file_list=[" + data + "/rec_gt.txt] Eval.dataset.data_dir=" + data +
                           " Eval.dataset.label_file_list=[" + data + "/rec_gt.txt] Train.loader.batch_size_per_card=4 "
                           "Eval.loader.batch_size_per_card=4 Train.loader.num_workers=0 Eval.loader.num_workers=0 "
                           "Global.eval_batch_step=[1000,1000] Global.save_model_dir=" + dir + "/out";
  const auto first = test::run_command(base + " Global.pretrained_model=" + shipped() + " Global.epoch_num=1", dir);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const std::string log = first.out + first.err;
  EXPECT_NE(log.find("PPLCNetV3 is built in its inference form"), std::string::npos) << log;
  EXPECT_NE(log.find("234 tensors loaded"), std::string::npos) << log;
  const auto resumed = test::run_command(
      base + " Global.pretrained_model= Global.checkpoints=" + dir + "/out/latest Global.epoch_num=2", dir);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE((resumed.out + resumed.err).find("resume from " + dir + "/out/latest.ckpt: epoch 1"), std::string::npos)
      << resumed.out << resumed.err;
  // A resume of the resumed run: its config names no inference file any more;
  // the checkpoint's own weights say which form it is.
  const auto again = test::run_command(
      base + " Global.pretrained_model= Global.checkpoints=" + dir + "/out/latest Global.epoch_num=3", dir);
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  // PaddleOCR's export command names the checkpoint as Global.pretrained_model;
  // it writes the model that Global.checkpoints writes.
  const auto export_with = [&](const std::string& key, const std::string& out) {
    return test::run_command(test::binary() + " export -c " + test::source_dir() +
                                 "/configs/rec/ch_PP-OCRv4_rec_native_finetune.yml -o Global.character_dict_path=" +
                                 test::model_root() + "/ppocr_keys_v1.txt " + key + "=" + dir +
                                 "/out/latest Global.save_inference_dir=" + out,
                             dir);
  };
  const auto as_pretrained = export_with("Global.pretrained_model", dir + "/pretrained");
  ASSERT_EQ(as_pretrained.exit_code, 0) << as_pretrained.out << as_pretrained.err;
  const auto as_checkpoint = export_with("Global.checkpoints", dir + "/checkpoints");
  ASSERT_EQ(as_checkpoint.exit_code, 0) << as_checkpoint.out << as_checkpoint.err;
  for (const auto& x : crops())
    EXPECT_LE(max_diff(test::ort_output(dir + "/pretrained/inference.onnx", "rec", x),
                       test::ort_output(dir + "/checkpoints/inference.onnx", "rec", x)),
              1e-6);
}

}  // namespace
}  // namespace ocrforge
