// `ocrforge tipc plan` on PaddleOCR's own TIPC file, as a user runs it.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace ocrforge;

namespace {

const std::string kFleet = "/test_tipc/configs/PP-OCRv3_mobile_rec/train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt";

}  // namespace

TEST(TipcCli, PlanPrintsEveryStageWithItsLog) {
  const std::string dir = test::fresh_dir("tipc_plan");
  auto r = test::run_command(test::binary() + " tipc plan " + test::source_dir() + kFleet + " lite_train_lite_infer", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("train\tocrforge launch --ips=192.168.0.1,192.168.0.2 --gpus=0,1 train -c "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("export\tocrforge export -c "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("_export.log 2>&1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("python_infer_cpu_usemkldnn_False_threads_6_precision_fp32_batchsize_6.log"), std::string::npos)
      << r.out;
}

TEST(TipcCli, ASecondNodeSkipsExportAndInference) {
  const std::string dir = test::fresh_dir("tipc_plan_node2");
  auto r = test::run_command(
      test::binary() + " tipc plan " + test::source_dir() + kFleet + " lite_train_lite_infer --node_ip=192.168.0.2", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(not trainer 0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--node_ip=192.168.0.2 train"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("export\tskipped: the model is saved on trainer 0 only"), std::string::npos) << r.out;
}

TEST(TipcCli, BadModeMissingFileAndUsage) {
  const std::string dir = test::fresh_dir("tipc_plan_bad");
  auto mode = test::run_command(test::binary() + " tipc plan " + test::source_dir() + kFleet + " lite", dir);
  EXPECT_EQ(mode.exit_code, 2);
  EXPECT_NE(mode.err.find("TIPC mode 'lite' is not one of"), std::string::npos) << mode.err;
  auto missing = test::run_command(test::binary() + " tipc plan /nonexistent.txt whole_infer", dir);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("'/nonexistent.txt' cannot be read"), std::string::npos) << missing.err;
  auto usage = test::run_command(test::binary() + " tipc plan", dir);
  EXPECT_EQ(usage.exit_code, 2);
}
