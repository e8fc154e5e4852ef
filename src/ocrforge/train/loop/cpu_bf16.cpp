#include "ocrforge/train/loop/cpu_bf16.h"

#include <ATen/autocast_mode.h>

#include <fstream>
#include <sstream>

namespace ocrforge {

std::string cpu_bf16_instructions() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string w, found;
    while (words >> w)
      if (w == "avx512_bf16" || w == "amx_bf16") found += (found.empty() ? "" : ",") + w;
    return found;  // every core lists the same flags
  }
  return "";
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
