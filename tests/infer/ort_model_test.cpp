#include "ocrforge/infer/ort_model.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

static std::string error_of(const std::string& model) {
  try {
    OrtModel m(model, RuntimeParams{}, "det", "--det_model_dir");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
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

TEST(OrtModel, ExplicitThreadCountsAreHonoured) {
  EXPECT_EQ(effective_threads(7), 7);
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
