// `ocrforge check` end to end: the build report (with the CPU's int8 kind),
// a training step, a real 2-worker Gloo all-reduce, and the one-line verdict.
#include <gtest/gtest.h>

#include "ocrforge/core/cpu_features.h"
#include "ocrforge/infer/int8_model.h"
#include "test_support.h"

using namespace ocrforge;

TEST(CheckCli, ReportsTheBuildAndPassesEveryStep) {
  const std::string dir = test::fresh_dir("check_cli");
  auto r = test::run_command(test::binary() + " check", dir);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("libtorch "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ONNX Runtime "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CPUExecutionProvider"), std::string::npos) << r.out;
  // Which int8 kernels this CPU has and so which weight scheme --precision int8 uses.
  EXPECT_NE(r.out.find("int8 (--precision int8): " + int8_cpu_kind(cpu_features())), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(int8_plan("rec", RuntimeParams{}, cpu_features()).why), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("training step on cpu ... ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2-worker Gloo all-reduce ... ok (127.0.0.1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inference models (det, cls, rec) ... ok"), std::string::npos) << r.out;
  // The verdict is the last line.
  const std::string last = "ocrforge check: PASSED";
  EXPECT_NE(r.out.rfind(last), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
}

TEST(CheckCli, RefusesArguments) {
  const std::string dir = test::fresh_dir("check_cli_args");
  auto r = test::run_command(test::binary() + " check --gpu", dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("check takes no arguments (got '--gpu')"), std::string::npos) << r.err;
}

TEST(CheckCli, FailsWhenNoModelCanBeFound) {
  // It said PASSED before, though `ocrforge ocr` could not run.
  const std::string dir = test::fresh_dir("check_cli_nomodel");
  auto r = test::run_command("OCRFORGE_MODEL_DIR=" + dir + "/nowhere " + test::binary() + " check", dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("inference models (det, cls, rec) ... FAILED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(dir + "/nowhere"), std::string::npos) << "the error names where it looked\n" << r.out;
  EXPECT_EQ(r.out.find("PASSED"), std::string::npos) << r.out;
}

// `ocrforge` runs ocrforge-train for the LibTorch commands (the check above
// passes through it); reading text must not load LibTorch, which alone cost
// 106 MiB of peak RSS per process.
TEST(TrainBinary, OcrforgeItselfDoesNotLinkLibTorch) {
  const std::string dir = test::fresh_dir("train_binary_ldd");
  auto r = test::run_command("ldd " + test::binary(), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("onnxruntime"), std::string::npos) << "ldd lists the libraries\n" << r.out;
  EXPECT_EQ(r.out.find("libtorch"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("libc10"), std::string::npos) << r.out;
}

TEST(TrainBinary, AMissingOcrforgeTrainIsAClearErrorNamingIt) {
  const std::string dir = test::fresh_dir("train_binary_missing");
  auto cp = test::run_command("cp " + test::binary() + " " + dir + "/ocrforge", dir);
  ASSERT_EQ(cp.exit_code, 0) << cp.err;
  auto r = test::run_command(dir + "/ocrforge train -c nothing.yml", dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find(dir + "/ocrforge-train"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("make install"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("make build"), std::string::npos) << r.err;  // after `make demo`, which builds ocrforge alone
}
