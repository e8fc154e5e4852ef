// The int8 model cache (--precision int8): made once, reused without being
// rewritten, made again when corrupt or when its source changes; the model
// folder is only read; OrtModel loads the cached file and says which
// precision runs.
#include "ocrforge/infer/int8_model.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/sha256.h"
#include "ocrforge/infer/ort_model.h"
#include "onnx/tiny_quant_graphs.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace ocrforge {
namespace {

struct Fixture {
  std::string dir, model, cache, calibration;
  RuntimeParams rt;
  int calibration_calls = 0;
  CalibrationSource source;

  explicit Fixture(const std::string& name) {
    dir = test::fresh_dir(name);
    fs::create_directories(dir + "/model");
    model = test::write_conv_chain_graph(dir + "/model/inference.onnx");
    cache = dir + "/cache";
    calibration = dir + "/calibration";
    fs::create_directories(calibration + "/det");
    test::write_text(calibration + "/det/a.jpg", "the key covers these bytes");
    rt.cpu_threads = 1;
    rt.precision = "int8";
    rt.int8_cache_dir = cache;
    rt.int8_calibration_dir = calibration;
    source = [this](const std::string& d) {
      EXPECT_EQ(d, calibration);
      ++calibration_calls;
      std::vector<CalibrationInput> v;
      for (int i = 0; i < 8; ++i) v.push_back({test::gaussian(4 * 12 * 12, 50 + i), {1, 4, 12, 12}});
      return v;
    };
  }
};

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Int8Model, MadeOnceThenReusedWithoutRewriting) {
  Fixture f("int8_cache_reuse");
  const std::vector<std::string> model_files = files_in(f.dir + "/model");
  const Int8Model first = int8_model(f.model, "det", f.rt, f.source);
  EXPECT_TRUE(first.built);
  EXPECT_EQ(f.calibration_calls, 1);
  ASSERT_TRUE(fs::exists(first.path));
  EXPECT_EQ(fs::path(first.path).parent_path(), fs::path(f.cache));
  EXPECT_NE(first.path.find(std::string("det-") + sha256_file(f.model)), std::string::npos) << first.path;
  EXPECT_NE(first.path.find(kOnnxQuantizerVersion), std::string::npos);
  EXPECT_TRUE(fs::exists(first.path + ".sha256"));
  EXPECT_GT(onnx_op_counts(first.path)["QLinearConv"], 0);
  const auto written = fs::last_write_time(first.path);

  const Int8Model second = int8_model(f.model, "det", f.rt, f.source);
  EXPECT_FALSE(second.built);
  EXPECT_EQ(second.path, first.path);
  EXPECT_EQ(f.calibration_calls, 1) << "a cached model needs no calibration";
  EXPECT_EQ(fs::last_write_time(second.path), written) << "reused, not rewritten";
  EXPECT_EQ(files_in(f.dir + "/model"), model_files) << "the model folder is only read";
}

TEST(Int8Model, CorruptOrUnverifiedCacheFileIsMadeAgain) {
  Fixture f("int8_cache_corrupt");
  const Int8Model first = int8_model(f.model, "det", f.rt, f.source);
  std::string bytes = test::read_text(first.path);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
  test::write_text(first.path, bytes);
  const Int8Model again = int8_model(f.model, "det", f.rt, f.source);
  EXPECT_TRUE(again.built) << "a file that does not match its digest must be made again";
  EXPECT_EQ(again.path, first.path);
  EXPECT_NE(test::read_text(again.path), bytes);
  EXPECT_FALSE(int8_model(f.model, "det", f.rt, f.source).built) << "and is then reused";

  fs::remove(first.path + ".sha256");
  EXPECT_TRUE(int8_model(f.model, "det", f.rt, f.source).built) << "a file without its digest is not trusted";
  test::write_text(first.path, bytes.substr(0, bytes.size() / 3));  // cut short, digest of the whole one
  EXPECT_TRUE(int8_model(f.model, "det", f.rt, f.source).built);
}

TEST(Int8Model, ChangedSourceOrCalibrationGivesAnotherFile) {
  Fixture f("int8_cache_key");
  const Int8Model first = int8_model(f.model, "det", f.rt, f.source);
  test::write_text(f.calibration + "/det/b.jpg", "another calibration image");
  const Int8Model recalibrated = int8_model(f.model, "det", f.rt, f.source);
  EXPECT_TRUE(recalibrated.built);
  EXPECT_NE(recalibrated.path, first.path);
  // Another source model (a shorter chain): another source digest.
  fs::create_directories(f.dir + "/other");
  const std::string other = test::write_conv_chain_graph(f.dir + "/other/inference.onnx", 10);
  const Int8Model changed = int8_model(other, "det", f.rt, f.source);
  EXPECT_TRUE(changed.built);
  EXPECT_NE(changed.path, recalibrated.path);
  EXPECT_TRUE(fs::exists(first.path)) << "older entries stay (another model may still use them)";
}

TEST(Int8Model, OrtModelLoadsTheInt8FormOnlyWithACalibrationSource) {
  Fixture f("int8_ortmodel");
  OrtModel det(f.dir + "/model", f.rt, "det", "--det_model_dir", f.source);
  EXPECT_EQ(det.precision(), "int8");
  EXPECT_EQ(det.source_path(), f.model);
  EXPECT_EQ(fs::path(det.path()).parent_path(), fs::path(f.cache));
  OrtModel cls(f.dir + "/model", f.rt, "cls", "--cls_model_dir");
  EXPECT_EQ(cls.precision(), "fp32") << "without calibration (cls) the model stays fp32";
  EXPECT_EQ(cls.path(), f.model);
  RuntimeParams fp16 = f.rt;
  fp16.precision = "fp16";
  EXPECT_THROW(OrtModel(f.model, fp16, "det", "--det_model_dir", f.source), UsageError);
}

TEST(Int8Model, TheWeightSchemeIsPartOfTheCacheKey) {
  Fixture f("int8_cache_scheme");
  std::map<std::string, std::string> paths;
  for (const char* scheme : {"s8", "s7", "u8"}) {
    f.rt.int8_scheme = scheme;
    const Int8Model m = int8_model(f.model, "det", f.rt, f.source);
    EXPECT_TRUE(m.built) << scheme << ": a model quantised for another CPU kind must not be reused";
    EXPECT_NE(m.path.find(std::string("-") + scheme + "-"), std::string::npos) << m.path;
    paths[scheme] = m.path;
  }
  EXPECT_NE(paths["s8"], paths["s7"]);
  EXPECT_NE(paths["s7"], paths["u8"]);
  EXPECT_EQ(onnx_integer_initializer(paths["u8"], "pw11.w_int8").type, "uint8");
  EXPECT_EQ(onnx_integer_initializer(paths["s7"], "pw11.w_int8").type, "int8");
  f.rt.int8_scheme = "s7";
  EXPECT_FALSE(int8_model(f.model, "det", f.rt, f.source).built) << "the same scheme again is reused";
}

CpuFeatures cpu_kind(bool avx2, bool vnni) {
  CpuFeatures c;
  c.x86_64 = true;
  c.avx2 = avx2;
  c.avx512_core = c.avx512_vnni = vnni;
  return c;
}

TEST(Int8Model, PlanFollowsTheCpuKind) {
  RuntimeParams rt;
  for (const char* role : {"det", "rec"}) {
    const Int8Plan vnni = int8_plan(role, rt, cpu_kind(true, true));
    EXPECT_FALSE(vnni.slower_than_fp32) << role;
    EXPECT_EQ(vnni.weights, Int8Weights::Signed8) << role << ": exact products keep the measured 8-bit weights";
    const Int8Plan avx2 = int8_plan(role, rt, cpu_kind(true, false));
    EXPECT_NE(avx2.why.find("AVX2 without VNNI"), std::string::npos) << avx2.why;
    EXPECT_TRUE(avx2.slower_than_fp32) << role << ": the user is told to prefer fp32 there";
    EXPECT_EQ(avx2.weights, Int8Weights::Unsigned8) << role << ": s8 saturates without VNNI; u8 gives s8's integers";
    const Int8Plan sse = int8_plan(role, rt, cpu_kind(false, false));
    EXPECT_EQ(sse.weights, Int8Weights::Signed8) << role << ": SSE kernels widen, s8 is exact";
  }
  rt.int8_scheme = "s8";  // forced: used as given, with a warning where it saturates
  const Int8Plan forced = int8_plan("det", rt, cpu_kind(true, false));
  EXPECT_EQ(forced.weights, Int8Weights::Signed8);
  EXPECT_NE(forced.why.find("saturate"), std::string::npos) << forced.why;
  rt.int8_scheme = "x9";
  EXPECT_THROW(int8_plan("det", rt, cpu_kind(true, true)), Error);
}

TEST(Int8Model, MissingCalibrationFolderIsAClearError) {
  Fixture f("int8_nocalib");
  f.rt.int8_calibration_dir = f.dir + "/nowhere";
  try {
    int8_model(f.model, "det", f.rt, f.source);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(f.dir + "/nowhere"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ocrforge
