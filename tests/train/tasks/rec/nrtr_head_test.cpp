// The NRTR branch of PP-OCRv4's MultiHead: PaddleOCR's parameter names and
// shapes (so its weights map by name), its parameter count for
// ch_PP-OCRv4_rec.yml, the padding row, causal teacher forcing (step t never
// sees label positions after t), use_pos, and training-only dropout.
#include "ocrforge/train/tasks/rec/nrtr_head.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "ocrforge/train/tasks/rec/rec_model.h"

namespace ocrforge {
namespace {

NrtrHeadSpec small_spec(int out_channels, bool use_pos = false) {
  NrtrHeadSpec s;
  s.out_channels = out_channels;
  s.nrtr_dim = 64;
  s.num_decoder_layers = 2;
  s.max_text_length = 8;
  s.use_pos = use_pos;
  return s;
}

std::map<std::string, std::vector<int64_t>> shapes_of(torch::nn::Module& m) {
  std::map<std::string, std::vector<int64_t>> out;
  for (const auto& p : m.named_parameters()) out[p.key()] = p.value().sizes().vec();
  for (const auto& b : m.named_buffers()) out[b.key()] = b.value().sizes().vec();
  return out;
}

TEST(NrtrHead, PaddleOcrNamesAndShapes) {
  const NrtrHeadSpec spec = small_spec(14);  // 10 digits + blank/unk/<s>/</s>
  NrtrTransformer head(spec);
  const auto s = shapes_of(*head);
  const std::map<std::string, std::vector<int64_t>> expect = {
      {"embedding.embedding.weight", {15, 64}},  // out_channels + 1 rows
      {"positional_encoding.pe", {5000, 1, 64}},
      {"decoder.0.self_attn.qkv.weight", {192, 64}},
      {"decoder.0.self_attn.qkv.bias", {192}},
      {"decoder.0.self_attn.out_proj.weight", {64, 64}},
      {"decoder.0.cross_attn.q.weight", {64, 64}},
      {"decoder.0.cross_attn.kv.weight", {128, 64}},
      {"decoder.0.cross_attn.out_proj.bias", {64}},
      {"decoder.1.norm1.weight", {64}},
      {"decoder.1.norm3.bias", {64}},
      {"decoder.1.mlp.fc1.weight", {256, 64}},
      {"decoder.1.mlp.fc2.weight", {64, 256}},
      {"tgt_word_prj.weight", {15, 64}}};
  for (const auto& [name, shape] : expect) {
    ASSERT_TRUE(s.count(name)) << name;
    EXPECT_EQ(s.at(name), shape) << name;
  }
  EXPECT_FALSE(s.count("tgt_word_prj.bias"));
  EXPECT_FALSE(s.count("decoder.2.norm1.weight"));
  // The padding class embeds as zeros (Paddle's padding_idx 0).
  EXPECT_EQ(head->named_parameters()["embedding.embedding.weight"][0].abs().sum().item<double>(), 0.0);

  NrtrTokens tokens(24, small_spec(14, /*use_pos=*/true));
  const auto t = shapes_of(*tokens);
  EXPECT_EQ(t.at("1.fc.weight"), (std::vector<int64_t>{64, 24}));
  EXPECT_EQ(t.at("2.dec_pos_embed"), (std::vector<int64_t>{1, 80, 64}));
  EXPECT_FALSE(shapes_of(*NrtrTokens(24, small_spec(14))).count("2.dec_pos_embed"));
}

// ch_PP-OCRv4_rec.yml's branch: nrtr_dim 384, 4 layers, 6625 CTC classes
// (6628 NRTR classes, 6629 embedding rows). Counted from PaddleOCR's layer
// definitions: 2 x 6629 x 384 (embedding, projection) + 4 x 2,366,592 per
// decoder block.
TEST(NrtrHead, PaddleOcrV4ParameterCount) {
  NrtrHeadSpec spec;
  spec.out_channels = 6628;
  spec.nrtr_dim = 384;
  EXPECT_EQ(spec.heads(), 12);
  EXPECT_EQ(count_parameters(*NrtrTransformer(spec)), 2 * 6629 * 384 + 4 * 2366592);
}

TEST(NrtrHead, TeacherForcingIsCausal) {
  torch::manual_seed(4);
  NrtrTransformer head(small_spec(14));
  head->eval();  // no dropout: outputs are comparable
  const auto memory = torch::randn({2, 10, 64});
  // [<s>, text, </s>, 0...]: lengths 3 and 1.
  auto label = torch::tensor({{2, 5, 6, 7, 3, 0, 0, 0}, {2, 9, 3, 0, 0, 0, 0, 0}}, torch::kInt64);
  const auto length = torch::tensor({3, 1}, torch::kInt64);
  const auto out = head->forward(memory, label, length);
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2, 4, 15}));  // max length 3 + 1 steps
  // Changing the label at position 2 changes steps >= 2 only.
  auto changed = label.clone();
  changed[0][2] = 11;
  const auto out2 = head->forward(memory, changed, length);
  EXPECT_TRUE(torch::allclose(out.narrow(1, 0, 2), out2.narrow(1, 0, 2), 1e-5, 1e-5));
  EXPECT_FALSE(torch::allclose(out[0].narrow(0, 2, 2), out2[0].narrow(0, 2, 2), 1e-3, 1e-3));
  // The memory (backbone tokens) reaches every step.
  const auto out3 = head->forward(memory * 2, label, length);
  EXPECT_FALSE(torch::allclose(out.narrow(1, 0, 1), out3.narrow(1, 0, 1), 1e-3, 1e-3));
  // Training mode draws dropout: two passes differ.
  head->train();
  EXPECT_FALSE(torch::allclose(head->forward(memory, label, length), head->forward(memory, label, length)));
  // A label too short for the longest text is refused.
  EXPECT_ANY_THROW(head->forward(memory, label.narrow(1, 0, 4), length));
}

TEST(NrtrHead, TokensFlattenTheFeatureMapAndAddPositions) {
  torch::manual_seed(5);
  NrtrTokens plain(24, small_spec(14));
  const auto feat = torch::randn({2, 24, 1, 40});
  EXPECT_EQ(plain->forward(feat).sizes(), (std::vector<int64_t>{2, 40, 64}));
  NrtrTokens pos(24, small_spec(14, true));
  {
    torch::NoGradGuard g;
    pos->named_parameters()["1.fc.weight"].copy_(plain->named_parameters()["1.fc.weight"]);
  }
  const auto diff = pos->forward(feat) - plain->forward(feat);  // the position embedding, same for every sample
  EXPECT_TRUE(torch::allclose(diff[0], pos->named_parameters()["2.dec_pos_embed"][0].narrow(0, 0, 40), 1e-5, 1e-5));
  EXPECT_ANY_THROW(pos->forward(torch::randn({1, 24, 1, 81})));  // more tokens than positions
}

TEST(NrtrHead, CausalMask) {
  const auto m = causal_mask(3, torch::TensorOptions().dtype(torch::kFloat));
  EXPECT_EQ(m[0][0].item<float>(), 0.0f);
  EXPECT_EQ(m[2][1].item<float>(), 0.0f);
  EXPECT_TRUE(std::isinf(m[0][1].item<float>()));
  EXPECT_TRUE(std::isinf(m[1][2].item<float>()));
}

}  // namespace
}  // namespace ocrforge
