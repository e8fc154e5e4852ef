#include "ocrforge/train/loop/cpu_bf16.h"

#include <ATen/autocast_mode.h>

#include "ocrforge/core/cpu_features.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

std::string cpu_bf16_instructions() {
  const CpuFeatures& cpu = cpu_features();
  std::vector<std::string> found;
  if (cpu.avx512_bf16) found.push_back("avx512_bf16");
  if (cpu.amx_bf16) found.push_back("amx_bf16");
  return join(found, ",");
}

CpuBf16Autocast::CpuBf16Autocast()
    : was_enabled_(at::autocast::is_cpu_enabled()),
      previous_dtype_(static_cast<int>(at::autocast::get_autocast_cpu_dtype())) {
  at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
  at::autocast::set_cpu_enabled(true);
}

CpuBf16Autocast::~CpuBf16Autocast() {
  at::autocast::set_cpu_enabled(was_enabled_);
  at::autocast::set_autocast_cpu_dtype(static_cast<at::ScalarType>(previous_dtype_));
  at::autocast::clear_cache();
}

}  // namespace ocrforge
