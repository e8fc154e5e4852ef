#include "ocrforge/core/process_info.h"

#include <unistd.h>

#include <climits>
#include <fstream>
#include <string>

#include "ocrforge/core/text.h"

namespace ocrforge {

static double status_field_mb(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (starts_with(line, key + ":")) {
      // "VmRSS:   123456 kB"
      return std::stod(trim(line.substr(key.size() + 1))) / 1024.0;
    }
  }
  return -1.0;
}

double current_rss_mb() { return status_field_mb("VmRSS"); }
double peak_rss_mb() { return status_field_mb("VmHWM"); }

std::string os_version() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (starts_with(line, "PRETTY_NAME=")) {
      std::string v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      return v;
    }
  }
  return "unknown";
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (starts_with(line, "model name")) {
      auto pos = line.find(':');
      if (pos != std::string::npos) return trim(line.substr(pos + 1));
    }
  }
  return "unknown";
}

std::string executable_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace ocrforge
