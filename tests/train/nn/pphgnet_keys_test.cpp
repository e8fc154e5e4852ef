// The Backbone keys of PPHGNet_small and PPHGNetV2_B4 that det and rec share
// (nn/pphgnet_keys.h): PaddleOCR's constructor arguments are read (so they are
// known keys), det defaults to the task's variant, and what ocrforge does not
// do (downloads, per-stage learning rates, a second use_lab) is refused
// naming the key.
#include "ocrforge/train/nn/pphgnet_keys.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
const std::string kPath = "Architecture.Backbone";

std::string small_error(const std::string& yaml) {
  const YAML::Node n = YAML::Load(yaml);
  return test::read_error(n, kPath, [&] { read_pphgnet_small_keys(n, kPath, true); });
}
std::string v2_error(const std::string& yaml) {
  const YAML::Node n = YAML::Load(yaml);
  return test::read_error(n, kPath, [&] { read_pphgnet_v2_b4_keys(n, kPath, true); });
}
}  // namespace

TEST(PPHGNetKeys, ReadsPaddleOcrsConstructorKeys) {
  const PPHGNetKeys s = read_pphgnet_small_keys(
      YAML::Load("{name: PPHGNet_small, det: True, out_indices: [0, 1, 2, 3], use_ssld: true, pretrained: false}"),
      kPath, false);
  EXPECT_TRUE(s.det);
  EXPECT_EQ(s.out_indices, (std::vector<int>{0, 1, 2, 3}));
  // Absent det: the task's own variant.
  EXPECT_TRUE(read_pphgnet_small_keys(YAML::Load("{name: PPHGNet_small}"), kPath, true).det);
  EXPECT_FALSE(read_pphgnet_v2_b4_keys(YAML::Load("{name: PPHGNetV2_B4}"), kPath, false).det);
  const PPHGNetKeys v2 = read_pphgnet_v2_b4_keys(
      YAML::Load("{name: PPHGNetV2_B4, text_rec: True, use_last_conv: false, class_expand: 512, class_num: 10, "
                 "dropout_prob: 0.1, lr_mult_list: [1.0, 1.0, 1.0, 1.0, 1.0]}"),
      kPath, true);
  EXPECT_TRUE(v2.det);
  EXPECT_TRUE(v2.text_rec);
  EXPECT_FALSE(v2.use_last_conv);
  EXPECT_EQ(v2.class_expand, 512);
  EXPECT_EQ(v2.class_num, 10);
  // Every key above is read: nothing is left to report as unknown.
  EXPECT_EQ(small_error("{det: True, out_indices: [0, 1, 2, 3], use_ssld: true, pretrained: false}"), "");
  EXPECT_EQ(v2_error("{det: True, text_rec: false, use_last_conv: true, class_expand: 2048, class_num: 1000, "
                     "dropout_prob: 0.0, lr_mult_list: [1.0, 1.0]}"),
            "");
}

TEST(PPHGNetKeys, RefusesWhatIsNotBuiltNamingTheKey) {
  EXPECT_NE(small_error("{pretrained: true}").find("Architecture.Backbone.pretrained"), std::string::npos);
  EXPECT_NE(v2_error("{pretrained: https://example.invalid/b4.pdparams}").find("Architecture.Backbone.pretrained"),
            std::string::npos);
  EXPECT_NE(v2_error("{use_lab: false}").find("Architecture.Backbone.use_lab"), std::string::npos);
  EXPECT_NE(v2_error("{lr_mult_list: [1.0, 0.5]}").find("Architecture.Backbone.lr_mult_list"), std::string::npos);
  // PPHGNet_small's constructor has no ImageNet tail keys (PaddleOCR raises a TypeError).
  EXPECT_NE(small_error("{use_last_conv: true}").find("unknown config key 'Architecture.Backbone.use_last_conv'"),
            std::string::npos);
  EXPECT_NE(small_error("{dett: true}").find("did you mean 'Architecture.Backbone.det'"), std::string::npos);
}
