#include "ocrforge/train/loop/allocator_tuning.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace ocrforge {

namespace {

// True when the user chose this malloc setting (environment variable or tunable).
bool user_set(const char* env, const char* tunable) {
  if (std::getenv(env)) return true;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables && std::strstr(tunables, tunable);
}

}  // namespace

std::string tune_allocator_for_training() {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  std::string done;
  constexpr int kThreshold = 32 << 20;  // glibc's upper bound on 64-bit (HEAP_MAX_SIZE / 2)
  if (!user_set("MALLOC_MMAP_THRESHOLD_", "mmap_threshold") && mallopt(M_MMAP_THRESHOLD, kThreshold) == 1)
    done = "mmap threshold fixed at 32 MiB";
  // -1: never give the top of the heap back (see the header).
  if (!user_set("MALLOC_TRIM_THRESHOLD_", "trim_threshold") && mallopt(M_TRIM_THRESHOLD, -1) == 1)
    done += std::string(done.empty() ? "" : ", ") + "heap top never trimmed";
  if (done.empty()) return "";
  return "malloc: " + done +
         " (tensors reused in the heap; MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ override)";
#else
  return "";
#endif
}

}  // namespace ocrforge
