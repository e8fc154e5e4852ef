// Tests for .pdparams weights in training (ocrforge/train/loop/pdparams_weights.h
// and the .pdparams branches of checkpoint.h): Paddle's names and layouts
// (BatchNorm _mean/_variance, Linear [in, out], LSTM cell_fw/cell_bw) load
// into a LibTorch module by name; what ocrforge writes loads back equal;
// missing / extra / mis-shaped names are listed.
#include "ocrforge/train/loop/pdparams_weights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/core/pdparams.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/checkpoint_part.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include <yaml-cpp/yaml.h>
#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {

// PaddleOCR-style names: backbone.conv1._conv / ._batch_norm, neck.lstm, head.fc.
struct Net : torch::nn::Module {
  Net() {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 2, 3).bias(false)));
    bn = register_module("bn", torch::nn::BatchNorm2d(2));
    lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(2, 3).num_layers(1).bidirectional(true)));
    fc = register_module("fc", torch::nn::Linear(6, 4));
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear fc{nullptr};
};

PdTensor floats(std::vector<int64_t> shape, float start) {
  PdTensor t;
  t.dtype = PdDtype::Float32;
  t.shape = std::move(shape);
  const int64_t n = t.element_count();
  t.data.resize(n * 4);
  for (int64_t k = 0; k < n; ++k) {
    const float v = start + 0.01f * k;
    std::memcpy(&t.data[k * 4], &v, 4);
  }
  return t;
}

torch::Tensor as_torch(const PdTensor& t) {
  return torch::from_blob(const_cast<char*>(t.data.data()), t.shape, torch::kFloat).clone();
}

// What PaddleOCR's state dict of the same network holds (Paddle's names and layouts).
PdParams paddle_state() {
  PdParams p;
  p.emplace_back("conv.weight", floats({2, 1, 3, 3}, 0.1f));
  p.emplace_back("bn.weight", floats({2}, 1.0f));
  p.emplace_back("bn.bias", floats({2}, -1.0f));
  p.emplace_back("bn._mean", floats({2}, 0.5f));
  p.emplace_back("bn._variance", floats({2}, 2.0f));
  for (const char* cell : {"cell_fw", "cell_bw"}) {
    const std::string c = std::string("lstm.0.") + cell + ".";
    p.emplace_back(c + "weight_ih", floats({12, 2}, cell[5] == 'f' ? 0.2f : 0.3f));
    p.emplace_back(c + "weight_hh", floats({12, 3}, cell[5] == 'f' ? 0.4f : 0.5f));
    p.emplace_back(c + "bias_ih", floats({12}, cell[5] == 'f' ? 0.6f : 0.7f));
    p.emplace_back(c + "bias_hh", floats({12}, cell[5] == 'f' ? 0.8f : 0.9f));
  }
  p.emplace_back("fc.weight", floats({6, 4}, -0.3f));  // Paddle's Linear: [in, out]
  p.emplace_back("fc.bias", floats({4}, 0.05f));
  return p;
}

}  // namespace

TEST(PdparamsWeights, PaddleNamesAndLayoutsLoadIntoTheModel) {
  const std::string dir = test::fresh_dir("pdparams_weights_load");
  const PdParams paddle = paddle_state();
  write_pdparams(dir + "/best_accuracy.pdparams", paddle);
  Net net;
  // PaddleOCR names the prefix; the .pdparams beside it is found.
  EXPECT_EQ(weights_path(dir + "/best_accuracy"), dir + "/best_accuracy.pdparams");
  const PretrainedReport r = load_pretrained(dir + "/best_accuracy", net);
  EXPECT_TRUE(r.missing.empty()) << r.missing.front();
  EXPECT_TRUE(r.unexpected.empty()) << r.unexpected.front();
  EXPECT_TRUE(r.shape_mismatch.empty()) << r.shape_mismatch.front();
  auto want = [&](const std::string& name) { return as_torch(*find_pd_tensor(paddle, name)); };
  EXPECT_TRUE(torch::equal(net.conv->weight, want("conv.weight")));
  EXPECT_TRUE(torch::equal(net.bn->running_mean, want("bn._mean")));
  EXPECT_TRUE(torch::equal(net.bn->running_var, want("bn._variance")));
  EXPECT_TRUE(torch::equal(net.fc->weight, want("fc.weight").t()));
  EXPECT_TRUE(torch::equal(net.lstm->named_parameters()["weight_ih_l0"], want("lstm.0.cell_fw.weight_ih")));
  EXPECT_TRUE(torch::equal(net.lstm->named_parameters()["bias_hh_l0_reverse"], want("lstm.0.cell_bw.bias_hh")));
}

TEST(PdparamsWeights, SavedFileHasPaddleNamesAndLoadsBackEqual) {
  const std::string dir = test::fresh_dir("pdparams_weights_save");
  torch::manual_seed(3);
  Net a;
  {
    torch::NoGradGuard no_grad;
    a.bn->running_mean.uniform_();
  }
  save_pdparams(dir + "/m.pdparams", a);
  const PdParams file = read_pdparams(dir + "/m.pdparams");
  std::set<std::string> names, want;
  for (const auto& [name, t] : file) names.insert(name);
  for (const auto& [name, t] : paddle_state()) want.insert(name);
  EXPECT_EQ(names, want);  // no num_batches_tracked, Paddle's names throughout
  EXPECT_EQ(find_pd_tensor(file, "fc.weight")->shape, (std::vector<int64_t>{6, 4}));
  torch::manual_seed(4);
  Net b;
  const CheckpointData d = load_checkpoint(dir + "/m.pdparams", b, nullptr);
  EXPECT_EQ(d.progress.epoch, 0);
  for (const auto& p : a.named_parameters())
    EXPECT_TRUE(torch::equal(p.value(), b.named_parameters()[p.key()])) << p.key();
  EXPECT_TRUE(torch::equal(a.bn->running_mean, b.bn->running_mean));
}

TEST(PdparamsWeights, MissingExtraAndMisshapedNamesAreListed) {
  const std::string dir = test::fresh_dir("pdparams_weights_mismatch");
  PdParams p = paddle_state();
  p.erase(std::remove_if(p.begin(), p.end(), [](const auto& e) { return e.first == "bn._variance"; }), p.end());
  p.emplace_back("head.extra.weight", floats({2}, 0));
  for (auto& [name, t] : p)
    if (name == "fc.bias") t = floats({5}, 0);
  write_pdparams(dir + "/m.pdparams", p);
  Net net;
  const torch::Tensor before = net.conv->weight.clone();
  const std::string msg = test::message_of<Error>([&] { load_checkpoint(dir + "/m.pdparams", net, nullptr); });
  EXPECT_NE(msg.find("missing keys: bn.running_var"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unexpected keys: head.extra.weight"), std::string::npos) << msg;
  EXPECT_NE(msg.find("shape mismatches: fc.bias"), std::string::npos) << msg;
  EXPECT_TRUE(torch::equal(net.conv->weight, before));  // refused before anything changed
  // As pretrained weights (PaddleOCR's load_pretrained_params loads what fits and warns).
  const PretrainedReport r = load_pretrained(dir + "/m.pdparams", net);
  EXPECT_EQ(r.missing, std::vector<std::string>{"bn.running_var"});
  EXPECT_EQ(r.unexpected, std::vector<std::string>{"head.extra.weight"});
  ASSERT_EQ(r.shape_mismatch.size(), 1u);
  EXPECT_NE(r.shape_mismatch[0].find("fc.bias"), std::string::npos);
  EXPECT_FALSE(torch::equal(net.conv->weight, before));
}

TEST(PdparamsWeights, DistillationMemberTakesItsPrefixedNames) {
  const std::string dir = test::fresh_dir("pdparams_weights_part");
  PdParams p;
  for (auto& [name, t] : paddle_state()) p.emplace_back("Student." + name, t);
  p.emplace_back("Teacher.fc.bias", floats({4}, 9));
  write_pdparams(dir + "/m.pdparams", p);
  Net net;
  const PretrainedReport r = load_pretrained_part(dir + "/m.pdparams", net, "Student.");
  EXPECT_TRUE(r.missing.empty());
  EXPECT_TRUE(r.unexpected.empty());
  EXPECT_TRUE(torch::equal(net.fc->bias, as_torch(*find_pd_tensor(paddle_state(), "fc.bias"))));
}

TEST(PdparamsWeights, HostileFileIsRefusedWithoutRunningIt) {
  const std::string marker = "/tmp/ocrforge_pdparams_payload_ran";
  fs::remove(marker);
  Net net;
  const std::string path = test::data_dir() + "/pdparams/hostile_os_system_p4.pdparams";
  const std::string msg = test::message_of<Error>([&] { load_pretrained(path, net); });
  EXPECT_NE(msg.find("global 'posix.system' is not allowed"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(marker));
}

// PaddleOCR's MultiHead owns every branch (rec_multi_head.py): its state dict
// says head.ctc_encoder / head.ctc_head / head.before_gtc / head.gtc_head
// where ocrforge's modules are neck / head / before_gtc / gtc_head, at any
// depth (a distillation member's names carry its prefix).
TEST(PdparamsWeights, MultiHeadBranchesTakePaddleOcrsNames) {
  const std::string dir = test::fresh_dir("pdparams_multihead");
  const YAML::Node arch =
      YAML::LoadFile(test::source_dir() + "/configs/rec/PP-OCRv4/PP-OCRv4_mobile_rec.yml")["Architecture"];
  torch::manual_seed(5);
  RecModel a(rec_arch_from_yaml(arch, 37));
  ASSERT_TRUE(a->gtc_head());
  save_pdparams(dir + "/m.pdparams", *a);
  std::set<std::string> names;
  for (const auto& [name, t] : read_pdparams(dir + "/m.pdparams")) names.insert(name);
  for (const char* n : {"head.ctc_encoder.encoder.conv1.conv.weight", "head.ctc_head.fc.weight",
                        "head.before_gtc.1.fc.weight", "head.gtc_head.tgt_word_prj.weight",
                        "backbone.conv1.conv.weight"})
    EXPECT_TRUE(names.count(n)) << n;
  for (const auto& n : names) {
    EXPECT_NE(n.rfind("neck.", 0), 0u) << n;
    EXPECT_NE(n.rfind("before_gtc.", 0), 0u) << n;
  }
  torch::manual_seed(6);
  RecModel b(rec_arch_from_yaml(arch, 37));
  load_checkpoint(dir + "/m.pdparams", *b, nullptr);  // every name must fit
  for (const auto& p : a->named_parameters())
    EXPECT_TRUE(torch::equal(p.value(), b->named_parameters()[p.key()])) << p.key();

  // Nested: a distillation container's member.
  torch::nn::Module container;
  container.register_module("Student", a.ptr());
  save_pdparams(dir + "/d.pdparams", container);
  bool found = false;
  for (const auto& [name, t] : read_pdparams(dir + "/d.pdparams"))
    found = found || name == "Student.head.ctc_head.fc.weight";
  EXPECT_TRUE(found);
}
