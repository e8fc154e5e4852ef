// ocrforge: one binary, one file per subcommand. main() only dispatches (the
// commands are listed in command_table.cpp) and maps errors to exit codes:
// 0 success, 1 failure (some input failed or a fatal error), 2 bad usage.
#include <iostream>
#include <string>

#include <opencv2/core/utility.hpp>

#include "command_table.h"
#include "run_command.h"
#include "ocrforge/version.h"

int main(int argc, char** argv) {
  using namespace ocrforge;
  cv::setNumThreads(1);  // OpenCV ops are small here; ORT owns the cores
  if (argc < 2) {
    std::cerr << usage_text();
    return 2;
  }
  const std::string cmd = argv[1];
  const Args args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << usage_text();
    return 0;
  }
  if (cmd == "version" || cmd == "--version") {
    std::cout << "ocrforge " << OCRFORGE_VERSION << "\n";
    return 0;
  }
  const Command* c = find_command(cmd);
  if (c == nullptr) {
    std::cerr << "ocrforge: unknown command '" << cmd << "'\n\n" << usage_text();
    return 2;
  }
  if (!build_has(c->part)) {
    // train/eval/export/launch/check in a build without LibTorch
    // (OCRFORGE_WITH_TRAIN=OFF); serve in one without cpp-httplib.
    std::cerr << "ocrforge: '" << cmd << "' is not yet supported in this version (" << OCRFORGE_VERSION
              << "); see README.md for what is available\n";
    return 2;
  }
  if (c->run == nullptr) return exec_train_binary(cmd, args);  // the LibTorch half
  return run_command(cmd, c->run, args);
}
