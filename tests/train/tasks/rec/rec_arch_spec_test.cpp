// rec_arch_from_yaml: PaddleOCR's own Architecture sections parse to the
// right spec (with PaddleOCR's defaults for omitted keys); bad names and keys
// fail with the key path and the known values.
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
// The message of the UsageError rec_arch_from_yaml throws, or of the keys it
// left unread as a run reports them ("" if none).
std::string error_of(const std::string& yaml, int classes = 97) {
  const YAML::Node n = YAML::Load(yaml);
  return ocrforge::test::read_error(n, "Architecture", [&] { rec_arch_from_yaml(n, classes); });
}

const char* kPPOCRv3 = R"(
model_type: rec
algorithm: SVTR_LCNet
Transform:
Backbone:
  name: MobileNetV1Enhance
  scale: 0.5
  last_conv_stride: [1, 2]
  last_pool_type: avg
  last_pool_kernel_size: [2, 2]
Head:
  name: MultiHead
  head_list:
    - CTCHead:
        Neck:
          name: svtr
          dims: 64
          depth: 2
          hidden_dims: 120
          use_guide: True
        Head:
          fc_decay: 0.00001
    - SARHead:
        enc_dim: 512
        max_text_length: 25
)";
}  // namespace

TEST(RecArchFromYaml, PPOCRv3MultiHeadTakesTheCtcAndSarBranches) {
  const auto s = rec_arch_from_yaml(YAML::Load(kPPOCRv3), 6625);
  EXPECT_EQ(s.algorithm, "SVTR_LCNet");
  EXPECT_EQ(s.backbone.name, "MobileNetV1Enhance");
  EXPECT_FLOAT_EQ(s.backbone.scale, 0.5f);
  EXPECT_EQ(s.backbone.last_conv_stride, (std::vector<int>{1, 2}));
  EXPECT_EQ(s.backbone.last_pool_type, "avg");
  EXPECT_EQ(s.backbone.last_pool_kernel_size, (std::vector<int>{2, 2}));
  EXPECT_EQ(s.neck.name, "SequenceEncoder");
  EXPECT_EQ(s.neck.encoder_type, "svtr");
  EXPECT_EQ(s.neck.dims, 64);
  EXPECT_EQ(s.neck.depth, 2);
  EXPECT_EQ(s.neck.hidden_dims, 120);
  EXPECT_TRUE(s.neck.use_guide);
  EXPECT_EQ(s.head.name, "CTCHead");
  EXPECT_EQ(s.head.out_channels, 6625);
  EXPECT_FLOAT_EQ(s.head.fc_decay, 1e-5f);
  // The SARHead: PP-OCRv3's enc_dim / max_text_length, SARHead's other defaults,
  // dictionary + <UKN>, <BOS/EOS>, <PAD> classes; nothing left out.
  ASSERT_TRUE(s.sar.has_value());
  EXPECT_EQ(s.sar->out_channels, 6627);
  EXPECT_EQ(s.sar->enc_dim, 512);
  EXPECT_EQ(s.sar->max_text_length, 25);
  EXPECT_EQ(s.sar->d_k, 512);
  EXPECT_FALSE(s.sar->enc_bi_rnn);
  EXPECT_FALSE(s.sar->enc_gru);
  EXPECT_FLOAT_EQ(s.sar->enc_drop_rnn, 0.1f);
  EXPECT_FLOAT_EQ(s.sar->dec_drop_rnn, 0.0f);
  EXPECT_FLOAT_EQ(s.sar->pred_dropout, 0.1f);
  EXPECT_TRUE(s.sar->pred_concat);
  EXPECT_TRUE(s.dropped_heads.empty());
  // NRTRHead (PP-OCRv4): NRTRLabelDecode's classes are the CTC classes + 3.
  std::string v4 = kPPOCRv3;
  v4.replace(v4.find("    - SARHead:"), std::string::npos, "    - NRTRHead: {nrtr_dim: 384, max_text_length: 25}\n");
  auto n = rec_arch_from_yaml(YAML::Load(v4), 6625);
  EXPECT_FALSE(n.sar.has_value());
  ASSERT_TRUE(n.nrtr.has_value());
  EXPECT_EQ(n.nrtr->out_channels, 6628);
  EXPECT_EQ(n.nrtr->nrtr_dim, 384);
  EXPECT_EQ(n.nrtr->heads(), 12);
  EXPECT_EQ(n.nrtr->num_decoder_layers, 4);
  EXPECT_TRUE(n.dropped_heads.empty());
  drop_nrtr_branch(n);  // a run without NRTRLoss
  EXPECT_FALSE(n.nrtr.has_value());
  EXPECT_EQ(n.dropped_heads, (std::vector<std::string>{"NRTRHead"}));
}

TEST(RecArchFromYaml, OmittedKeysTakePaddleOcrDefaults) {
  // en_PP-OCRv3_rec.yml leaves last_pool_kernel_size out: PaddleOCR then uses [3, 2].
  const auto en = rec_arch_from_yaml(YAML::Load(R"(
Backbone: {name: MobileNetV1Enhance, scale: 0.5, last_conv_stride: [1, 2], last_pool_type: avg}
Neck: {name: SequenceEncoder, encoder_type: svtr}
Head: {name: CTCHead}
)"), 97);
  EXPECT_EQ(en.backbone.last_pool_kernel_size, (std::vector<int>{3, 2}));
  EXPECT_FALSE(en.neck.use_guide);
  EXPECT_EQ(en.neck.hidden_dims, 120);
  EXPECT_FLOAT_EQ(en.head.fc_decay, 0.0004f);
  EXPECT_EQ(en.head.mid_channels, 0);
  // PP-OCRv2 style: no stride / pool keys -> stride 1, max pool.
  const auto v2 = rec_arch_from_yaml(YAML::Load(R"(
Backbone: {name: MobileNetV1Enhance, scale: 0.5}
Neck: {name: SequenceEncoder, encoder_type: rnn, hidden_size: 64}
Head: {name: CTCHead, mid_channels: 96, fc_decay: 0.00001}
)"), 6625);
  EXPECT_EQ(v2.backbone.last_conv_stride, (std::vector<int>{1, 1}));
  EXPECT_EQ(v2.backbone.last_pool_type, "max");
  EXPECT_EQ(v2.neck.hidden_size, 64);
  EXPECT_EQ(v2.head.mid_channels, 96);
  // A single stride value applies to both axes.
  const auto one = rec_arch_from_yaml(YAML::Load(R"(
Backbone: {name: MobileNetV1Enhance, last_conv_stride: 2}
Neck: {name: SequenceEncoder, encoder_type: reshape}
Head: {name: CTCHead}
)"), 10);
  EXPECT_EQ(one.backbone.last_conv_stride, (std::vector<int>{2, 2}));
}

TEST(RecArchFromYaml, CrnnMobileNetV3) {
  const auto s = rec_arch_from_yaml(YAML::Load(R"(
model_type: rec
algorithm: CRNN
Transform:
Backbone: {name: MobileNetV3, scale: 0.5, model_name: small, small_stride: [1, 2, 2, 2], disable_se: false}
Neck: {name: SequenceEncoder, encoder_type: rnn, hidden_size: 48}
Head: {name: CTCHead, fc_decay: 0.00001}
)"), 6625);
  EXPECT_EQ(s.algorithm, "CRNN");
  EXPECT_EQ(s.backbone.name, "MobileNetV3");
  EXPECT_EQ(s.backbone.model_name, "small");
  EXPECT_EQ(s.backbone.small_stride, (std::vector<int>{1, 2, 2, 2}));
  EXPECT_EQ(s.neck.encoder_type, "rnn");
  EXPECT_EQ(s.neck.hidden_size, 48);
  EXPECT_TRUE(s.dropped_heads.empty());
}

TEST(RecArchFromYaml, UnknownNamesListTheKnownOnes) {
  EXPECT_EQ(error_of("{Backbone: {name: X}, Neck: {name: SequenceEncoder, encoder_type: rnn}, Head: {name: CTCHead}}"),
            "Architecture.Backbone.name: unknown backbone 'X' (known: MobileNetV1Enhance, MobileNetV3, PPLCNetV3, PPHGNet_small, "
            "PPHGNetV2_B4, SVTRNet, ResNet)");
  EXPECT_EQ(error_of("{Backbone: {name: MobileNetV3}, Neck: {name: SequenceEncoder, encoder_type: gru}, "
                     "Head: {name: CTCHead}}"),
            "Architecture.Neck.encoder_type: unknown encoder 'gru' (known: reshape, fc, rnn, svtr)");
  EXPECT_EQ(error_of("{Backbone: {name: MobileNetV3}, Neck: {name: FPN}, Head: {name: CTCHead}}"),
            "Architecture.Neck.name: unknown neck 'FPN' (known: SequenceEncoder)");
  EXPECT_EQ(error_of("{Backbone: {name: MobileNetV3}, Head: {name: AttentionHead}}"),
            "Architecture.Head.name: unknown head 'AttentionHead' (known: CTCHead, MultiHead)");
  EXPECT_EQ(error_of("{Backbone: {name: MobileNetV3, model_name: tiny}, Neck: {name: SequenceEncoder, "
                     "encoder_type: rnn}, Head: {name: CTCHead}}"),
            "Architecture.Backbone.model_name: unknown model 'tiny' (known: large, small)");
  EXPECT_EQ(error_of("{Backbone: {name: MobileNetV1Enhance, last_pool_type: min}, Neck: {name: SequenceEncoder, "
                     "encoder_type: rnn}, Head: {name: CTCHead}}"),
            "Architecture.Backbone.last_pool_type: unknown pool 'min' (known: avg, max)");
}

TEST(RecArchFromYaml, UnknownKeysSuggestTheClosest) {
  const auto e = error_of("{Backbone: {name: MobileNetV1Enhance, sclae: 0.5}, Neck: {name: SequenceEncoder, "
                          "encoder_type: rnn}, Head: {name: CTCHead}}");
  EXPECT_NE(e.find("unknown config key 'Architecture.Backbone.sclae' (did you mean 'Architecture.Backbone.scale'?)"), std::string::npos) << e;
  const auto n = error_of(std::string(kPPOCRv3) + "\n", 97);
  EXPECT_EQ(n, "");
  const auto bad = error_of(R"(
Backbone: {name: MobileNetV1Enhance}
Head:
  name: MultiHead
  head_list:
    - CTCHead: {Neck: {name: svtr, dimz: 64}}
)");
  EXPECT_NE(bad.find("unknown config key 'Architecture.Head.head_list[0].CTCHead.Neck.dimz' "
                     "(did you mean 'Architecture.Head.head_list[0].CTCHead.Neck.dims'?)"),
            std::string::npos)
      << bad;
}

TEST(RecArchFromYaml, StructuralErrors) {
  const std::string ok_neck = "Neck: {name: SequenceEncoder, encoder_type: rnn}\nHead: {name: CTCHead}\n";
  EXPECT_NE(error_of("Head: {name: CTCHead}").find("Architecture.Backbone: missing"), std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3}\nHead: {name: CTCHead}").find("Architecture.Neck: CTCHead needs"),
            std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3}\nTransform: {name: TPS}\n" + ok_neck).find("Transform"),
            std::string::npos);
  EXPECT_NE(error_of("algorithm: Distillation\nModels: {Student: {}}").find("Architecture.Models.<name>"),
            std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3, scale: 0.6}\n" + ok_neck).find("MobileNetV3 supports"),
            std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3, small_stride: [2, 2]}\n" + ok_neck).find("needs 4 values"),
            std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3, scale: half}\n" + ok_neck).find("Architecture.Backbone.scale"),
            std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3}\nNeck: {name: SequenceEncoder, encoder_type: svtr, "
                     "hidden_dims: 100}\nHead: {name: CTCHead}")
                .find("not divisible by num_heads 8"),
            std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3}\n" + ok_neck, 1).find("at least 2 CTC classes"), std::string::npos);
  EXPECT_NE(error_of("Backbone: {name: MobileNetV3}\nHead: {name: MultiHead, head_list: [{SARHead: {}}]}")
                .find("no CTCHead entry"),
            std::string::npos);
  const std::string multi = "Backbone: {name: MobileNetV3}\nHead: {name: MultiHead, head_list: [{CTCHead: {Neck: "
                            "{name: rnn}}}, {SARHead: ";
  EXPECT_NE(error_of(multi + "{enc_dims: 64}}]}").find("unknown config key 'Architecture.Head.head_list[1].SARHead.enc_dims' "
                                                      "(did you mean 'Architecture.Head.head_list[1].SARHead.enc_dim'?)"),
            std::string::npos);
  EXPECT_NE(error_of(multi + "{pred_dropout: 1.0}}]}").find("SARHead.pred_dropout: a dropout probability in [0, 1)"),
            std::string::npos);
}
