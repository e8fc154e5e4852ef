// make_optimizer: which parameters get which L2 decay, and that the groups
// really change the update (a zero gradient moves a parameter only through
// its decay).
#include "ocrforge/train/optim/optimizer_factory.h"

#include <gtest/gtest.h>

#include "ocrforge/train/tasks/rec/rec_model.h"

using namespace ocrforge;

namespace {

struct TwoLayers : torch::nn::Module {
  TwoLayers() {
    body = register_module("body", torch::nn::Linear(3, 3));
    head = register_module("head", torch::nn::Linear(3, 2));
  }
  torch::nn::Linear body{nullptr}, head{nullptr};
};

// One step with zero gradients: only the decay moves a parameter.
void zero_grad_step(torch::nn::Module& m, torch::optim::Optimizer& o) {
  for (auto& p : m.parameters()) p.mutable_grad() = torch::zeros_like(p);
  o.step();
}

OptimizerSpec spec(const std::string& name, double l2) {
  OptimizerSpec s;
  s.name = name;
  s.l2_factor = l2;
  s.lr.learning_rate = 0.1;
  return s;
}

}  // namespace

TEST(OptimizerFactory, PinnedDecayOverridesTheConfigFactor) {
  for (const std::string name : {"Adam", "Momentum", "SGD"}) {
    torch::manual_seed(0);
    TwoLayers m;
    const auto body0 = m.body->weight.detach().clone(), head0 = m.head->weight.detach().clone();
    auto opt = make_optimizer(spec(name, 0.5), m, [](const std::string& n) -> std::optional<float> {
      if (n.rfind("head.", 0) == 0) return 0.0f;  // as MobileNetV1Enhance's BatchNorm
      return std::nullopt;
    });
    EXPECT_EQ(opt->param_groups().size(), 2u) << name;
    zero_grad_step(m, *opt);
    EXPECT_FALSE(torch::equal(m.body->weight, body0)) << name << ": the config's L2 must still apply";
    EXPECT_TRUE(torch::equal(m.head->weight, head0)) << name << ": pinned 0 must mean no decay";
  }
}

TEST(OptimizerFactory, WithoutPinsOneGroupDecaysEverything) {
  TwoLayers m;
  const auto head0 = m.head->weight.detach().clone();
  auto opt = make_optimizer(spec("Adam", 0.5), m);
  EXPECT_EQ(opt->param_groups().size(), 1u);
  zero_grad_step(m, *opt);
  EXPECT_FALSE(torch::equal(m.head->weight, head0));
}

TEST(OptimizerFactory, AdamWSkipsOneDimParamsWhenAsked) {
  TwoLayers m;
  OptimizerSpec s = spec("AdamW", 0);
  s.weight_decay = 0.5;
  s.one_dim_param_no_weight_decay = true;
  const auto bias0 = m.body->bias.detach().clone(), w0 = m.body->weight.detach().clone();
  auto opt = make_optimizer(s, m);
  zero_grad_step(m, *opt);
  EXPECT_TRUE(torch::equal(m.body->bias, bias0));
  EXPECT_FALSE(torch::equal(m.body->weight, w0));
}

// PaddleOCR's no_weight_decay_name (ch_PP-OCRv4_rec_svtr_large.yml: "norm
// pos_embed ..."): a parameter whose name holds one of the words keeps its value.
TEST(OptimizerFactory, AdamWSkipsNamedParams) {
  TwoLayers m;
  OptimizerSpec s = spec("AdamW", 0);
  s.weight_decay = 0.5;
  s.no_weight_decay_names = {"pos_embed", "head"};
  const auto head0 = m.head->weight.detach().clone(), w0 = m.body->weight.detach().clone();
  const auto bias0 = m.body->bias.detach().clone();
  auto opt = make_optimizer(s, m);
  zero_grad_step(m, *opt);
  EXPECT_TRUE(torch::equal(m.head->weight, head0));
  EXPECT_FALSE(torch::equal(m.body->weight, w0));
  EXPECT_FALSE(torch::equal(m.body->bias, bias0));  // 1-D, but one_dim_param_no_weight_decay is off
}

TEST(OptimizerFactory, RecModelPinsHeadAndBatchNormDecay) {
  // The PP-OCRv3 English layout: MobileNetV1Enhance (BN scale/shift pinned
  // to 0) and a CTC head with fc_decay; the rest takes the config's factor.
  RecArchSpec a;
  a.algorithm = "SVTR_LCNet";
  a.backbone.name = "MobileNetV1Enhance";
  a.backbone.scale = 0.5;
  a.neck.encoder_type = "reshape";
  a.head.out_channels = 11;
  a.head.fc_decay = 1e-5f;
  RecModel model(a);
  auto opt = make_optimizer(spec("Adam", 3e-5), *model,
                            [model](const std::string& n) { return model->pinned_l2_decay(n); });
  std::vector<double> decays;
  for (auto& g : opt->param_groups())
    decays.push_back(static_cast<torch::optim::AdamOptions&>(g.options()).weight_decay());
  std::sort(decays.begin(), decays.end());
  EXPECT_EQ(decays, (std::vector<double>{0.0, 1e-5f, 3e-5}));
}
