// `ocrforge export` end to end: the shipped det and rec models, imported as
// trainable graphs and exported with no training, give `ocrforge ocr` the
// same results as the originals; a natively trained recognizer, exported,
// reads in ONNX Runtime what its checkpoint reads in LibTorch; native
// detection models are refused clearly.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "test_support.h"
#include "train/loop/trainer_fixture.h"

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

// "Predicts of <path>:('<text>', <score>)" lines -> (text, score) per line.
std::vector<std::pair<std::string, double>> predictions(const std::string& out) {
  std::vector<std::pair<std::string, double>> v;
  std::stringstream ss(out);
  for (std::string line; std::getline(ss, line);) {
    const size_t a = line.find(":('"), b = line.rfind("', ");
    if (a == std::string::npos || b == std::string::npos || b < a) continue;
    v.emplace_back(line.substr(a + 3, b - a - 3), std::stod(line.substr(b + 3)));
  }
  return v;
}

TEST(ExportCli, NativeRecognizerReadsInOrtWhatItsCheckpointReads) {
  auto t = test::make_tiny_task("export_cli_native_rec", 16);
  const std::string cfg = t.dir + "/cfg.yml";
  test::write_text(cfg, test::tiny_config(t, 100, 8));  // 200 steps: it reads most digits
  auto train = test::run_command(test::binary() + " train -c " + cfg, t.dir);
  ASSERT_EQ(train.exit_code, 0) << train.err;
  auto exp = test::run_command(test::binary() + " export -c " + cfg + " -o Global.pretrained_model=" + t.save_dir +
                                   "/latest Global.save_inference_dir=" + t.dir + "/inference",
                               t.dir);
  ASSERT_EQ(exp.exit_code, 0) << exp.out << exp.err;
  // The dictionary travels in inference.yml, in class order (blank and space not listed).
  const YAML::Node yml = YAML::LoadFile(t.dir + "/inference/inference.yml");
  EXPECT_EQ(yml["Global"]["algorithm"].as<std::string>(), "CRNN");
  EXPECT_EQ(yml["Input"]["shape"].as<std::vector<int64_t>>(), (std::vector<int64_t>{-1, 3, 32, -1}));
  EXPECT_EQ(yml["PostProcess"]["character_dict"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}));
  EXPECT_FALSE(yml["PostProcess"]["use_space_char"].as<bool>());
  // The export folder brings its own dictionary (digits) and input shape (3, 32, 100): no flags needed.
  const std::string images = " --image_dir " + t.dir + "/imgs --cpu_threads 1";
  auto torch_run = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.save_dir + "/latest.ckpt" + images +
                                         " --rec_image_shape 3,32,100",
                                     t.dir);
  auto ort_run = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.dir + "/inference" + images, t.dir);
  ASSERT_EQ(torch_run.exit_code, 0) << torch_run.err;
  ASSERT_EQ(ort_run.exit_code, 0) << ort_run.err;
  const auto a = predictions(torch_run.out), b = predictions(ort_run.out);
  ASSERT_EQ(a.size(), 16u) << torch_run.out;
  ASSERT_EQ(b.size(), a.size()) << ort_run.out;
  int nonempty = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(b[i].first, a[i].first) << i;
    EXPECT_NEAR(b[i].second, a[i].second, 1e-4) << i;
    nonempty += !a[i].first.empty();
  }
  EXPECT_GT(nonempty, 8);  // the model reads digits: the dictionary mapping is really compared
}

TEST(ExportCli, NativeModelsAreNotSupportedYetAndSayWhatIs) {
  const std::string dir = test::fresh_dir("export_cli_native");
  auto r = test::run_command(export_cmd("configs/det/det_mv3_db.yml", "Global.save_inference_dir=" + dir + "/out"), dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("not supported yet"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("algorithm: ONNX"), std::string::npos) << r.err;
}
