// Runs another program and collects what it prints: how ocrforge uses
// poppler's pdftoppm without linking GPL code into its binaries.
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

struct ChildResult {
  int exit_code = -1;   // the program's exit status; 128 + N when killed by signal N
  std::string out;      // everything it wrote to stdout
  std::string err;      // its stderr, kept to the first 64 KiB
};

// Runs argv[0] (found on PATH) with `argv`, stdin from /dev/null, and waits
// for it. Throws Error when it cannot be started (not installed: the message
// names the program and `install_hint`), or when stdout grows beyond
// `max_out_bytes` (the child is then killed).
ChildResult run_child(const std::vector<std::string>& argv, const std::string& install_hint,
                      size_t max_out_bytes = static_cast<size_t>(1) << 31);

}  // namespace ocrforge
