// A one-line progress bar on stderr, shown only when both stdout and stderr
// are a terminal (so redirected runs and CI logs stay clean). Anything else
// printed while the bar is up would land on the bar's line: call clear()
// before printing (for_each_image does), and the next update() redraws it.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <string>

#include "ocrforge/core/control_chars.h"

namespace ocrforge {

class ProgressBar {
 public:
  explicit ProgressBar(size_t total)
      : total_(total), enabled_(total > 1 && isatty(STDOUT_FILENO) && isatty(STDERR_FILENO)) {}
  ~ProgressBar() { finish(); }
  void update(size_t done, const std::string& label) {
    if (!enabled_) return;
    const int width = 30;
    const int filled = static_cast<int>(width * done / (total_ ? total_ : 1));
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s", std::string(static_cast<size_t>(filled), '=').c_str(),
                 std::string(static_cast<size_t>(width - filled), ' ').c_str(), done, total_, printable(label).c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
  // Erases the bar's line ("\r" + erase-to-end-of-line) so the next output
  // starts on a clean line.
  void clear() {
    if (!drawn_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
  }
  void finish() {
    clear();
    enabled_ = false;
  }

 private:
  size_t total_;
  bool enabled_;
  bool drawn_ = false;
};

}  // namespace ocrforge
