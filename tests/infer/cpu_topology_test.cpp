#include "ocrforge/infer/cpu_topology.h"

#include <gtest/gtest.h>

#include <thread>

#include "ocrforge/infer/params.h"

using namespace ocrforge;

TEST(CpuTopology, CountsCoresWithinTheCpusThisProcessMayUse) {
  const int cores = physical_core_count();
  EXPECT_GE(cores, 1);
  const unsigned logical = std::thread::hardware_concurrency();
  if (logical > 0) {
    EXPECT_LE(cores, static_cast<int>(logical));
  }
}

TEST(CpuTopology, DefaultThreadsAreThePhysicalCores) {
  EXPECT_EQ(RuntimeParams{}.cpu_threads, physical_core_count());
  EXPECT_NE(RuntimeParams{}.cpu_threads, 0);
}

TEST(CpuTopology, ReadsCgroupQuotaRoundedUp) {
  EXPECT_EQ(cgroup_cpu_limit("150000 100000\n"), 2);
  EXPECT_EQ(cgroup_cpu_limit("200000 100000"), 2);
  EXPECT_EQ(cgroup_cpu_limit("50000 100000"), 1);
  EXPECT_EQ(cgroup_cpu_limit("max 100000\n"), std::nullopt);
  EXPECT_EQ(cgroup_cpu_limit(""), std::nullopt);
  EXPECT_EQ(cgroup_cpu_limit("garbage"), std::nullopt);
}
