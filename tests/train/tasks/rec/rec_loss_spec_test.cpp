// The recognition Loss section: CTCLoss, and PaddleOCR's MultiLoss (CTCLoss +
// SARLoss with weight_1 / weight_2) of PP-OCRv3's MultiHead; mistakes name the key.
#include "ocrforge/train/tasks/rec/rec_loss_spec.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace ocrforge {
namespace {

std::string error_of(const std::string& yaml) {
  const YAML::Node n = YAML::Load(yaml);
  return ocrforge::test::read_error(n, "Loss", [&] { rec_loss_from_yaml(n); });
}

TEST(RecLossSpec, CtcLossAndPaddleOcrsMultiLoss) {
  const RecLossSpec ctc = rec_loss_from_yaml(YAML::Load("{name: CTCLoss, use_focal_loss: true}"));
  EXPECT_EQ(ctc.name, "CTCLoss");
  EXPECT_TRUE(ctc.use_focal_loss);
  EXPECT_TRUE(ctc.ctc);
  EXPECT_FALSE(ctc.sar);
  // ch_PP-OCRv3_rec.yml's Loss, entries without arguments.
  const RecLossSpec v3 = rec_loss_from_yaml(YAML::Load("{name: MultiLoss, loss_config_list: [{CTCLoss: }, {SARLoss: }]}"));
  EXPECT_EQ(v3.name, "MultiLoss");
  EXPECT_TRUE(v3.ctc);
  EXPECT_TRUE(v3.sar);
  EXPECT_DOUBLE_EQ(v3.weight_1, 1.0);
  EXPECT_DOUBLE_EQ(v3.weight_2, 1.0);
  EXPECT_FALSE(v3.sar_ignore_index.has_value());
  const RecLossSpec w = rec_loss_from_yaml(YAML::Load(
      "{name: MultiLoss, weight_1: 0.5, weight_2: 2.0, loss_config_list: [{SARLoss: {ignore_index: 6626}}]}"));
  EXPECT_FALSE(w.ctc);
  EXPECT_TRUE(w.sar);
  EXPECT_DOUBLE_EQ(w.weight_1, 0.5);
  EXPECT_DOUBLE_EQ(w.weight_2, 2.0);
  EXPECT_EQ(w.sar_ignore_index.value_or(-1), 6626);
}

// PP-OCRv4's MultiLoss: CTCLoss + NRTRLoss (label smoothing on by default, as PaddleOCR).
TEST(RecLossSpec, PaddleOcrV4MultiLossReadsNrtrLoss) {
  const RecLossSpec v4 = rec_loss_from_yaml(YAML::Load("{name: MultiLoss, loss_config_list: [{CTCLoss: }, {NRTRLoss: }]}"));
  EXPECT_TRUE(v4.ctc);
  EXPECT_FALSE(v4.sar);
  EXPECT_TRUE(v4.nrtr);
  EXPECT_TRUE(v4.nrtr_smoothing);
  EXPECT_EQ(v4.nrtr_entry, "Loss.loss_config_list[1].NRTRLoss");
  EXPECT_FALSE(rec_loss_from_yaml(YAML::Load("{name: MultiLoss, loss_config_list: [{CTCLoss: }, "
                                             "{NRTRLoss: {smoothing: false}}]}"))
                   .nrtr_smoothing);
  EXPECT_NE(error_of("{name: MultiLoss, loss_config_list: [{CTCLoss: }, {SARLoss: }, {NRTRLoss: }]}").find("NRTRLoss"),
            std::string::npos);
  EXPECT_TRUE(rec_loss_from_yaml(YAML::Load("{name: CTCLoss}")).nrtr_entry.empty());
}

TEST(RecLossSpec, MistakesNameTheKey) {
  EXPECT_NE(error_of("{name: MultiLoss}").find("Loss.loss_config_list: missing"), std::string::npos);
  EXPECT_NE(error_of("{name: MultiLoss, loss_config_list: [{CELoss: }]}").find("unknown loss 'CELoss'"),
            std::string::npos);
  EXPECT_NE(error_of("{name: MultiLoss, loss_config_list: [{SARLoss: }, {SARLoss: }]}").find("listed twice"),
            std::string::npos);
  EXPECT_NE(error_of("{name: MultiLoss, loss_config_list: [{SARLoss: {ignore_idx: 3}}]}")
                .find("unknown config key 'Loss.loss_config_list[0].SARLoss.ignore_idx' "
                      "(did you mean 'Loss.loss_config_list[0].SARLoss.ignore_index'?)"),
            std::string::npos);
  EXPECT_NE(error_of("{name: MultiLoss, weight_3: 1, loss_config_list: [{SARLoss: }]}").find("Loss.weight_3"),
            std::string::npos);
  EXPECT_NE(error_of("{name: AttentionLoss}").find("known: CTCLoss, MultiLoss"), std::string::npos);
}

}  // namespace
}  // namespace ocrforge
