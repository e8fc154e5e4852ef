#include "ocrforge/infer/cpu_topology.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

namespace ocrforge {

std::optional<int> cgroup_cpu_limit(const std::string& cpu_max) {
  std::istringstream in(cpu_max);
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0) return std::nullopt;
  try {
    const double q = std::stod(quota);
    if (q <= 0) return std::nullopt;
    return std::max(1, static_cast<int>(std::ceil(q / period)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

static bool read_int(const std::string& path, int& value) {
  std::ifstream in(path);
  return static_cast<bool>(in >> value);
}

static int count_cores() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool have_mask = sched_getaffinity(0, sizeof(allowed), &allowed) == 0;
  std::set<std::pair<int, int>> cores;  // (package, core)
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (have_mask && !CPU_ISSET(cpu, &allowed)) continue;
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    int package = 0, core = 0;
    if (!read_int(dir + "core_id", core)) {
      if (!have_mask) break;  // without a mask, stop at the first CPU sysfs does not know
      cores.insert({-1, cpu});  // allowed but no topology: its own core
      continue;
    }
    read_int(dir + "physical_package_id", package);
    cores.insert({package, core});
  }
  int n = static_cast<int>(cores.size());
  if (n == 0) n = static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream cpu_max("/sys/fs/cgroup/cpu.max");
  std::string text((std::istreambuf_iterator<char>(cpu_max)), std::istreambuf_iterator<char>());
  if (auto limit = cgroup_cpu_limit(text)) n = std::min(n, *limit);
  return std::max(1, n);
}

int physical_core_count() {
  static const int n = count_cores();
  return n;
}

static int count_logical_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  int n = sched_getaffinity(0, sizeof(allowed), &allowed) == 0 ? CPU_COUNT(&allowed)
                                                                : static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream cpu_max("/sys/fs/cgroup/cpu.max");
  std::string text((std::istreambuf_iterator<char>(cpu_max)), std::istreambuf_iterator<char>());
  if (auto limit = cgroup_cpu_limit(text)) n = std::min(n, *limit);
  return std::max(1, n);
}

int logical_cpu_count() {
  static const int n = count_logical_cpus();
  return n;
}

}  // namespace ocrforge
