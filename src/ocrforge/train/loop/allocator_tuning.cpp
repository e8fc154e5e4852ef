#include "ocrforge/train/loop/allocator_tuning.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace ocrforge {

std::string tune_allocator_for_training() {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
  if (std::getenv("MALLOC_MMAP_THRESHOLD_")) return "";
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "mmap_threshold")) return "";
  constexpr int kThreshold = 32 << 20;  // glibc's upper bound on 64-bit (HEAP_MAX_SIZE / 2)
  if (mallopt(M_MMAP_THRESHOLD, kThreshold) != 1) return "";
  return "malloc: mmap threshold fixed at 32 MiB (tensors reused in the heap; set MALLOC_MMAP_THRESHOLD_ to override)";
#else
  return "";
#endif
}

}  // namespace ocrforge
