// A one-line progress bar on stderr, shown only when stdout is a terminal
// (so redirected runs and CI logs stay clean).
#pragma once
#include <unistd.h>

#include <cstdio>
#include <string>

namespace ocrforge {

class ProgressBar {
 public:
  explicit ProgressBar(size_t total) : total_(total), enabled_(total > 1 && isatty(STDOUT_FILENO)) {}
  ~ProgressBar() { finish(); }
  void update(size_t done, const std::string& label) {
    if (!enabled_) return;
    const int width = 30;
    const int filled = static_cast<int>(width * done / (total_ ? total_ : 1));
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s", std::string(static_cast<size_t>(filled), '=').c_str(),
                 std::string(static_cast<size_t>(width - filled), ' ').c_str(), done, total_, label.c_str());
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fprintf(stderr, "\n");
    enabled_ = false;
  }

 private:
  size_t total_;
  bool enabled_;
};

}  // namespace ocrforge
