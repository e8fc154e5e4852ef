// Facts about this process and machine for reports (RSS, OS name, CPU).
#pragma once
#include <string>

namespace ocrforge {

// Resident set size in MiB (VmRSS of /proc/self/status); -1 if unknown.
double current_rss_mb();
// Peak resident set size in MiB (VmHWM); -1 if unknown.
double peak_rss_mb();
// "Debian GNU/Linux 12 (bookworm)" from /etc/os-release, or "unknown".
std::string os_version();
// Model name of the first CPU from /proc/cpuinfo, or "unknown".
std::string cpu_model();
// This process's binary (/proc/self/exe), or "" if unknown.
std::string executable_path();

}  // namespace ocrforge
