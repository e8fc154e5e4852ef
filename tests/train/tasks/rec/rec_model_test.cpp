// RecModel: output shapes per backbone x neck x input size (the T PaddleOCR
// gives), parameter names, eval/train behaviour, determinism, use_guide.
#include "ocrforge/train/tasks/rec/rec_model.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "train/tasks/rec/rec_specs.h"

using namespace ocrforge;
using namespace ocrforge::test;

namespace {

struct Case {
  int h, w;
  int64_t t;  // expected sequence length
};

// Every neck type on `b`, at 48x320 and 32x100: logits N x T x classes.
void expect_shapes(const BackboneSpec& b, const std::vector<Case>& cases) {
  for (const std::string type : {"reshape", "fc", "rnn", "svtr"}) {
    torch::manual_seed(0);
    RecModel model(rec_spec(b, neck(type), 11));
    model->eval();
    for (const auto& c : cases) {
      SCOPED_TRACE(b.name + " " + type + " " + std::to_string(c.h) + "x" + std::to_string(c.w));
      torch::NoGradGuard g;
      const auto out = model->forward(torch::randn({2, 3, c.h, c.w}));
      EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2, c.t, 11}));
    }
  }
}

std::vector<std::string> names(RecModel& m) {
  std::vector<std::string> out;
  for (const auto& p : m->named_parameters()) out.push_back(p.key());
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST(RecModelShapes, MobileNetV1EnhancePPOCRv3Settings) {
  // stride [1,2] + avg [2,2]: 48x320 -> 1x40 (PP-OCRv3); 32x100 -> 1x12.
  expect_shapes(v1_ppocrv3(), {{48, 320, 40}, {32, 100, 12}, {32, 320, 40}});
}

TEST(RecModelShapes, MobileNetV1EnhanceEnglishPPOCRv3Pool) {
  // en_PP-OCRv3 leaves last_pool_kernel_size at PaddleOCR's [3, 2]: needs 3 feature rows.
  auto b = v1_ppocrv3();
  b.last_pool_kernel_size = {3, 2};
  expect_shapes(b, {{48, 320, 40}});
  RecModel model(rec_spec(b, neck("svtr")));
  EXPECT_THROW(model->forward(torch::randn({1, 3, 32, 100})), UsageError);
}

TEST(RecModelShapes, MobileNetV1EnhancePaddleDefaults) {
  // stride 1 + max 2x2: 48x320 -> 1x80; 32x100 -> 1x25 (CRNN-style T).
  expect_shapes(v1_defaults(), {{48, 320, 80}, {32, 100, 25}, {32, 320, 80}});
}

TEST(RecModelShapes, MobileNetV3Large) {
  expect_shapes(mv3("large"), {{48, 320, 80}, {32, 100, 25}, {32, 320, 80}});
}

TEST(RecModelShapes, MobileNetV3SmallV2Strides) {
  // ch_ppocr_mobile_v2.0: small_stride [1,2,2,2].
  expect_shapes(mv3("small", {1, 2, 2, 2}), {{48, 320, 80}, {32, 100, 25}, {32, 320, 80}});
}

TEST(RecModelShapes, MobileNetV3SmallDefaultStridesAt48) {
  expect_shapes(mv3("small"), {{48, 320, 80}});
}

TEST(RecModelShapes, TooSmallInputNamesTheBackbone) {
  // small_stride [2,2,2,2] takes 32 rows down to 1 before the 2x2 pool.
  RecModel model(rec_spec(mv3("small"), neck("rnn")));
  try {
    model->forward(torch::randn({1, 3, 32, 100}));
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("MobileNetV3: input 32x100"), std::string::npos) << e.what();
  }
}

TEST(RecModelShapes, ReshapeNeckNeedsHeightOne) {
  // 64 rows leave a 2-row feature map: Im2Seq must refuse it clearly.
  for (const std::string type : {"reshape", "rnn", "svtr"}) {
    RecModel model(rec_spec(v1_defaults(), neck(type)));
    try {
      model->forward(torch::randn({1, 3, 64, 100}));
      FAIL() << "expected UsageError for " << type;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("height must be 1"), std::string::npos) << e.what();
    }
  }
}

TEST(RecModelShapes, ForwardAllExposesFeatures) {
  RecModel model(rec_spec(v1_ppocrv3(), neck("svtr")));
  model->eval();
  torch::NoGradGuard g;
  const auto f = model->forward_all(torch::randn({2, 3, 48, 320}));
  EXPECT_EQ(f.backbone_out.sizes(), (std::vector<int64_t>{2, 256, 1, 40}));
  EXPECT_EQ(f.neck_out.sizes(), (std::vector<int64_t>{2, 40, 16}));
  EXPECT_EQ(f.logits.sizes(), (std::vector<int64_t>{2, 40, 11}));
  const auto p = model->predict(torch::randn({2, 3, 48, 320}));
  EXPECT_TRUE(torch::allclose(p.sum(2), torch::ones({2, 40}), 1e-5, 1e-5));
}

TEST(RecModelNames, PrefixesFollowPaddleOCR) {
  RecModel svtr(rec_spec(v1_ppocrv3(), neck("svtr")));
  const auto n = names(svtr);
  for (const auto& k : n)
    EXPECT_TRUE(k.rfind("backbone.", 0) == 0 || k.rfind("neck.", 0) == 0 || k.rfind("head.", 0) == 0) << k;
  for (const char* k : {"backbone.conv1._conv.weight", "backbone.conv1._batch_norm.weight",
                        "backbone.block_list.0._depthwise_conv._conv.weight", "backbone.block_list.12._se.conv1.weight",
                        "backbone.block_list.12._pointwise_conv._batch_norm.bias", "neck.encoder.conv1.conv.weight",
                        "neck.encoder.conv1.norm.weight", "neck.encoder.svtr_block.0.mixer.qkv.weight",
                        "neck.encoder.svtr_block.0.mixer.qkv.bias", "neck.encoder.svtr_block.0.mlp.fc2.weight",
                        "neck.encoder.svtr_block.0.norm1.weight", "neck.encoder.norm.weight",
                        "neck.encoder.conv1x1.conv.weight", "head.fc.weight", "head.fc.bias"})
    EXPECT_TRUE(has(n, k)) << k;
  EXPECT_FALSE(has(n, "backbone.block_list.10._se.conv1.weight"));  // SE only in the last two blocks
  EXPECT_TRUE(has(n, "backbone.block_list.0._depthwise_conv._batch_norm.weight"));

  auto h = rec_spec(mv3("small"), neck("rnn"));
  h.head.mid_channels = 32;
  RecModel crnn(h);
  const auto m = names(crnn);
  for (const char* k : {"backbone.conv1.conv.weight", "backbone.conv1.bn.weight", "backbone.blocks.0.mid_se.conv1.weight",
                        "backbone.blocks.10.linear_conv.bn.bias", "backbone.conv2.conv.weight",
                        "neck.encoder.lstm.weight_ih_l0", "neck.encoder.lstm.weight_hh_l1_reverse", "head.fc1.weight",
                        "head.fc2.bias"})
    EXPECT_TRUE(has(m, k)) << k;

  RecModel fc(rec_spec(mv3("large"), neck("fc")));
  EXPECT_TRUE(has(names(fc), "neck.encoder.fc.weight"));
  EXPECT_FALSE(has(names(fc), "backbone.blocks.0.mid_se.conv1.weight"));  // large block 0 has no SE

  auto nose = mv3("small");
  nose.disable_se = true;
  RecModel plain(rec_spec(nose, neck("reshape")));
  for (const auto& k : names(plain)) EXPECT_EQ(k.find("mid_se"), std::string::npos) << k;
}

TEST(RecModelModes, DropoutAndBatchNormFollowTrainEval) {
  torch::manual_seed(3);
  RecModel model(rec_spec(v1_ppocrv3(), neck("svtr")));
  const auto x = torch::randn({2, 3, 48, 320});
  torch::NoGradGuard g;
  auto bn = model->named_buffers()["backbone.conv1._batch_norm.running_mean"];  // shares storage
  const auto before = bn.clone();
  model->train();
  const auto a = model->forward(x), b = model->forward(x);
  EXPECT_FALSE(torch::allclose(a, b)) << "svtr dropout should differ between two training passes";
  EXPECT_FALSE(torch::equal(before, bn)) << "training updates BatchNorm statistics";
  model->eval();
  const auto stats = bn.clone();
  const auto c = model->forward(x), d = model->forward(x);
  EXPECT_TRUE(torch::equal(c, d));
  EXPECT_TRUE(torch::equal(stats, bn)) << "eval must not touch BatchNorm statistics";
}

TEST(RecModelModes, DeterministicWithFixedSeed) {
  const auto spec = rec_spec(mv3("small", {1, 2, 2, 2}), neck("svtr"));
  torch::manual_seed(42);
  RecModel m1(spec);
  torch::manual_seed(42);
  RecModel m2(spec);
  m1->eval();
  m2->eval();
  const auto x = torch::randn({2, 3, 32, 100});
  torch::NoGradGuard g;
  EXPECT_TRUE(torch::equal(m1->forward(x), m2->forward(x)));
}

TEST(RecModelFormat, ChannelsLastChangesStridesNotResults) {
  // In double precision, so that only a real layout bug (not float
  // summation order, which LayerNorm amplifies) could make them differ.
  const auto dtype = torch::get_default_dtype();
  torch::set_default_dtype(caffe2::TypeMeta::Make<double>());
  for (const auto& b : {v1_ppocrv3(), mv3("small", {1, 2, 2, 2})}) {
    SCOPED_TRACE(b.name);
    const auto spec = rec_spec(b, neck("svtr"));
    torch::manual_seed(7);
    RecModel nchw(spec);
    torch::manual_seed(7);
    RecModel nhwc(spec);
    nhwc->set_channels_last(true);
    EXPECT_TRUE(nhwc->channels_last());
    const std::string first_conv = nhwc->named_parameters().keys().front();  // the stem convolution
    const auto w = nhwc->named_parameters()[first_conv];
    ASSERT_EQ(w.dim(), 4) << first_conv;
    EXPECT_TRUE(w.is_contiguous(at::MemoryFormat::ChannelsLast));
    EXPECT_FALSE(w.is_contiguous());
    EXPECT_TRUE(torch::equal(w, nchw->named_parameters()[first_conv]));
    nchw->eval();
    nhwc->eval();
    const auto x = torch::randn({2, 3, 48, 160});
    const auto a = nchw->forward(x), c = nhwc->forward(x);
    EXPECT_TRUE(torch::allclose(a, c, 1e-9, 1e-12)) << (a - c).abs().max().item<double>();
    a.pow(2).sum().backward();
    c.pow(2).sum().backward();
    const auto ga = nchw->named_parameters()[first_conv].grad();
    const auto gc = nhwc->named_parameters()[first_conv].grad();
    EXPECT_TRUE(torch::allclose(ga, gc, 1e-9, 1e-12)) << (ga - gc).abs().max().item<double>();
  }
  torch::set_default_dtype(dtype);
}

TEST(RecModelGuide, UseGuideStopsGradientIntoTheBackbone) {
  for (bool guide : {false, true}) {
    auto n = neck("svtr");
    n.use_guide = guide;
    RecModel model(rec_spec(v1_ppocrv3(), n));
    model->forward(torch::randn({2, 3, 48, 320})).sum().backward();
    const auto w = model->named_parameters()["backbone.conv1._conv.weight"];
    EXPECT_EQ(w.grad().defined(), !guide) << "use_guide=" << guide;
    EXPECT_TRUE(model->named_parameters()["neck.encoder.conv1.conv.weight"].grad().defined());
  }
}

TEST(RecModelDecay, PinnedL2AndNoDecayRule) {
  auto s = rec_spec(v1_ppocrv3(), neck("fc"));
  s.head.fc_decay = 1e-5f;
  RecModel model(s);
  EXPECT_FLOAT_EQ(*model->pinned_l2_decay("head.fc.weight"), 1e-5f);
  EXPECT_FLOAT_EQ(*model->pinned_l2_decay("neck.encoder.fc.bias"), 1e-5f);
  EXPECT_FLOAT_EQ(*model->pinned_l2_decay("backbone.conv1._batch_norm.weight"), 0.f);
  EXPECT_FALSE(model->pinned_l2_decay("backbone.conv1._conv.weight").has_value());
  const auto p = model->named_parameters();
  EXPECT_TRUE(is_no_decay_param(p["head.fc.bias"]));
  EXPECT_TRUE(is_no_decay_param(p["backbone.conv1._batch_norm.weight"]));
  EXPECT_FALSE(is_no_decay_param(p["head.fc.weight"]));
  EXPECT_FALSE(is_no_decay_param(p["backbone.conv1._conv.weight"]));
}

TEST(RecModelInit, PaddleInitialisers) {
  torch::manual_seed(1);
  RecModel model(rec_spec(v1_ppocrv3(0.5f), neck("svtr")));
  const auto p = model->named_parameters();
  // CTC head on the 16-wide test neck: U(+-1/sqrt(16)) for weight and bias.
  EXPECT_LE(p["head.fc.weight"].abs().max().item<float>(), 0.25f);
  EXPECT_GT(p["head.fc.weight"].abs().max().item<float>(), 0.2f);
  EXPECT_GT(p["head.fc.bias"].abs().max().item<float>(), 0.f);
  // svtr Linear: truncated normal, std 0.02, cut at 2 std; zero bias.
  const auto q = p["neck.encoder.svtr_block.0.mixer.qkv.weight"];
  EXPECT_LE(q.abs().max().item<float>(), 0.04f + 1e-6f);
  EXPECT_NEAR(q.std().item<float>(), 0.02f * 0.88f, 0.002f);  // std of N(0,1) cut at +-2 is 0.88
  EXPECT_EQ(p["neck.encoder.svtr_block.0.mixer.qkv.bias"].abs().max().item<float>(), 0.f);
  // Kaiming normal on the last 1x1 conv (512 inputs at scale 0.5): std sqrt(2/512).
  const auto w = p["backbone.block_list.12._pointwise_conv._conv.weight"];
  EXPECT_NEAR(w.std().item<float>(), std::sqrt(2.f / 512.f), 0.003f);
}

TEST(RecModelSpec, ConstructorValidates) {
  auto s = rec_spec(v1_ppocrv3(), neck("svtr"));
  s.backbone.name = "ResNet45";
  EXPECT_THROW(RecModel{s}, UsageError);
  s = rec_spec(v1_ppocrv3(), neck("svtr"));
  s.neck.hidden_dims = 20;  // not divisible by 8 heads
  EXPECT_THROW(RecModel{s}, UsageError);
  s = rec_spec(v1_ppocrv3(), neck("lstm"));
  EXPECT_THROW(RecModel{s}, UsageError);
}
