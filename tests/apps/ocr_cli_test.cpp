// End-to-end: the ocrforge binary on real and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

static test::CommandResult ocr(const std::string& flags, const std::string& scratch) {
  return test::run_command(test::binary() + " ocr --cpu_threads 2 " + flags, scratch);
}

TEST(OcrCli, ReadsSampleAndWritesAllOutputs) {
  const std::string dir = test::fresh_dir("cli_ok");
  auto r = ocr("--image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --use_angle_cls true"
               " --save_crop_res=True --crop_res_save_dir " + dir + "/crops --draw_img_save_dir " + dir +
               "/out --save_label " + dir + "/Label.txt", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("EPPING\t"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Twinned with\t"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/out/imgs_ger_1.jpg"));
  EXPECT_TRUE(fs::exists(dir + "/crops/imgs_ger_1_crop_0.jpg"));
  const std::string sys = test::read_text(dir + "/out/system_results.txt");
  EXPECT_EQ(sys.substr(0, sys.find('\t')), "imgs_ger_1.jpg");
  auto json = nlohmann::json::parse(test::read_text(dir + "/out/imgs_ger_1_res.json"))["res"];
  EXPECT_EQ(json["rec_texts"][0], "EPPING");
  EXPECT_EQ(json["dt_polys"].size(), 3u);
  // The auto-label file is a PaddleOCR detection label: path<TAB>json.
  const std::string label = test::read_text(dir + "/Label.txt");
  auto tab = label.find('\t');
  ASSERT_NE(tab, std::string::npos);
  auto entries = nlohmann::json::parse(label.substr(tab + 1));
  EXPECT_EQ(entries[0]["transcription"], "EPPING");
  EXPECT_EQ(entries[0]["points"].size(), 4u);
}

TEST(OcrCli, BadFilesAreReportedAndOthersStillProcessed) {
  const std::string dir = test::fresh_dir("cli_bad");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/good.jpg");
  test::write_text(in + "/zero.jpg", "");
  test::write_text(in + "/text.png", "not an image");
  std::string jpeg = test::read_text(test::data_dir() + "/samples/imgs_12.jpg");
  test::write_text(in + "/truncated.jpg", jpeg.substr(0, 100));
  auto r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out", dir);
  EXPECT_EQ(r.exit_code, 1) << "some images failed: exit code must say so";
  for (const char* bad : {"zero.jpg", "text.png", "truncated.jpg"})
    EXPECT_NE(r.err.find(bad), std::string::npos) << bad << "\n" << r.err;
  EXPECT_NE(r.out.find("EPPING"), std::string::npos) << "the good image must still be read";
  EXPECT_NE(test::read_text(dir + "/out/system_results.txt").find("good.jpg"), std::string::npos);
}

TEST(OcrCli, EmptyFolderAndMissingPathFail) {
  const std::string dir = test::fresh_dir("cli_empty");
  fs::create_directories(dir + "/empty");
  auto r = ocr("--image_dir " + dir + "/empty --draw_img_save_dir " + dir + "/out", dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("holds no images"), std::string::npos) << r.err;
  auto m = ocr("--image_dir " + dir + "/missing.jpg --draw_img_save_dir " + dir + "/out", dir);
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_NE(m.err.find("missing.jpg"), std::string::npos) << m.err;
}

TEST(OcrCli, UsageErrorsExitTwoWithHints) {
  const std::string dir = test::fresh_dir("cli_usage");
  auto r = ocr("--image_dir x.jpg --det_db_tresh 0.3", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean --det_db_thresh"), std::string::npos) << r.err;
  auto b = ocr("--image_dir x.jpg --use_angle_cls maybe", dir);
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("unexpected argument 'maybe'"), std::string::npos) << b.err;
  auto s = ocr("--image_dir x.jpg --rec_image_shape=\"3, 48\"", dir);
  EXPECT_EQ(s.exit_code, 2);
  auto n = ocr("", dir);
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("--image_dir is required"), std::string::npos);
}

TEST(OcrCli, MissingModelAndUnfitDictionaryAreClearErrors) {
  const std::string dir = test::fresh_dir("cli_model");
  const std::string img = test::data_dir() + "/samples/imgs_ger_1.jpg";
  auto m = ocr("--image_dir " + img + " --det_model_dir " + dir + "/nope --draw_img_save_dir " + dir, dir);
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_NE(m.err.find(dir + "/nope"), std::string::npos) << m.err;
  test::write_text(dir + "/dict.txt", "a\nb\n");
  auto d = ocr("--image_dir " + img + " --rec_char_dict_path " + dir + "/dict.txt --draw_img_save_dir " + dir, dir);
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_NE(d.err.find("does not fit"), std::string::npos) << d.err;
  auto g = ocr("--image_dir " + img + " --use_gpu=True --draw_img_save_dir " + dir, dir);
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_NE(g.err.find("CUDA"), std::string::npos) << g.err;
}

TEST(OcrCli, BenchmarkPrintsOneReportPerModel) {
  const std::string dir = test::fresh_dir("cli_bench");
  auto r = ocr("--image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --benchmark=True --warmup_runs 1"
               " --use_angle_cls true --draw_img_save_dir " + dir, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* model : {"model_name: det", "model_name: cls", "model_name: rec"})
    EXPECT_NE(r.out.find(model), std::string::npos) << model;
  EXPECT_NE(r.out.find("inference_time(ms)"), std::string::npos);
  EXPECT_NE(r.out.find("data_num: 1\n"), std::string::npos) << "warm-up runs must not be counted";
}

TEST(OcrCli, PlannedCommandsSayNotYetSupported) {
  const std::string dir = test::fresh_dir("cli_planned");
  auto r = test::run_command(test::binary() + " export -c x.yml", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not yet supported"), std::string::npos);
}
