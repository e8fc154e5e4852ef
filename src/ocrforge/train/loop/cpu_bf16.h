// Global.use_amp on a CPU: bf16 autocast (LibTorch's CPU autocast: matrix
// products and convolutions in bfloat16, reductions and losses in float32;
// weights, gradients and the optimizer stay float32, as PaddleOCR's amp_level
// O1). Only on a CPU with native bf16 instructions: elsewhere bf16 is
// emulated and slower than float32, so it is refused instead.
#pragma once
#include <string>

namespace ocrforge {

// The native bf16 instruction sets this CPU has ("avx512_bf16", "amx_bf16",
// comma-separated, from core/cpu_features.h: capped by OCRFORGE_MAX_CPU_ISA),
// or "" when it has none.
std::string cpu_bf16_instructions();

// CPU bf16 autocast for the scope of the guard (the forward and the loss of a
// step; backward runs outside it, as LibTorch's autocast expects). Restores
// the previous state and drops autocast's cast cache on exit.
class CpuBf16Autocast {
 public:
  CpuBf16Autocast();
  ~CpuBf16Autocast();
  CpuBf16Autocast(const CpuBf16Autocast&) = delete;
  CpuBf16Autocast& operator=(const CpuBf16Autocast&) = delete;

 private:
  bool was_enabled_;
  int previous_dtype_;
};

}  // namespace ocrforge
