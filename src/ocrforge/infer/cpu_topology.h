// How many threads ORT should use by default: the physical cores this process
// may run on. SMT siblings share a core's vector units, so a second ORT
// thread on a sibling mostly waits; and more threads than cores make ORT's
// spinning workers steal time from each other (docs/benchmarks.md).
#pragma once
#include <optional>
#include <string>

namespace ocrforge {

// Physical cores among the CPUs in this process's affinity mask (distinct
// (physical_package_id, core_id) pairs in /sys/devices/system/cpu), further
// capped by a cgroup v2 CPU quota (/sys/fs/cgroup/cpu.max) rounded up.
// Falls back to std::thread::hardware_concurrency() when sysfs is missing.
// At least 1. Computed once per process.
int physical_core_count();

// Logical CPUs (SMT siblings included) in this process's affinity mask,
// capped by the cgroup v2 quota: the most threads that can run at once, and
// the cap of every thread-count setting (a thread more only waits, and
// --cpu_threads 100000 would ask for 100000 thread stacks). At least 1.
int logical_cpu_count();

// cgroup v2 "cpu.max" contents ("max 100000" or "150000 100000"): the CPUs
// the quota allows, rounded up; nullopt when there is no limit or the text
// does not parse.
std::optional<int> cgroup_cpu_limit(const std::string& cpu_max);

}  // namespace ocrforge
