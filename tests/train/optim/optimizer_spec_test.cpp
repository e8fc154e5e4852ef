// optimizer_spec_from_yaml: PaddleOCR's Optimizer section read with the
// config layer's typed reader (wrong kinds and nonsense values name the key).
#include "ocrforge/train/optim/optimizer_spec.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

static std::string error_of(const std::string& yaml) {
  return ocrforge::test::message_of<UsageError>([&] {
    optimizer_spec_from_yaml(YAML::Load(yaml), 10);
  });
}

TEST(OptimizerSpec, ReadsPaddleOcrKeys) {
  const OptimizerSpec s = optimizer_spec_from_yaml(
      YAML::Load("{name: AdamW, beta1: 0.9, beta2: 0.99, weight_decay: 0.05, one_dim_param_no_weight_decay: 1, "
                 "lr: {name: Cosine, learning_rate: 1e-3, warmup_epoch: 2}, regularizer: {name: L2, factor: 3.0e-05}}"),
      10);
  EXPECT_EQ(s.name, "AdamW");
  EXPECT_DOUBLE_EQ(s.beta2, 0.99);
  EXPECT_TRUE(s.one_dim_param_no_weight_decay);  // `1` is a boolean as the schema check says
  EXPECT_DOUBLE_EQ(s.lr.learning_rate, 1e-3);
  EXPECT_DOUBLE_EQ(s.lr.warmup_epoch, 2.0);
  EXPECT_DOUBLE_EQ(s.l2_factor, 3e-5);
}

// ch_PP-OCRv4_rec_svtr_large.yml's AdamW: the words of no_weight_decay_name.
TEST(OptimizerSpec, NoWeightDecayNameIsSplitIntoWords) {
  const OptimizerSpec s = optimizer_spec_from_yaml(
      YAML::Load("{name: AdamW, no_weight_decay_name: norm pos_embed  char_node_embed, lr: {name: Cosine, learning_rate: 1e-3}}"), 10);
  EXPECT_EQ(s.no_weight_decay_names, (std::vector<std::string>{"norm", "pos_embed", "char_node_embed"}));
}

TEST(OptimizerSpec, WrongKindNamesTheKey) {
  const std::string msg = error_of("{name: AdamW, one_dim_param_no_weight_decay: maybe}");
  EXPECT_NE(msg.find("Optimizer.one_dim_param_no_weight_decay"), std::string::npos) << msg;
}

TEST(OptimizerSpec, NonsenseValuesAreRefusedWithTheKey) {
  EXPECT_NE(error_of("{name: Adam, lr: {name: Cosine, learning_rate: -1}}").find("Optimizer.lr.learning_rate: must be > 0"),
            std::string::npos);
  EXPECT_NE(error_of("{name: Adam, beta1: 1.5}").find("Optimizer.beta1"), std::string::npos);
  EXPECT_NE(error_of("{name: Adam, regularizer: {name: L2, factor: -0.1}}").find("Optimizer.regularizer.factor"),
            std::string::npos);
  EXPECT_NE(error_of("{name: Adam, lr: -0.5}").find("Optimizer.lr: must be > 0"), std::string::npos);
}
