#include "ocrforge/infer/cpu_topology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "ocrforge/infer/ort_model.h"
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

// Every thread-count setting is capped at the CPUs this process may use
// (issue 29: --cpu_threads 100000 asked ONNX Runtime for 100000 threads and
// ran out of memory instead of reading the image).
TEST(CpuTopology, ThreadCountsAreCappedAtTheLogicalCpus) {
  const int cpus = logical_cpu_count();
  EXPECT_GE(cpus, 1);
  EXPECT_GE(cpus, physical_core_count());
  EXPECT_LE(cpus, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  EXPECT_EQ(effective_threads(100000), cpus);
  EXPECT_EQ(effective_threads(0), 1);
  EXPECT_EQ(effective_threads(1), 1);
}
