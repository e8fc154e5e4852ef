// `ocrforge export` end to end: the shipped det and rec models, imported as
// trainable graphs and exported with no training, give `ocrforge ocr` the
// same results as the originals; a native model is refused clearly.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

using namespace ocrforge;

namespace {

std::string export_cmd(const std::string& config, const std::string& overrides) {
  return test::binary() + " export -c " + test::source_dir() + "/" + config + " -o " + overrides;
}

}  // namespace

TEST(ExportCli, UntrainedExportGivesOcrTheSameResultsAsTheShippedModels) {
  const std::string dir = test::fresh_dir("export_cli_roundtrip");
  const std::string models = test::model_root();
  auto rec = test::run_command(export_cmd("configs/rec/ch_PP-OCRv4_rec_finetune.yml",
                                          "Architecture.onnx_model=" + models + "/rec/inference.onnx "
                                          "Global.character_dict_path=" + models + "/ppocr_keys_v1.txt "
                                          "Global.save_inference_dir=" + dir + "/rec"),
                               dir);
  ASSERT_EQ(rec.exit_code, 0) << rec.out << rec.err;
  EXPECT_NE(rec.out.find("passes the ONNX checker"), std::string::npos) << rec.out;
  auto det = test::run_command(export_cmd("configs/det/ch_PP-OCRv4_det_finetune.yml",
                                          "Architecture.onnx_model=" + models + "/det/inference.onnx "
                                          "Global.save_inference_dir=" + dir + "/det"),
                               dir);
  ASSERT_EQ(det.exit_code, 0) << det.out << det.err;

  const std::string images = dir + "/imgs";
  std::filesystem::create_directories(images);
  for (const char* name : {"imgs_ger_1.jpg", "imgs_en_254.jpg", "imgs_11.jpg"})
    std::filesystem::copy_file(test::data_dir() + "/samples/" + name, images + "/" + name);
  auto ocr = [&](const std::string& out, const std::string& models_flags) {
    auto r = test::run_command(test::binary() + " ocr --cpu_threads 2 --image_dir " + images + " " + models_flags +
                                   " --draw_img_save_dir " + dir + "/" + out,
                               dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_text(dir + "/" + out + "/system_results.txt");
  };
  const std::string shipped = ocr("shipped", "");
  const std::string exported = ocr("exported", "--det_model_dir " + dir + "/det --rec_model_dir " + dir + "/rec");
  EXPECT_GT(shipped.size(), 200u) << shipped;
  EXPECT_EQ(exported, shipped);
}

TEST(ExportCli, NativeModelsAreNotSupportedYetAndSayWhatIs) {
  const std::string dir = test::fresh_dir("export_cli_native");
  auto r = test::run_command(export_cmd("configs/det/det_mv3_db.yml", "Global.save_inference_dir=" + dir + "/out"), dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("not supported yet"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("algorithm: ONNX"), std::string::npos) << r.err;
}
