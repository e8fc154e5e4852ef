// End-to-end: the ocrforge binary on real and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <nlohmann/json.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/cpu_features.h"
#include "ocrforge/infer/int8_model.h"
#include "apps/ocr_cli_support.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;
using test::lines_of;
using test::ocr;

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

// A model without the space class read with a dictionary of exactly its
// lines and use_space_char true (PaddleOCR's TIPC infer lines for its
// built-in-dictionary recognizers): decoded as with use_space_char false,
// with a note, as PaddleOCR decodes it; one line more is still refused.
TEST(OcrCli, AModelWithoutTheSpaceClassIgnoresUseSpaceCharWithANote) {
  const std::string dir = test::fresh_dir("cli_no_space");
  // The shipped recognizer's 6,625 classes = blank + 6,623 lines + space:
  // its dictionary plus one line has no room for another space class.
  const std::string dict = dir + "/dict.txt";
  std::string keys = test::read_text(test::model_root() + "/ppocr_keys_v1.txt");
  if (!keys.empty() && keys.back() != '\n') keys += '\n';  // the shipped file has no final newline
  test::write_text(dict, keys + "extra\n");
  const std::string img = test::data_dir() + "/samples/imgs_ger_1.jpg";
  const std::string common = "--image_dir " + img + " --draw_img_save_dir " + dir + " --rec_char_dict_path " + dict;
  auto with = ocr(common + " --use_space_char=True", dir);
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.err.find("has no space class"), std::string::npos) << with.err;
  auto without = ocr(common + " --use_space_char=False", dir);
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(without.err.find("has no space class"), std::string::npos) << without.err;
  EXPECT_EQ(with.out, without.out);
  EXPECT_FALSE(with.out.empty());
  test::write_text(dict, keys + "extra\nmore\n");
  auto two = ocr(common + " --use_space_char=True", dir);
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_NE(two.err.find("does not fit"), std::string::npos) << two.err;
}

TEST(OcrCli, BenchmarkPrintsOneReportPerModel) {
  const std::string dir = test::fresh_dir("cli_bench");
  auto r = ocr("--image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --benchmark=True --warmup_runs 1"
               " --use_angle_cls true --draw_img_save_dir " + dir, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The reports go to stderr: stdout holds only "text<TAB>score" lines.
  for (const char* model : {"model_name: det", "model_name: cls", "model_name: rec"})
    EXPECT_NE(r.err.find(model), std::string::npos) << model;
  EXPECT_NE(r.err.find("inference_time(ms)"), std::string::npos);
  EXPECT_NE(r.err.find("data_num: 1\n"), std::string::npos) << "warm-up runs must not be counted";
  std::istringstream out(r.out);
  size_t lines = 0;
  for (std::string line; std::getline(out, line); ++lines)
    EXPECT_NE(line.find('\t'), std::string::npos) << "not a text line: " << line;
  EXPECT_GE(lines, 3u) << r.out;
}

TEST(OcrCli, UsageListsServeAndNothingAsPlanned) {
  const std::string dir = test::fresh_dir("cli_planned");
  auto usage = test::run_command(test::binary() + " --help", dir);
  EXPECT_NE(usage.out.find("  serve  "), std::string::npos) << usage.out;
  EXPECT_EQ(usage.out.find("planned (not yet supported)"), std::string::npos) << usage.out;
  EXPECT_NE(usage.out.find("tipc prepare|plan|run"), std::string::npos) << usage.out;
}

// ---- reliability (docs/reliability.md): one bad input never costs other work

// A real 8 x 8 PNG whose header claims w x h (a decompression bomb's header).
static void write_png_claiming(const std::string& path, int w, int h) {
  cv::Mat m(8, 8, CV_8UC3, cv::Scalar(200, 200, 200));
  ASSERT_TRUE(cv::imwrite(path, m));
  std::string bytes = test::read_text(path);
  for (int i = 0; i < 4; ++i) {
    bytes[16 + i] = static_cast<char>((w >> (24 - 8 * i)) & 0xFF);
    bytes[20 + i] = static_cast<char>((h >> (24 - 8 * i)) & 0xFF);
  }
  test::write_text(path, bytes);
}

TEST(OcrCli, HostileFilesAreSkippedByNameAndTheRestIsRead) {
  // The folder: a.jpg, a 20000 x 20000 PNG, z.jpg, and a symlink
  // loop, which used to stop the run before any image.
  const std::string dir = test::fresh_dir("cli_hostile");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/a.jpg");
  write_png_claiming(in + "/m.png", 20000, 20000);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/z.jpg");
  fs::create_symlink("l1.jpg", in + "/l2.jpg");
  fs::create_symlink("l2.jpg", in + "/l1.jpg");
  auto r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("m.png' is 20000 x 20000"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max_image_pixels"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("l1.jpg' cannot be read: Too many levels of symbolic links"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("5 images, 3 failed"), std::string::npos) << r.err;  // l1, l2 and m fail
  const auto sys = lines_of(test::read_text(dir + "/out/system_results.txt"));
  ASSERT_EQ(sys.size(), 2u) << "a.jpg and z.jpg, and nothing for the failed ones";
  EXPECT_EQ(sys[0].substr(0, sys[0].find('\t')), "a.jpg");
  EXPECT_EQ(sys[1].substr(0, sys[1].find('\t')), "z.jpg");
  for (const auto& l : sys) EXPECT_FALSE(nlohmann::json::parse(l.substr(l.find('\t') + 1)).empty()) << l;
}

TEST(OcrCli, OutputFolderInsideTheInputFolderIsRefused) {
  const std::string dir = test::fresh_dir("cli_inplace");
  const std::string in = dir + "/photos";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/imgs_ger_1.jpg");
  const std::string before = test::read_text(in + "/imgs_ger_1.jpg");
  for (const std::string& out : {in, in + "/", in + "/results", dir + "/photos/../photos"}) {
    auto r = ocr("--image_dir " + in + " --draw_img_save_dir " + out, dir);
    EXPECT_EQ(r.exit_code, 2) << out << "\n" << r.err;
    EXPECT_NE(r.err.find("folder of --image_dir"), std::string::npos) << r.err;
  }
  auto c = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out --save_crop_res=True --crop_res_save_dir " + in,
               dir);
  EXPECT_EQ(c.exit_code, 2) << c.err;
  auto f = ocr("--image_dir " + in + "/imgs_ger_1.jpg --draw_img_save_dir " + in, dir);
  EXPECT_EQ(f.exit_code, 2) << "a single file's own folder: the visualisation would replace it\n" << f.err;
  EXPECT_EQ(test::read_text(in + "/imgs_ger_1.jpg"), before) << "the user's photo must be untouched";
  EXPECT_FALSE(fs::exists(in + "/system_results.txt"));
}

TEST(OcrCli, SameStemInputsGetDistinctOutputs) {
  const std::string dir = test::fresh_dir("cli_stems");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/a.jpg");
  ASSERT_TRUE(cv::imwrite(in + "/a.png", cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg")));
  auto r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out --save_crop_res=True --crop_res_save_dir " +
                   dir + "/crops",
               dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"a.jpg", "a.png"}) {
    const std::string json = dir + "/out/" + name + "_res.json";
    ASSERT_TRUE(fs::exists(json)) << json;
    EXPECT_EQ(nlohmann::json::parse(test::read_text(json))["res"]["input_path"], in + "/" + name);
    EXPECT_TRUE(fs::exists(dir + "/crops/" + name + "_crop_0.jpg")) << name;
    EXPECT_TRUE(fs::exists(dir + "/out/" + name)) << "visualisation of " << name;
  }
  EXPECT_FALSE(fs::exists(dir + "/out/a_res.json"));
}

TEST(OcrCli, ASecondRunIntoTheSameFolderIsRefusedNamingTheFirst) {
  const std::string dir = test::fresh_dir("cli_lock");
  fs::create_directories(dir + "/out");
  FolderLock held(dir + "/out", "test");  // as a running `ocrforge ocr` holds it
  auto r = ocr("--image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir + "/out", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("in use by another ocrforge run (pid " + std::to_string(getpid())), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/system_results.txt"));
}

TEST(OcrCli, DiskFullLeavesNoHalfWrittenFile) {
  // `ulimit -f` makes every write past 4 KiB fail (EFBIG), as a full disk
  // does (ENOSPC): visualisations fail, JSON files fit; nothing may be cut.
  const std::string dir = test::fresh_dir("cli_full");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  for (const char* n : {"a.jpg", "b.jpg", "c.jpg"}) fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/" + n);
  auto r = test::run_command("bash -c \"trap '' XFSZ; ulimit -f 4; exec " + test::binary() +
                                 " ocr --cpu_threads 2 --image_dir " + in + " --draw_img_save_dir " + dir + "/out\"",
                             dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir + "/out")) {
    const std::string name = e.path().filename().string();
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "temp file left: " << name;
    if (name.size() > 9 && name.substr(name.size() - 9) == "_res.json") {
      ++files;
      EXPECT_NO_THROW(nlohmann::json::parse(test::read_text(e.path().string()))) << name;
    }
    EXPECT_NE(name, "a.jpg") << "a visualisation cut at 4 KiB must not be left";
  }
  EXPECT_EQ(files, 3u) << "the JSON files fit under the limit";
  for (const auto& l : lines_of(test::read_text(dir + "/out/system_results.txt")))
    EXPECT_NO_THROW(nlohmann::json::parse(l.substr(l.find('\t') + 1))) << l;
}

TEST(OcrCli, NonsenseValuesAreUsageErrors) {
  const std::string dir = test::fresh_dir("cli_ranges");
  const std::string img = " --image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir;
  for (const char* bad : {"--det_limit_side_len=-5", "--det_limit_side_len=0", "--drop_score=2",
                          "--det_db_thresh=1.5", "--det_db_box_thresh=-0.1", "--det_db_unclip_ratio=-1",
                          "--det_db_unclip_ratio=0", "--cls_thresh=nan", "--det_max_side_limit=0",
                          "--max_image_pixels=-1", "--rec_batch_num=0", "--gpu_id=-1"}) {
    auto r = ocr(std::string(bad) + img, dir);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.err;
    const std::string flag = std::string(bad).substr(0, std::string(bad).find('='));
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("out of range"), std::string::npos) << r.err;
  }
}

TEST(OcrCli, HelpAgreesWithTheDocsOnTensorrt) {
  const std::string dir = test::fresh_dir("cli_help");
  auto h = ocr("--help", dir);
  ASSERT_EQ(h.exit_code, 0);
  const size_t at = h.out.find("--use_tensorrt");
  ASSERT_NE(at, std::string::npos);
  const std::string entry = h.out.substr(at, h.out.find("\n  --", at + 1) - at);
  EXPECT_NE(entry.find("refused"), std::string::npos) << entry;
  EXPECT_EQ(entry.find("no effect"), std::string::npos) << entry;
  auto r = ocr("--use_tensorrt=True --image_dir x.jpg", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(OcrCli, MissingVisFontIsAWarning) {
  const std::string dir = test::fresh_dir("cli_font");
  auto r = ocr("--image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir +
                   "/out --vis_font_path " + dir + "/no_such_font.ttf",
               dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --vis_font_path '" + dir + "/no_such_font.ttf' does not exist"), std::string::npos)
      << r.err;
}

TEST(OcrCli, TempFilesOfAKilledRunAreRemovedAndOldResultsKeptUntilTheEnd) {
  const std::string dir = test::fresh_dir("cli_stale");
  fs::create_directories(dir + "/out");
  test::write_text(dir + "/out/.system_results.txt.tmp.Ab12Cd", "half a run killed by kill -9");
  test::write_text(dir + "/out/.imgs_ger_1_res.json.tmp.Zz99Yy", "{\"res\": ");
  test::write_text(dir + "/out/notes.tmp.txt", "the user's file");
  auto r = ocr("--image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir + "/out", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/.system_results.txt.tmp.Ab12Cd"));
  EXPECT_FALSE(fs::exists(dir + "/out/.imgs_ger_1_res.json.tmp.Zz99Yy"));
  EXPECT_TRUE(fs::exists(dir + "/out/notes.tmp.txt")) << "only our own temp names are removed";
  EXPECT_EQ(lines_of(test::read_text(dir + "/out/system_results.txt")).size(), 1u);
}

TEST(OcrCli, ProgressBarNeverSharesALineWithLogOrText) {
  // On a terminal the bar ("\r[====  ] 1/3 a.jpg") and the text / log lines
  // used to run into each other. `script` gives the run a terminal.
  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "needs script(1) for a pseudo-terminal";
  const std::string dir = test::fresh_dir("cli_tty");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  for (const char* n : {"a.jpg", "b.jpg", "c.jpg"}) fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/" + n);
  test::write_text(in + "/d.jpg", "");
  auto r = test::run_command("/usr/bin/script -qec \"" + test::binary() + " ocr --cpu_threads 2 --image_dir " + in +
                                 " --draw_img_save_dir " + dir + "/out\" /dev/null",
                             dir);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  size_t bars = 0, texts = 0;
  for (std::string line : lines_of(r.out)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // the terminal writes \r\n
    if (line.find("\r[") != std::string::npos || line.rfind("[", 0) == 0) ++bars;
    // What the terminal shows: the text after the last carriage return.
    std::string shown = line.substr(line.rfind('\r') == std::string::npos ? 0 : line.rfind('\r') + 1);
    if (shown.rfind("\033[K", 0) == 0) shown = shown.substr(3);
    if (shown.find("EPPING") != std::string::npos) ++texts;
    EXPECT_FALSE(!shown.empty() && shown[0] == '[' && shown.find("/4") != std::string::npos &&
                 (shown.find("lines in") != std::string::npos || shown.find('\t') != std::string::npos ||
                  shown.find("error:") != std::string::npos))
        << "bar and output on one line: " << shown;
  }
  EXPECT_GE(bars, 1u) << "the bar must be drawn on a terminal:\n" << r.out;
  EXPECT_EQ(texts, 3u) << r.out;
}

TEST(OcrCli, PipelinedRunReadsExactlyWhatOneImageAfterTheOtherReads) {
  // Several images, a file that is no image and a JPEG cut in its data (the
  // decoder warns and gives what it read), in both runners.
  const std::string dir = test::fresh_dir("cli_pipelined");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  for (const char* name : {"imgs_ger_1.jpg", "imgs_en_254.jpg", "imgs_11.jpg", "ch_word_3.jpg"})
    fs::copy_file(test::data_dir() + "/samples/" + name, in + "/" + name);
  test::write_text(in + "/bad.png", "not an image");
  const std::string jpeg = test::read_text(test::data_dir() + "/samples/imgs_12.jpg");
  test::write_text(in + "/cut.jpg", jpeg.substr(0, jpeg.size() * 2 / 3));
  auto pipelined = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/p", dir);
  auto sequential = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/s --pipelined false", dir);
  EXPECT_EQ(pipelined.exit_code, 1) << pipelined.err;
  EXPECT_EQ(sequential.exit_code, 1) << sequential.err;
  EXPECT_GT(pipelined.out.size(), 100u) << pipelined.out;
  EXPECT_EQ(pipelined.out, sequential.out);
  EXPECT_EQ(test::read_text(dir + "/p/system_results.txt"), test::read_text(dir + "/s/system_results.txt"));
  // The same warnings and errors, naming the same files, in the same order.
  const auto notes = [](const std::string& err) {
    std::vector<std::string> v;
    for (const auto& l : lines_of(err))
      if (l.find("warning:") != std::string::npos || l.find("error:") != std::string::npos) v.push_back(l);
    return v;
  };
  const auto p = notes(pipelined.err), s = notes(sequential.err);
  EXPECT_EQ(p, s) << pipelined.err << "\n---\n" << sequential.err;
  ASSERT_EQ(p.size(), 2u) << pipelined.err;
  EXPECT_NE(p[0].find("error: image '" + in + "/bad.png'"), std::string::npos) << p[0];
  EXPECT_NE(p[1].find("warning: image '" + in + "/cut.jpg'"), std::string::npos) << p[1];
  EXPECT_NE(pipelined.err.find("6 images, 1 failed"), std::string::npos) << pipelined.err;
}

// --ir_optim (on by default) runs the exact simplified graphs: the same
// boxes and texts as the files run as they are, scores to rounding; the
// benchmark report says which form ran.
TEST(OcrCli, IrOptimOffReadsTheSameBoxesAndTexts) {
  const std::string dir = test::fresh_dir("cli_ir_optim");
  fs::create_directories(dir + "/imgs");
  for (const char* name : {"imgs_ger_1.jpg", "imgs_11.jpg", "imgs_en_254.jpg", "ch_word_2.jpg"})
    fs::copy_file(test::data_dir() + "/samples/" + name, dir + "/imgs/" + name);
  const std::string img = " --use_angle_cls true --image_dir " + dir + "/imgs --draw_img_save_dir " + dir;
  auto on = ocr(img + "/on --benchmark=True --warmup_runs 0", dir);
  ASSERT_EQ(on.exit_code, 0) << on.err;
  auto off = ocr(img + "/off --ir_optim False --benchmark=True --warmup_runs 0", dir);
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_NE(on.err.find(" ir_optim: True"), std::string::npos) << on.err;
  EXPECT_NE(off.err.find(" ir_optim: False"), std::string::npos) << off.err;
  size_t lines = 0;
  for (const char* stem : {"imgs_ger_1", "imgs_11", "imgs_en_254", "ch_word_2"}) {
    const std::string file = std::string("/") + stem + "_res.json";
    const auto a = nlohmann::json::parse(test::read_text(dir + "/on" + file))["res"];
    const auto b = nlohmann::json::parse(test::read_text(dir + "/off" + file))["res"];
    EXPECT_EQ(a["dt_polys"], b["dt_polys"]) << stem;
    EXPECT_EQ(a["rec_texts"], b["rec_texts"]) << stem;
    ASSERT_EQ(a["rec_scores"].size(), b["rec_scores"].size()) << stem;
    for (size_t i = 0; i < a["rec_scores"].size(); ++i)
      EXPECT_NEAR(a["rec_scores"][i].get<double>(), b["rec_scores"][i].get<double>(), 1e-3) << stem << " line " << i;
    lines += a["rec_texts"].size();
  }
  EXPECT_GE(lines, 8u);
}

// --precision int8: the det and rec models run quantised (made once into the
// int8 cache, here a fresh folder, with the weight scheme of this CPU kind)
// and read the sign as fp32 does; the second run reuses the cached models;
// --benchmark names the precision each model ran (cls stays fp32) and the
// CPU kind and scheme behind it.
TEST(OcrCli, Int8ReadsTheSameMainWordsAsFp32AndReusesItsCache) {
  const std::string dir = test::fresh_dir("cli_int8");
  const std::string env = "OCRFORGE_CACHE_DIR=" + dir + "/cache ";
  const std::string img = " --image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg";
  auto fp32 = ocr(img + " --draw_img_save_dir " + dir + "/fp32", dir);
  ASSERT_EQ(fp32.exit_code, 0) << fp32.err;
  auto first = test::run_command(env + test::binary() + " ocr --cpu_threads 2 --precision int8" + img +
                                     " --draw_img_save_dir " + dir + "/int8",
                                 dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find("int8: making the int8 form of det model"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("int8: making the int8 form of rec model"), std::string::npos) << first.err;
  // Where int8 is slower than fp32 (no VNNI) the run says so, once.
  const bool slower = int8_plan("det", RuntimeParams{}, cpu_features()).slower_than_fp32;
  const size_t note = first.err.find("int8: note: ");
  EXPECT_EQ(note != std::string::npos, slower) << first.err;
  if (slower) {
    EXPECT_EQ(first.err.find("int8: note: ", note + 1), std::string::npos) << "once per run\n" << first.err;
  }
  // The main words: every fp32 line read with score >= 0.9, read the same in int8.
  std::istringstream lines(fp32.out);
  int checked = 0;
  for (std::string line; std::getline(lines, line);) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || std::stod(line.substr(tab + 1)) < 0.9) continue;
    EXPECT_NE(first.out.find(line.substr(0, tab) + "\t"), std::string::npos) << line.substr(0, tab) << "\n" << first.out;
    ++checked;
  }
  EXPECT_GE(checked, 2) << fp32.out;
  EXPECT_NE(first.out.find("EPPING\t"), std::string::npos) << first.out;
  int models = 0, digests = 0;
  for (const auto& e : fs::directory_iterator(dir + "/cache/int8")) {
    models += e.path().extension() == ".onnx" && e.path().filename().string()[0] != '.';
    digests += e.path().extension() == ".sha256";
  }
  EXPECT_EQ(models, 2) << "det and rec";
  EXPECT_EQ(digests, 2) << "each with its digest file";

  auto again = test::run_command(env + test::binary() + " ocr --cpu_threads 2 --precision int8 --use_angle_cls true"
                                       " --benchmark=True --warmup_runs 1" + img + " --draw_img_save_dir " + dir + "/again",
                                 dir);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("int8: making"), std::string::npos) << "the cached models must be reused\n" << again.err;
  for (const char* report : {"model_name: det", "model_name: rec"}) {
    const size_t at = again.err.find(report);
    ASSERT_NE(at, std::string::npos) << report;
    EXPECT_EQ(again.err.substr(again.err.find(" precision: ", at), 17), " precision: int8\n") << report;
    const std::string plan = int8_plan(report + 12, RuntimeParams{}, cpu_features()).why;
    EXPECT_NE(again.err.find(" int8_plan: " + plan + "\n", at), std::string::npos) << plan << "\n" << again.err;
  }
  const size_t cls = again.err.find("model_name: cls");
  ASSERT_NE(cls, std::string::npos);
  EXPECT_EQ(again.err.substr(again.err.find(" precision: ", cls), 17), " precision: fp32\n");
}

TEST(OcrCli, Fp16IsRefusedWithExitTwo) {
  const std::string dir = test::fresh_dir("cli_fp16");
  auto r = ocr("--precision fp16 --image_dir " + test::data_dir() + "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir,
               dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--precision=fp16 is not supported"), std::string::npos) << r.err;
  auto u = ocr("--precision int4 --image_dir x.jpg", dir);
  EXPECT_EQ(u.exit_code, 2) << u.err;
  auto s = ocr("--precision int8 --int8_scheme s9 --image_dir x.jpg", dir);
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_NE(s.err.find("--int8_scheme=s9 is unknown; use auto, s8, s7 or u8"), std::string::npos) << s.err;
  auto h = ocr("--help", dir);
  EXPECT_NE(h.out.find("cls stays fp32"), std::string::npos) << "the help says which models int8 covers";
}
