// The SARHead of PP-OCRv3's MultiHead: SARLoss against a cross-entropy
// computed by hand (padding ignored), shapes and parameter names, the
// valid-width masking, dropout only in training, PaddleOCR's parameter count,
// the CTC-only eval output, and use_guide (with the SAR branch only SAR
// trains the backbone).
#include "ocrforge/train/tasks/rec/sar_head.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/ctc_loss.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/train/tasks/rec/sar_loss.h"

namespace ocrforge {
namespace {

TEST(SarLoss, IsTheCrossEntropyOfTheShiftedStepsWithPaddingIgnored) {
  // D = 2 characters: 0, 1; <UKN> 2, <BOS/EOS> 3, <PAD> 4; 4 predicted classes.
  torch::manual_seed(1);
  const auto logits = torch::randn({2, 4, 4});
  const auto label = torch::tensor({{3, 0, 1, 3}, {3, 1, 3, 4}}, torch::kInt64);
  // By hand: step t of the output predicts label[t + 1]; the last step has no
  // target; the <PAD> target is skipped. Targets: (0,0)->0 (0,1)->1 (0,2)->3 (1,0)->1 (1,1)->3.
  const auto l = logits.accessor<float, 3>();
  const auto nll = [&](int n, int t, int target) {
    double z = 0;
    for (int c = 0; c < 4; ++c) z += std::exp(static_cast<double>(l[n][t][c]));
    return std::log(z) - l[n][t][target];
  };
  const double expect = (nll(0, 0, 0) + nll(0, 1, 1) + nll(0, 2, 3) + nll(1, 0, 1) + nll(1, 1, 3)) / 5.0;
  EXPECT_NEAR(sar_loss(logits, label, 4).item<double>(), expect, 1e-5);
  // Counting the padding as a target would change it (and is out of range here).
  EXPECT_THROW(sar_loss(logits, label, 2), Error);
  EXPECT_THROW(sar_loss(logits, label.slice(1, 0, 3), 4), Error);
}

SarHeadSpec small_spec(int out_channels) {
  SarHeadSpec s;
  s.out_channels = out_channels;
  s.enc_dim = 16;
  s.d_k = 8;
  s.max_text_length = 6;
  return s;
}

TEST(SarHead, ShapesAndPaddleOcrParameterNames) {
  torch::manual_seed(2);
  SARHead head(24, small_spec(13));  // 10 digits + <UKN>, <BOS/EOS>, <PAD>
  std::vector<std::string> names;
  for (const auto& p : head->named_parameters()) names.push_back(p.key());
  for (const char* n : {"encoder.rnn_encoder.weight_ih_l0", "encoder.rnn_encoder.weight_hh_l1", "encoder.linear.weight",
                        "decoder.conv1x1_1.weight", "decoder.conv3x3_1.weight", "decoder.conv3x3_1.bias",
                        "decoder.conv1x1_2.weight", "decoder.rnn_decoder.bias_ih_l1", "decoder.embedding.weight",
                        "decoder.prediction.weight"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  // <PAD> embeds as zeros (Paddle's padding_idx).
  EXPECT_EQ(head->named_parameters()["decoder.embedding.weight"][12].abs().sum().item<double>(), 0.0);
  const auto feat = torch::randn({3, 24, 1, 10});
  const auto label = torch::tensor({{11, 1, 2, 11, 12, 12}, {11, 3, 11, 12, 12, 12}, {11, 4, 5, 6, 7, 11}});
  const auto ratio = torch::tensor({1.0f, 0.5f, 0.3f});
  EXPECT_EQ(head->forward(feat, label, ratio).sizes(), (std::vector<int64_t>{3, 6, 12}));
  head->eval();
  const auto probs = head->decode(feat, ratio);
  EXPECT_EQ(probs.sizes(), (std::vector<int64_t>{3, 6, 12}));  // max_text_length steps
  EXPECT_TRUE(torch::allclose(probs.sum(-1), torch::ones({3, 6}), 1e-5, 1e-5));
  EXPECT_THROW(head->forward(torch::randn({3, 20, 1, 10}), label, ratio), Error);
}

// Features right of a sample's valid width (its zero padding) change nothing:
// the encoder reads the state at the last valid column, the attention is
// masked there (the 3x3 key conv of the last valid column still sees one
// column beyond, as in PaddleOCR). With the whole width valid they do change
// the output.
TEST(SarHead, ValidRatioMasksThePaddedColumns) {
  torch::manual_seed(3);
  SARHead head(8, small_spec(13));
  head->eval();
  torch::NoGradGuard no_grad;
  const auto feat = torch::randn({1, 8, 2, 10});
  auto changed = feat.clone();
  changed.slice(3, 5).add_(torch::randn({1, 8, 2, 5}));  // valid width ceil(0.4 * 10) = 4: columns 0..3
  const auto label = torch::tensor({{11, 1, 2, 11, 12, 12}});
  const auto part = torch::tensor({0.4f}), whole = torch::tensor({1.0f});
  EXPECT_TRUE(torch::allclose(head->forward(feat, label, part), head->forward(changed, label, part), 1e-6, 1e-6));
  EXPECT_FALSE(torch::allclose(head->forward(feat, label, whole), head->forward(changed, label, whole), 1e-3, 1e-3));
  // valid width: ceil(ratio * w) computed on the exact ratio; 0.3 in float32 is a little above 0.3.
  EXPECT_TRUE(torch::equal(sar_valid_widths(torch::tensor({0.3f, 0.31f, 1.0f, 0.01f}), 40),
                           torch::tensor({12, 13, 40, 1}, torch::kLong)));
}

TEST(SarHead, PredictionDropoutOnlyWhileTraining) {
  torch::manual_seed(4);
  SARHead head(8, small_spec(13));
  const auto feat = torch::randn({2, 8, 1, 6});
  const auto label = torch::tensor({{11, 1, 11, 12, 12, 12}, {11, 2, 3, 11, 12, 12}});
  const auto ratio = torch::ones({2});
  torch::NoGradGuard no_grad;
  head->eval();
  EXPECT_TRUE(torch::equal(head->forward(feat, label, ratio), head->forward(feat, label, ratio)));
  head->train();
  const auto a = head->forward(feat, label, ratio), b = head->forward(feat, label, ratio);
  EXPECT_FALSE(torch::equal(a, b));
  EXPECT_GT((a == 0).sum().item<int64_t>(), 0);  // dropped logits
}

// PP-OCRv3's SARHead for ppocr_keys_v1.txt (6625 CTC classes -> 6627 SAR
// classes), counted from PaddleOCR's layer definitions: 2 LSTMs of 2 layers
// (4 gates, two bias vectors), the encoder Linear, the attention Linear /
// 3x3 conv / Linear, the embedding and the prediction Linear over
// [decoder state, glimpse, holistic feature].
TEST(SarHead, PaddleOcrsPpOcrV3ParameterCount) {
  // ppocr_keys_v1.txt (6625 CTC classes) and the 97-class English dictionary.
  for (const auto& [classes, published] : {std::pair<int64_t, int64_t>{6627, 24867811}, {99, 11491939}}) {
    const int64_t d = 512, e = 512, k = 512;
    const int64_t lstm = 2 * (4 * e * (e + e) + 2 * 4 * e);
    const int64_t expect = lstm + (e * e + e)                             // encoder
                           + (e * k + k) + (d * k * 9 + k) + (k + 1)      // attention
                           + lstm + classes * e + ((e + d + e) * (classes - 1) + (classes - 1));
    SarHeadSpec s;  // SARHead's defaults with PP-OCRv3's enc_dim 512, max_text_length 25
    s.out_channels = static_cast<int>(classes);
    s.max_text_length = 25;
    SARHead head(512, s);
    EXPECT_EQ(count_parameters(*head), expect) << classes;
    EXPECT_EQ(expect, published) << classes;  // the figures of docs/models.md
  }
}

const char* kMultiHead = R"(
Backbone: {name: MobileNetV1Enhance, scale: 0.5, last_conv_stride: [1, 2], last_pool_type: avg, last_pool_kernel_size: [2, 2]}
Head:
  name: MultiHead
  head_list:
    - CTCHead:
        Neck: {name: svtr, dims: 32, depth: 1, hidden_dims: 32, use_guide: GUIDE}
        Head: {fc_decay: 0.00001}
    - SARHead: {enc_dim: 32, d_k: 16, max_text_length: 6}
)";

RecModel multihead(bool guide) {
  std::string yaml = kMultiHead;
  yaml.replace(yaml.find("GUIDE"), 5, guide ? "true" : "false");
  torch::manual_seed(5);
  return RecModel(rec_arch_from_yaml(YAML::Load(yaml), 11));
}

TEST(RecModelSar, EvalAndForwardAreTheCtcBranchAlone) {
  RecModel m = multihead(false);
  ASSERT_TRUE(m->sar_head());
  const auto x = torch::randn({2, 3, 32, 100});
  m->eval();
  torch::NoGradGuard no_grad;
  const auto ctc = m->forward(x);
  EXPECT_EQ(ctc.size(2), 11);
  const RecForward plain = m->forward_all(x);
  EXPECT_FALSE(plain.sar_logits.defined());
  EXPECT_TRUE(torch::equal(plain.logits, ctc));
  // 11 CTC classes: D = 10 characters, <BOS/EOS> 11, <PAD> 12, 12 predicted classes.
  const SarTargets t{torch::tensor({{11, 1, 2, 11, 12, 12}, {11, 3, 11, 12, 12, 12}}), torch::ones({2})};
  const RecForward with = m->forward_all(x, &t);
  EXPECT_EQ(with.sar_logits.sizes(), (std::vector<int64_t>{2, 6, 12}));
  EXPECT_TRUE(torch::equal(with.logits, ctc));
}

// use_guide: True detaches the CTC neck's input. With the SAR branch built,
// the CTC loss alone then gives the backbone no gradient and the SAR loss
// does; without use_guide the CTC loss reaches the backbone.
TEST(RecModelSar, UseGuideLeavesTheBackboneToTheSarBranch) {
  const auto x = torch::randn({2, 3, 32, 100});
  const auto labels = torch::tensor({{1, 2, 3, 0, 0, 0}, {4, 5, 0, 0, 0, 0}});
  const auto lengths = torch::tensor({3, 2});
  const SarTargets t{torch::tensor({{11, 0, 1, 2, 11, 12}, {11, 3, 4, 11, 12, 12}}), torch::tensor({1.0f, 0.7f})};
  const auto backbone_grad = [](RecModel& m) {
    double sum = 0;
    int defined = 0;
    for (const auto& p : m->backbone()->parameters())
      if (p.grad().defined()) {
        ++defined;
        sum += p.grad().abs().sum().item<double>();
      }
    return std::make_pair(defined, sum);
  };
  for (bool guide : {true, false}) {
    RecModel m = multihead(guide);
    m->train();
    const RecForward f = m->forward_all(x, &t);
    ctc_loss(f.logits, labels, lengths).backward({}, /*retain_graph=*/true);
    const auto [defined, sum] = backbone_grad(m);
    if (guide) {
      EXPECT_EQ(sum, 0.0) << "CTC loss reached the backbone through use_guide";
    } else {
      EXPECT_GT(defined, 10);
      EXPECT_GT(sum, 0.0);
    }
    EXPECT_GT(m->named_parameters()["head.fc.weight"].grad().abs().sum().item<double>(), 0.0);
    // The SAR loss trains the backbone in both cases.
    m->zero_grad();
    sar_loss(f.sar_logits, t.label_sar, 12).backward();
    EXPECT_GT(backbone_grad(m).second, 0.0) << "use_guide=" << guide;
  }
}

}  // namespace
}  // namespace ocrforge
