// PaddleOCR's IntraCLBlock (det_intracl.h): sub-layer names and shapes as
// intracl.py, the parameter count written out from it, the map size kept
// (odd sizes too), the residual form (a zero BN gives the input back) and
// its forward against the formula computed with plain convolutions.
#include "ocrforge/train/tasks/det/det_intracl.h"

#include <gtest/gtest.h>

#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters

using namespace ocrforge;

TEST(IntraCLBlock, NamesShapesAndParameterCountArePaddleOcrs) {
  IntraCLBlock b(64, 2);  // LKPAN 256's blocks: out_channels/4 = 64, reduce factor 2 -> c = 32
  const auto p = b->named_parameters();
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"conv1x1_reduce_channel.weight", {32, 64, 1, 1}},
           {"conv1x1_reduce_channel.bias", {32}},
           {"conv1x1_return_channel.weight", {64, 32, 1, 1}},
           {"v_layer_7x1.weight", {32, 32, 7, 1}},
           {"v_layer_5x1.weight", {32, 32, 5, 1}},
           {"v_layer_3x1.bias", {32}},
           {"q_layer_1x7.weight", {32, 32, 1, 7}},
           {"q_layer_1x5.weight", {32, 32, 1, 5}},
           {"q_layer_1x3.weight", {32, 32, 1, 3}},
           {"c_layer_7x7.weight", {32, 32, 7, 7}},
           {"c_layer_5x5.weight", {32, 32, 5, 5}},
           {"c_layer_3x3.bias", {32}},
           {"bn.weight", {64}}}) {
    ASSERT_TRUE(p.contains(name)) << name;
    EXPECT_EQ(p[name].sizes().vec(), shape) << name;
  }
  // reduce 64*32 + 32; 7: 32*32*(49 + 7 + 7) + 3*32; 5: 32*32*(25 + 5 + 5) + 3*32;
  // 3: 32*32*(9 + 3 + 3) + 3*32; return 32*64 + 64; bn 2*64.
  EXPECT_EQ(count_parameters(*b), 2080 + 64608 + 35936 + 15456 + 2112 + 128);
  EXPECT_EQ(count_parameters(*b), 120320);
}

TEST(IntraCLBlock, KeepsTheSizeAndIsTheFormula) {
  torch::manual_seed(0);
  IntraCLBlock b(8, 2);
  torch::NoGradGuard g;
  for (auto& kv : b->named_parameters()) kv.value().uniform_(-0.3, 0.3);  // biases too: not all zero
  b->bn->running_mean.uniform_(-0.2, 0.2);
  b->bn->running_var.uniform_(0.5, 1.5);
  b->eval();
  const torch::Tensor x = torch::randn({2, 8, 5, 7});
  const torch::Tensor y = b(x);
  ASSERT_EQ(y.sizes(), x.sizes());
  // The stages chain: each reads the previous stage's sum.
  const auto conv = [](const torch::Tensor& in, const torch::nn::Conv2d& c, int64_t ph, int64_t pw) {
    return torch::conv2d(in, c->weight, c->bias, 1, {ph, pw});
  };
  torch::Tensor r = conv(x, b->conv1x1_reduce_channel, 0, 0);
  for (int i = 0; i < 3; ++i) {  // kernels 7, 5, 3
    const auto& s = b->stages[i];
    const int64_t pad = 3 - i;
    r = conv(r, s.c, pad, pad) + conv(r, s.v, pad, 0) + conv(r, s.q, 0, pad);
  }
  EXPECT_EQ(b->stages[0].v->weight.sizes(), (torch::IntArrayRef{4, 4, 7, 1}));  // stage 0 is the 7 stage
  r = conv(r, b->conv1x1_return_channel, 0, 0);
  r = torch::relu(torch::batch_norm(r, b->bn->weight, b->bn->bias, b->bn->running_mean, b->bn->running_var, false,
                                    0.1, 1e-5, false));
  EXPECT_TRUE(torch::allclose(y, x + r, 1e-5, 1e-5)) << (y - x - r).abs().max().item<double>();
  // A BN that outputs zero leaves the input unchanged: the block is a residual refinement.
  b->bn->weight.zero_();
  b->bn->bias.zero_();
  EXPECT_TRUE(torch::equal(b(x), x));
}
