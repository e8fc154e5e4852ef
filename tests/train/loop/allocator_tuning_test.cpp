// The malloc tuning of training processes applies by default and leaves a
// user's own mmap threshold alone.
#include "ocrforge/train/loop/allocator_tuning.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace ocrforge;

TEST(AllocatorTuning, AppliesByDefault) {
  unsetenv("MALLOC_MMAP_THRESHOLD_");
  unsetenv("GLIBC_TUNABLES");
  EXPECT_NE(tune_allocator_for_training().find("mmap threshold fixed at 32 MiB"), std::string::npos);
}

TEST(AllocatorTuning, KeepsTheUsersOwnThreshold) {
  setenv("MALLOC_MMAP_THRESHOLD_", "1048576", 1);
  EXPECT_EQ(tune_allocator_for_training(), "");
  unsetenv("MALLOC_MMAP_THRESHOLD_");
  setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=1048576", 1);
  EXPECT_EQ(tune_allocator_for_training(), "");
  unsetenv("GLIBC_TUNABLES");
}
