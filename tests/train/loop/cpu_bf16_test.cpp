// Global.use_amp on a CPU (loop/cpu_bf16.h): the guard turns LibTorch's CPU
// autocast to bf16 for its scope only, and `ocrforge train` with use_amp
// trains in bf16 where the CPU has native bf16 instructions and is refused,
// naming them, where it has none.
#include "ocrforge/train/loop/cpu_bf16.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "test_support.h"

namespace ocrforge {
namespace {

TEST(CpuBf16, AutocastGuardComputesMatrixProductsInBf16ForItsScopeOnly) {
  const torch::Tensor a = torch::randn({8, 16}), b = torch::randn({16, 4});
  EXPECT_EQ(torch::mm(a, b).scalar_type(), torch::kFloat32);
  {
    CpuBf16Autocast guard;
    const torch::Tensor y = torch::mm(a, b);
    EXPECT_EQ(y.scalar_type(), torch::kBFloat16);
    // bf16 keeps 8 bits of mantissa: close to, not equal to, the exact product.
    const torch::Tensor exact = at::mm(a.to(torch::kFloat64), b.to(torch::kFloat64)).to(torch::kFloat32);
    EXPECT_LT((y.to(torch::kFloat32) - exact).abs().max().item<double>(), 0.1 * exact.abs().max().item<double>());
    EXPECT_GT((y.to(torch::kFloat32) - at::mm(a.to(torch::kFloat64), b.to(torch::kFloat64)).to(torch::kFloat32))
                  .abs()
                  .max()
                  .item<double>(),
              0.0);
  }
  EXPECT_EQ(torch::mm(a, b).scalar_type(), torch::kFloat32);
}

TEST(CpuBf16, TrainWithUseAmpRunsBf16WhereTheCpuHasItAndIsRefusedElsewhere) {
  const std::string dir = test::fresh_dir("cpu_bf16_train");
  const auto r = test::run_command("cd " + test::source_dir() + " && " + test::binary() +
                                       " train -c configs/rec/rec_tiny_test.yml -o Global.use_amp=True "
                                       "Global.epoch_num=1 Global.save_model_dir=" + dir + "/out",
                                   dir);
  const std::string log = r.out + r.err;
  if (cpu_bf16_instructions().empty()) {
    EXPECT_EQ(r.exit_code, 2) << log;
    EXPECT_NE(log.find("needs native bf16 instructions (avx512_bf16 or amx_bf16); this CPU has neither"),
              std::string::npos)
        << log;
  } else {
    EXPECT_EQ(r.exit_code, 0) << log;
    EXPECT_NE(log.find("Global.use_amp: bf16 autocast on this CPU (" + cpu_bf16_instructions() + ")"),
              std::string::npos)
        << log;
  }
}

}  // namespace
}  // namespace ocrforge
