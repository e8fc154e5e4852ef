// The malloc tuning of training processes applies by default and leaves a
// user's own mmap threshold alone.
#include "ocrforge/train/loop/allocator_tuning.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace ocrforge;

TEST(AllocatorTuning, AppliesByDefault) {
  unsetenv("MALLOC_MMAP_THRESHOLD_");
  unsetenv("MALLOC_TRIM_THRESHOLD_");
  unsetenv("GLIBC_TUNABLES");
  const std::string done = tune_allocator_for_training();
  EXPECT_NE(done.find("mmap threshold fixed at 32 MiB"), std::string::npos) << done;
  EXPECT_NE(done.find("heap top never trimmed"), std::string::npos) << done;
}

TEST(AllocatorTuning, KeepsTheUsersOwnSettings) {
  unsetenv("MALLOC_TRIM_THRESHOLD_");
  setenv("MALLOC_MMAP_THRESHOLD_", "1048576", 1);
  std::string done = tune_allocator_for_training();
  EXPECT_EQ(done.find("mmap threshold"), std::string::npos) << done;
  EXPECT_NE(done.find("never trimmed"), std::string::npos) << done;
  unsetenv("MALLOC_MMAP_THRESHOLD_");
  setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=1048576:glibc.malloc.trim_threshold=65536", 1);
  EXPECT_EQ(tune_allocator_for_training(), "");
  unsetenv("GLIBC_TUNABLES");
  setenv("MALLOC_TRIM_THRESHOLD_", "65536", 1);
  done = tune_allocator_for_training();
  EXPECT_NE(done.find("mmap threshold fixed"), std::string::npos) << done;
  EXPECT_EQ(done.find("trimmed"), std::string::npos) << done;
  unsetenv("MALLOC_TRIM_THRESHOLD_");
}
