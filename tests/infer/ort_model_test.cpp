#include "ocrforge/infer/ort_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/cpu_topology.h"
#include "test_support.h"

using namespace ocrforge;

static std::string error_of(const std::string& model) {
  return ocrforge::test::message_of<Error>([&] {
    OrtModel m(model, RuntimeParams{}, "det", "--det_model_dir");
  });
}

TEST(OrtModel, LoadsFolderWithInferenceOnnx) {
  OrtModel m(test::model_root() + "/det", RuntimeParams{}, "det", "--det_model_dir");
  EXPECT_EQ(m.input_name(), "x");
  EXPECT_EQ(m.input_shape().size(), 4u);
  EXPECT_NE(m.path().find("inference.onnx"), std::string::npos);
}

TEST(OrtModel, MissingModelNamesPathAndFlag) {
  const std::string msg = error_of("/no/such/model_dir");
  EXPECT_NE(msg.find("/no/such/model_dir"), std::string::npos);
  EXPECT_NE(msg.find("--det_model_dir"), std::string::npos);
}

TEST(OrtModel, NonOnnxFileIsAClearError) {
  const std::string dir = test::fresh_dir("notonnx");
  test::write_text(dir + "/inference.onnx", "not a protobuf");
  const std::string msg = error_of(dir);
  EXPECT_NE(msg.find("cannot load det model"), std::string::npos) << msg;
}

TEST(OrtModel, FolderWithoutOnnxIsAClearError) {
  EXPECT_NE(error_of(test::fresh_dir("noonnx")).find("holds no .onnx"), std::string::npos);
}

TEST(OrtModel, GpuWithoutCudaProviderIsRefused) {
  RuntimeParams rt;
  rt.use_gpu = true;
  bool has_cuda = false;
  for (const auto& p : onnxruntime_providers()) has_cuda |= p == "CUDAExecutionProvider";
  if (has_cuda) GTEST_SKIP() << "this ONNX Runtime has CUDA";
  try {
    OrtModel m(test::model_root() + "/det", rt, "det", "--det_model_dir");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA execution provider"), std::string::npos);
  }
}

// Honoured up to the CPUs this process may use (issue 29: --cpu_threads
// 100000 is capped there, not obeyed).
TEST(OrtModel, ExplicitThreadCountsAreHonouredUpToTheCpus) {
  const int cpus = logical_cpu_count();
  ASSERT_GE(cpus, 1);
  EXPECT_EQ(effective_threads(7), std::min(7, cpus));
  EXPECT_EQ(effective_threads(cpus), cpus);
  EXPECT_EQ(effective_threads(100000), cpus);
  EXPECT_EQ(effective_threads(1), 1);
  EXPECT_EQ(effective_threads(0), 1);
}

TEST(OrtModel, SessionOptionsAreAppliedAndCheckedByName) {
  RuntimeParams rt;
  rt.cpu_threads = 1;
  rt.graph_optimization = "basic";
  rt.memory_pattern = false;
  rt.allow_spinning = false;
  OrtModel m(test::model_root() + "/cls", rt, "cls", "--cls_model_dir");
  std::vector<float> x(3 * 48 * 192, 0.f);
  TensorView out = m.run(x.data(), {1, 3, 48, 192});
  ASSERT_EQ(out.shape.size(), 2u);
  EXPECT_EQ(out.shape[1], 2);
  rt.graph_optimization = "fastest";
  try {
    OrtModel bad(test::model_root() + "/cls", rt, "cls", "--cls_model_dir");
    FAIL() << "expected an error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'fastest'"), std::string::npos) << e.what();
  }
}

// The shared arena changes where ORT's activation buffers come from, never
// what a model computes; det and rec sessions drawing from it at the same
// time (OcrStream's stages) must not disturb each other.
TEST(OrtModel, SharedArenaComputesWhatPerSessionArenasComputeAlsoFromTwoThreads) {
  RuntimeParams own;
  own.cpu_threads = 1;
  own.shared_arena = false;
  RuntimeParams shared = own;
  shared.shared_arena = true;
  std::vector<float> det_in(3 * 96 * 128), rec_in(3 * 48 * 320);
  for (size_t i = 0; i < det_in.size(); ++i) det_in[i] = static_cast<float>((i * 37) % 101) / 50.f - 1.f;
  for (size_t i = 0; i < rec_in.size(); ++i) rec_in[i] = static_cast<float>((i * 53) % 97) / 48.f - 1.f;
  const auto values = [](const TensorView& t) { return std::vector<float>(t.data, t.data + t.numel()); };

  OrtModel det_own(test::model_root() + "/det", own, "det", "--det_model_dir");
  OrtModel rec_own(test::model_root() + "/rec", own, "rec", "--rec_model_dir");
  const std::vector<float> det_ref = values(det_own.run(det_in.data(), {1, 3, 96, 128}));
  const std::vector<float> rec_ref = values(rec_own.run(rec_in.data(), {1, 3, 48, 320}));

  OrtModel det(test::model_root() + "/det", shared, "det", "--det_model_dir");
  OrtModel rec(test::model_root() + "/rec", shared, "rec", "--rec_model_dir");
  std::vector<std::vector<float>> det_out, rec_out;
  std::thread det_thread([&] {
    for (int i = 0; i < 3; ++i) det_out.push_back(values(det.run(det_in.data(), {1, 3, 96, 128})));
  });
  for (int i = 0; i < 3; ++i) rec_out.push_back(values(rec.run(rec_in.data(), {1, 3, 48, 320})));
  det_thread.join();
  for (const auto& d : det_out) EXPECT_EQ(d, det_ref);
  for (const auto& r : rec_out) EXPECT_EQ(r, rec_ref);
  ASSERT_FALSE(det_ref.empty());
  ASSERT_FALSE(rec_ref.empty());
}
