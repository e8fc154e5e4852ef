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

// cgroup v2 "cpu.max" contents ("max 100000" or "150000 100000"): the CPUs
// the quota allows, rounded up; nullopt when there is no limit or the text
// does not parse.
std::optional<int> cgroup_cpu_limit(const std::string& cpu_max);

}  // namespace ocrforge
