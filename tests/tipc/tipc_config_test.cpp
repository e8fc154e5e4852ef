// Reading PaddleOCR's TIPC config format by section and key.
#include "ocrforge/tipc/tipc_config.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace ocrforge {
namespace {

TEST(TipcConfig, ReadsSectionsKeysAndValuesOfPaddlesOwnFile) {
  const TipcConfig c = TipcConfig::load(test::source_dir() +
                                        "/test_tipc/configs/PP-OCRv3_mobile_rec/train_infer_python.txt");
  const TipcSection& train = c.require("train_params");
  EXPECT_EQ(train.find("model_name")->value, "PP-OCRv3_mobile_rec");
  EXPECT_EQ(train.find("gpu_list")->value, "0|0,1");
  EXPECT_EQ(train.find("norm_train")->value,
            "tools/train.py -c test_tipc/configs/PP-OCRv3_mobile_rec/PP-OCRv3_mobile_rec_distillation.yml -o "
            "Global.print_batch_step=1 Train.loader.shuffle=false");
  EXPECT_EQ(train.find("norm_train")->line, 16);
  // The header with a trailing space, empty values, and a value holding ':' and '='.
  ASSERT_NE(c.section("eval_params"), nullptr);
  EXPECT_EQ(c.require("infer_params").find("Global.checkpoints")->value, "");
  EXPECT_EQ(c.require("train_benchmark_params").find("--profiler_options")->value,
            "batch_range=[10,20];state=GPU;tracer_option=Default;profile_path=model.profile");
  EXPECT_EQ(c.section("no_such_params"), nullptr);
}

TEST(TipcConfig, ValuesListsAndModeSelectors) {
  EXPECT_TRUE(tipc_null("null"));
  EXPECT_TRUE(tipc_null(""));
  EXPECT_FALSE(tipc_null("False"));
  EXPECT_EQ(tipc_list("1|6"), (std::vector<std::string>{"1", "6"}));
  EXPECT_EQ(tipc_list("-1"), (std::vector<std::string>{"-1"}));
  EXPECT_TRUE(tipc_list("").empty());
  const std::string epochs = "lite_train_lite_infer=3|whole_train_whole_infer=50";
  EXPECT_EQ(tipc_for_mode(epochs, "lite_train_lite_infer"), "3");
  EXPECT_EQ(tipc_for_mode(epochs, "whole_train_whole_infer"), "50");
  EXPECT_EQ(tipc_for_mode(epochs, "lite_train_whole_infer"), "");  // not listed: the key is left out
  EXPECT_EQ(tipc_for_mode("16", "whole_infer"), "16");
  EXPECT_EQ(tipc_for_mode("Global.to_static=true", "lite_train_lite_infer"), "Global.to_static=true");
}

TEST(TipcConfig, MalformedFilesNameTheLine) {
  const auto error_of = [](const std::string& text) -> std::string {
    return ocrforge::test::message_of<Error>([&] {
      TipcConfig::parse(text, "cfg.txt");
    });
  };
  EXPECT_NE(error_of("=====train_params=====\nmodel_name x\n").find("cfg.txt:2: 'model_name x' is not a TIPC line"),
            std::string::npos);
  EXPECT_NE(error_of("model_name:x\n").find("before the first"), std::string::npos);
  EXPECT_NE(error_of("\n\n").find("no =====train_params====="), std::string::npos);
  const TipcConfig c = TipcConfig::parse("=====eval_params=====\neval:null\n", "cfg.txt");
  try {
    c.require("train_params");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cfg.txt: no =====train_params===== section"), std::string::npos);
  }
  EXPECT_THROW(TipcConfig::load("/nonexistent/tipc.txt"), Error);
}

}  // namespace
}  // namespace ocrforge
