// The native direction classifier (tasks/cls/cls_model.h) as PaddleOCR's cls
// configs build it: cls_mv3.yml's MobileNetV3 small 0.35 + ClsHead and the
// rotnet's MobileNetV1Enhance + ClsHead(4) under PaddleOCR's names, its ONNX
// export equal to the LibTorch eval forward in ONNX Runtime, a few steps on
// real crops lower the cross entropy, and a class count that does not fit
// Global.label_list is refused.
// ctest-labels: model train (runs the exported classifier in ONNX Runtime)
#include "ocrforge/train/tasks/cls/cls_model.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/cls/cls_model_onnx.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"
#include "train/onnx/shipped_model_inputs.h"

namespace ocrforge {
namespace {

YAML::Node architecture(const std::string& file) {
  return YAML::LoadFile(test::source_dir() + "/configs/cls/" + file)["Architecture"];
}

int64_t n_params(const torch::nn::Module& m) {
  int64_t n = 0;
  for (const auto& p : m.parameters()) n += p.numel();
  return n;
}

TEST(ClsModel, BuildsPaddleOcrsClsMv3) {
  torch::manual_seed(1);
  const ClsArchSpec spec = cls_arch_from_yaml(architecture("cls_mv3.yml"));
  EXPECT_EQ(spec.backbone.name, "MobileNetV3");
  EXPECT_EQ(spec.class_dim, 2);
  ClsModel m(spec);
  const auto params = m->named_parameters();
  ASSERT_TRUE(params.contains("backbone.conv1.conv.weight"));
  // make_divisible(0.35 * 576) = 200 channels into the fc (LibTorch's [out, in]).
  ASSERT_TRUE(params.contains("head.fc.weight"));
  EXPECT_EQ(params["head.fc.weight"].sizes(), (torch::IntArrayRef{2, 200}));
  EXPECT_EQ(params["head.fc.bias"].sizes(), (torch::IntArrayRef{2}));
  EXPECT_EQ(n_params(*m), n_params(m->backbone()) + 2 * 200 + 2);
  m->eval();
  torch::NoGradGuard g;
  const torch::Tensor p = m->predict(torch::rand({3, 3, 48, 192}));
  EXPECT_EQ(p.sizes(), (torch::IntArrayRef{3, 2}));
  EXPECT_TRUE(torch::allclose(p.sum(1), torch::ones({3}), 1e-5, 1e-6));
}

TEST(ClsModel, BuildsTheRotnetsFourClassHead) {
  const ClsArchSpec spec = cls_arch_from_yaml(architecture("ch_PP-OCRv3/ch_PP-OCRv3_rotnet.yml"));
  EXPECT_EQ(spec.backbone.name, "MobileNetV1Enhance");
  ClsModel m(spec);
  m->eval();
  torch::NoGradGuard g;
  EXPECT_EQ(m->forward(torch::rand({1, 3, 48, 320})).sizes(), (torch::IntArrayRef{1, 4}));
}

TEST(ClsModel, RefusesWhatPaddleOcrsClassifierIsNot) {
  YAML::Node a = YAML::Clone(architecture("cls_mv3.yml"));
  a["Head"]["name"] = "CTCHead";
  std::string msg = test::message_of<UsageError>([&] { cls_arch_from_yaml(a); });
  EXPECT_NE(msg.find("Architecture.Head.name"), std::string::npos) << msg;
  a = YAML::Clone(architecture("cls_mv3.yml"));
  a["Neck"] = YAML::Load("{name: SequenceEncoder, encoder_type: rnn}");
  msg = test::message_of<UsageError>([&] { cls_arch_from_yaml(a); });
  EXPECT_NE(msg.find("Architecture.Neck"), std::string::npos) << msg;
  a = YAML::Clone(architecture("cls_mv3.yml"));
  a["Head"]["class_dim"] = 1;
  msg = test::message_of<UsageError>([&] { cls_arch_from_yaml(a); });
  EXPECT_NE(msg.find("class_dim"), std::string::npos) << msg;
  a = YAML::Clone(architecture("cls_mv3.yml"));
  a["Backbone"]["scale"] = 0.4;
  msg = test::message_of<UsageError>([&] { cls_arch_from_yaml(a); });
  EXPECT_NE(msg.find("Architecture.Backbone.scale"), std::string::npos) << msg;
}

TEST(ClsModel, ExportMatchesOrt) {
  torch::manual_seed(3);
  ClsModel m(cls_arch_from_yaml(architecture("cls_mv3.yml")));
  {
    torch::NoGradGuard g;
    for (auto& mod : m->modules(/*include_self=*/false))
      if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) {
        bn->running_mean.uniform_(-0.2, 0.2);
        bn->running_var.uniform_(0.5, 1.5);
        bn->weight.uniform_(0.5, 1.5);
        bn->bias.uniform_(-0.2, 0.2);
      }
  }
  m->eval();
  const std::string path = test::fresh_dir("onnx_cls_mv3") + "/inference.onnx";
  write_onnx_graph(cls_model_to_onnx(*m), path);
  check_onnx_model(path);
  torch::manual_seed(4);
  double worst = 0;
  for (const torch::Tensor& x : {test::sample_picture("ch_word_3.jpg", 48, 192, false),
                                 torch::rand({2, 3, 48, 192}) * 2 - 1, torch::rand({1, 3, 48, 100}) * 2 - 1}) {
    torch::NoGradGuard g;
    const torch::Tensor ours = m->predict(x), ort = test::ort_output(path, "cls", x);
    ASSERT_EQ(ours.sizes(), ort.sizes());
    worst = std::max(worst, (ours - ort).abs().max().item<double>());
  }
  std::printf("cls_mv3: max |LibTorch - ORT| = %.3g\n", worst);
  EXPECT_LE(worst, 1e-5);
}

// tests/data/rec_toy's word crops upright ("0") and turned ("180").
std::string write_cls_crops() {
  const std::string src = test::data_dir() + "/rec_toy", dir = test::fresh_dir("native_cls_crops");
  std::string lines;
  int n = 0;
  for (const RecLabel& l : read_rec_labels(src + "/rec_gt.txt")) {
    const cv::Mat up = cv::imread(src + "/" + l.path);
    cv::Mat turned;
    cv::rotate(up, turned, cv::ROTATE_180);
    const std::string name = std::to_string(n++);
    cv::imwrite(dir + "/" + name + "_0.png", up);
    cv::imwrite(dir + "/" + name + "_180.png", turned);
    lines += name + "_0.png\t0\n" + name + "_180.png\t180\n";
  }
  test::write_text(dir + "/cls_gt.txt", lines);
  return dir;
}

// cls_mv3.yml's own Architecture, loss and transforms (RandAugment included) on the crops.
std::string native_cls_yaml(const std::string& dir, const std::string& label_list) {
  YAML::Node root = YAML::LoadFile(test::source_dir() + "/configs/cls/cls_mv3.yml");
  root["Global"]["label_list"] = YAML::Load(label_list);
  root["Global"]["use_gpu"] = false;
  root["Train"]["dataset"]["data_dir"] = dir;
  root["Train"]["dataset"]["label_file_list"] = YAML::Load("[" + dir + "/cls_gt.txt]");
  root["Train"]["loader"] = YAML::Load("{shuffle: false, batch_size_per_card: 16, drop_last: true, num_workers: 0}");
  root["Eval"]["dataset"]["data_dir"] = dir;
  root["Eval"]["dataset"]["label_file_list"] = YAML::Load("[" + dir + "/cls_gt.txt]");
  return YAML::Dump(root);
}

TEST(ClsModel, StepsOnRealCropsLowerTheCrossEntropy) {
  Config config = Config::from_string(native_cls_yaml(write_cls_crops(), "['0', '180']"));
  const TrainerSpec options = trainer_spec_from_config(config);
  at::set_num_threads(2);
  torch::manual_seed(7);
  std::unique_ptr<Task> task = make_task(config, options, torch::kCPU);
  check_config_keys(config);  // every key of PaddleOCR's file is read or listed as ignored
  std::unique_ptr<BatchLoader> loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  torch::optim::Adam opt(task->model().parameters(), torch::optim::AdamOptions(1e-3));
  task->model().train();
  double first = 0, last = 0;
  for (int step = 0; step <= 8; ++step) {
    opt.zero_grad();
    StepLoss s = task->train_step(batch);
    last = s.loss.item<double>();
    if (step == 0) first = last;
    if (step == 8) break;
    s.loss.backward();
    opt.step();
  }
  EXPECT_LT(last, first * 0.7) << "before " << first << ", after " << last;
}

TEST(ClsModel, ClassDimMustFitTheLabelList) {
  Config config = Config::from_string(native_cls_yaml(write_cls_crops(), "['0', '90', '180']"));
  const std::string msg = test::message_of<UsageError>(
      [&] { make_task(config, trainer_spec_from_config(config), torch::kCPU); });
  EXPECT_NE(msg.find("class_dim is 2 but Global.label_list has 3"), std::string::npos) << msg;
}

// PP-OCRv3's rotnet as PaddleOCR ships it (data paths changed only): every
// crop of a recognition label file gives its four turns, labelled 0..3, and
// the batch holds them all (SSLRotateCollate).
TEST(ClsModel, RotnetTrainsOnEveryTurnOfEachCrop) {
  YAML::Node root = YAML::LoadFile(test::source_dir() + "/configs/cls/ch_PP-OCRv3/ch_PP-OCRv3_rotnet.yml");
  const std::string data = test::data_dir() + "/rec_toy";
  for (const char* section : {"Train", "Eval"}) {
    root[section]["dataset"]["data_dir"] = data;
    root[section]["dataset"]["label_file_list"] = YAML::Load("[" + data + "/rec_gt.txt]");
    root[section]["loader"]["batch_size_per_card"] = 2;
    root[section]["loader"]["num_workers"] = 0;
  }
  root["Global"]["use_gpu"] = false;
  root["Global"]["character_dict_path"] = test::model_root() + "/ppocr_keys_v1.txt";
  const Config config = Config::from_string(YAML::Dump(root));
  check_config_keys(config);
  torch::manual_seed(3);
  std::unique_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  std::unique_ptr<BatchLoader> loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  EXPECT_EQ(batch.at("image").sizes(), (torch::IntArrayRef{2, 4, 3, 48, 320}));
  EXPECT_TRUE(torch::equal(batch.at("label")[1], torch::arange(4, torch::kInt64)));
  // Turn 2 (180 degrees) of an image is turn 0 upside down (stretching to 48 x 320 commutes with it).
  const torch::Tensor up = batch.at("image")[0][0], down = batch.at("image")[0][2];
  EXPECT_LT((down.flip({1, 2}) - up).abs().mean().item<double>(), 0.05);
  task->model().train();
  const StepLoss s = task->train_step(batch);
  EXPECT_EQ(s.output.sizes(), (torch::IntArrayRef{8, 4}));
  EXPECT_TRUE(std::isfinite(s.loss.item<double>()));
  const EvalMetrics m = task->evaluate(*task->make_loader("Eval", false, 0, 1), nullptr);
  EXPECT_EQ(m.samples, 40);  // 10 crops x 4 turns
}

}  // namespace
}  // namespace ocrforge
