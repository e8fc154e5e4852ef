// Parameter counts of the PaddleOCR mobile recognisers, pinned. The values
// agree with an independent count from PaddleOCR's layer definitions and are
// quoted in docs/models.md (with the published model sizes).
#include <gtest/gtest.h>

#include <iostream>

#include "ocrforge/train/tasks/rec/rec_model.h"

using namespace ocrforge;

namespace {
struct Counts {
  int64_t backbone, neck, head, total;
};

Counts count(const RecArchSpec& s) {
  RecModel m(s);
  Counts c{count_parameters(*m->backbone()), count_parameters(*m->neck()), count_parameters(*m->head()),
           count_parameters(*m)};
  std::cout << s.algorithm << " " << s.backbone.name << " " << s.backbone.model_name << " " << s.neck.encoder_type
            << " classes " << s.head.out_channels << ": backbone " << c.backbone << " neck " << c.neck << " head "
            << c.head << " total " << c.total << "\n";
  return c;
}

RecArchSpec ppocrv3(int classes) {
  RecArchSpec s;  // the struct defaults are the PP-OCRv3 recipe
  s.head.out_channels = classes;
  return s;
}

RecArchSpec crnn(const std::string& model_name, int hidden, int classes) {
  RecArchSpec s;
  s.algorithm = "CRNN";
  s.backbone.name = "MobileNetV3";
  s.backbone.model_name = model_name;
  s.backbone.small_stride = {1, 2, 2, 2};
  s.neck.encoder_type = "rnn";
  s.neck.hidden_size = hidden;
  s.head.out_channels = classes;
  return s;
}
}  // namespace

TEST(RecParamCount, PPOCRv3Chinese6625) {
  const auto c = count(ppocrv3(6625));
  EXPECT_EQ(c.backbone, 1016160);
  EXPECT_EQ(c.neck, 1192880);
  EXPECT_EQ(c.head, 430625);
  EXPECT_EQ(c.total, 2639665);
}

TEST(RecParamCount, PPOCRv3English97) { EXPECT_EQ(count(ppocrv3(97)).total, 2215345); }

TEST(RecParamCount, CrnnMobileNetV3Small) {
  EXPECT_EQ(count(crnn("small", 96, 6625)).total, 2050689);  // small 0.5 + BiLSTM 96
  EXPECT_EQ(count(crnn("small", 48, 6625)).total, 1081377);  // ch_ppocr_mobile_v2.0_rec
}

TEST(RecParamCount, CrnnMobileNetV3Large) {
  EXPECT_EQ(count(crnn("large", 96, 37)).total, 1451787);  // rec_mv3_none_bilstm_ctc (36 chars + blank)
}

// Scale is a double as in PaddleOCR: make_divisible(0.35 * 240) is 88 there;
// 0.35 kept in a float (0.3499999) built 80, so PaddleOCR weights did not fit.
TEST(RecParamCount, ScaleIsADoubleAsInPaddleOcr) {
  RecArchSpec s = crnn("large", 48, 37);
  s.backbone.scale = 0.35;
  RecModel m(s);
  int with_88 = 0, with_80 = 0;
  for (const auto& p : m->named_parameters()) {
    if (p.value().dim() != 4) continue;
    with_88 += p.value().size(0) == 88;
    with_80 += p.value().size(0) == 80;
  }
  EXPECT_GT(with_88, 0);
  EXPECT_EQ(with_80, 0);
}
