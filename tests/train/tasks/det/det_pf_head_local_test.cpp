// PFHeadLocal (the PP-OCRv4 / v5 server detectors' head): PaddleOCR's names
// and parameter counts (det_db_head.py), the eval map 0.5 * (P + cbn), the
// training maps [cbn, T, step(P, T)] that DBLoss reads, the mode errors, and
// a few training steps of a small PFHeadLocal detector lowering the DB loss.
#include "ocrforge/train/tasks/det/det_pf_head_local.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/db_loss.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters
#include "test_support.h"

using namespace ocrforge;

namespace {
DetHeadSpec pf(const std::string& mode) {
  DetHeadSpec s;
  s.name = "PFHeadLocal";
  s.mode = mode;
  return s;
}

const DBHeadBranchImpl& branch(const torch::nn::Module& head, const std::string& name) {
  for (const auto& kv : head.named_children())
    if (kv.key() == name) return *kv.value()->as<DBHeadBranchImpl>();
  throw std::runtime_error("no branch " + name);
}

// The map LocalModule refines, computed from the head's own layers.
torch::Tensor refined(PFHeadLocalImpl& h, const torch::Tensor& shrink, const torch::Tensor& f) {
  const auto up = torch::upsample_nearest2d(f, {f.size(2) * 2, f.size(3) * 2});
  return torch::sigmoid(h.cbn_layer()->forward(up, shrink));
}
}  // namespace

TEST(PFHeadLocal, NamesAndParameterCountsArePaddleOcrs) {
  // On LKPAN 256: DBHead 328,834 (two branches of 164,417) + LocalModule(64, mid):
  //   last_3 = ConvBNLayer 3x3 (64 + 1) -> mid, no bias, BN 2 * mid; last_1 = 1x1 mid -> 1 with bias.
  //   large (mid 64): 65*64*9 + 128 + 64 + 1 = 37,633; small (mid 32): 65*32*9 + 64 + 32 + 1 = 18,817.
  PFHeadLocalImpl large(256, pf("large")), small(256, pf("small"));
  EXPECT_EQ(count_parameters(large), 328834 + 37633);
  EXPECT_EQ(count_parameters(small), 328834 + 18817);
  const auto p = large.named_parameters();
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"binarize.conv1.weight", {64, 256, 3, 3}},
           {"thresh.conv3.bias", {1}},
           {"cbn_layer.last_3.conv.weight", {64, 65, 3, 3}},
           {"cbn_layer.last_3.bn.weight", {64}},
           {"cbn_layer.last_1.weight", {1, 64, 1, 1}},
           {"cbn_layer.last_1.bias", {1}}}) {
    ASSERT_TRUE(p.contains(name)) << name;
    EXPECT_EQ(p[name].sizes().vec(), shape) << name;
  }
  EXPECT_FALSE(p.contains("cbn_layer.last_3.conv.bias"));
  EXPECT_EQ(small.named_parameters()["cbn_layer.last_3.conv.weight"].sizes(), (torch::IntArrayRef{32, 65, 3, 3}));
  EXPECT_TRUE(large.named_buffers().contains("cbn_layer.last_3.bn.running_var"));
}

TEST(PFHeadLocal, EvalAveragesTheTwoMapsTrainingGivesDbLossItsThree) {
  torch::manual_seed(1);
  DetHeadSpec spec = pf("large");
  spec.k = 50;
  PFHeadLocalImpl h(32, spec);
  const torch::Tensor x = torch::randn({2, 32, 8, 12});
  torch::NoGradGuard g;
  h.eval();
  const torch::Tensor y = h.forward(x);
  ASSERT_EQ(y.sizes(), (torch::IntArrayRef{2, 1, 32, 48}));
  auto [shrink, f] = const_cast<DBHeadBranchImpl&>(branch(h, "binarize")).forward_with_feature(x);
  EXPECT_EQ(f.sizes(), (torch::IntArrayRef{2, 8, 16, 24}));  // C/4 at half the output size
  const torch::Tensor cbn = refined(h, shrink, f);
  EXPECT_TRUE(torch::allclose(y, 0.5 * (shrink + cbn), 1e-6, 1e-6));
  EXPECT_FALSE(torch::allclose(y, shrink, 1e-3, 1e-3));  // the refinement is there

  h.train();
  const torch::Tensor maps = h.forward(x);
  ASSERT_EQ(maps.sizes(), (torch::IntArrayRef{2, 3, 32, 48}));
  // Training-mode BN normalises with the batch: recompute in the same mode.
  auto [p, ft] = const_cast<DBHeadBranchImpl&>(branch(h, "binarize")).forward_with_feature(x);
  const torch::Tensor t = const_cast<DBHeadBranchImpl&>(branch(h, "thresh")).forward(x);
  EXPECT_TRUE(torch::allclose(maps.slice(1, 0, 1), refined(h, p, ft), 1e-5, 1e-6));  // DBLoss's "shrink": cbn
  EXPECT_TRUE(torch::allclose(maps.slice(1, 1, 2), t, 1e-6, 1e-6));
  EXPECT_TRUE(torch::allclose(maps.slice(1, 2, 3), torch::sigmoid(50 * (p - t)), 1e-5, 1e-6));  // base map P
}

TEST(PFHeadLocal, ModeAndNameErrors) {
  const auto error = [](const std::string& head) {
    const YAML::Node n = YAML::Load("{Backbone: {name: MobileNetV3, model_name: small, scale: 0.35}, "
                                    "Neck: {name: LKPAN, out_channels: 32}, Head: " + head + "}");
    return test::read_error(n, "Architecture", [&] { det_arch_from_yaml(n); });
  };
  EXPECT_EQ(error("{name: PFHeadLocal, k: 50, mode: large, fix_nan: True, kernel_list: [3, 2, 2]}"), "");
  EXPECT_EQ(error("{name: PFHeadLocal}"), "");  // PaddleOCR's default mode: small
  EXPECT_NE(error("{name: PFHeadLocal, mode: medium}").find("Architecture.Head.mode: 'medium'"), std::string::npos);
  EXPECT_NE(error("{name: PFHeadLocal, mode: Large}").find("Architecture.Head.mode"), std::string::npos);
  EXPECT_NE(error("{name: DBHead, mode: large}").find("unknown config key 'Architecture.Head.mode'"),
            std::string::npos);
  EXPECT_NE(error("{name: PFHead}").find("unknown head 'PFHead' (known: DBHead, PFHeadLocal)"), std::string::npos);
  EXPECT_EQ(det_arch_from_yaml(YAML::Load("{Backbone: {name: ResNet_vd}, Neck: {name: LKPAN}, "
                                          "Head: {name: PFHeadLocal}}"))
                .head.mode,
            "small");
  EXPECT_THROW(PFHeadLocalImpl(32, pf("medium")), UsageError);
}

// A small detector with the server head and neck (MobileNetV3 small x0.35 +
// LKPAN 32 with IntraCL + PFHeadLocal large) fits one 64x64 batch: the DB
// loss falls over 16 Adam steps.
TEST(PFHeadLocal, ATrainingStepLowersTheDbLoss) {
  torch::manual_seed(2);
  const DetArchSpec spec = det_arch_from_yaml(YAML::Load(
      "{model_type: det, algorithm: DB, Backbone: {name: MobileNetV3, model_name: small, scale: 0.35}, "
      "Neck: {name: LKPAN, out_channels: 32, intracl: true}, Head: {name: PFHeadLocal, k: 50, mode: large, "
      "fix_nan: True}}"));
  DetModel m(spec);
  m->train();
  const torch::Tensor x = torch::randn({2, 3, 64, 64});
  DBTargets t;
  t.shrink_map = torch::zeros({2, 64, 64});
  t.shrink_map.slice(1, 20, 36).slice(2, 8, 56).fill_(1);  // a text line
  t.shrink_mask = torch::ones({2, 64, 64});
  t.threshold_map = torch::full({2, 64, 64}, 0.3);
  t.threshold_map.slice(1, 16, 40).slice(2, 4, 60).fill_(0.7);
  t.threshold_mask = torch::ones({2, 64, 64});
  const DBLoss loss;
  torch::optim::Adam opt(m->parameters(), torch::optim::AdamOptions(5e-3));
  double first = 0, last = 0;
  for (int step = 0; step < 16; ++step) {
    opt.zero_grad();
    const DBLossParts parts = loss(m->forward(x), t);
    parts.loss.backward();
    opt.step();
    (step == 0 ? first : last) = parts.loss.item<double>();
  }
  std::printf("PFHeadLocal detector: DB loss %.4f -> %.4f after 16 steps\n", first, last);
  EXPECT_LT(last, 0.85 * first);
  // LocalModule is trained through the shrink term.
  EXPECT_TRUE(m->named_parameters()["head.cbn_layer.last_1.weight"].grad().defined());
}
