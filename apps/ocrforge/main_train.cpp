// ocrforge-train: the subcommands that need LibTorch (train, eval, export,
// check, and infer on a training checkpoint). `ocrforge` runs this binary
// for them (exec, same arguments), so reading text never loads LibTorch:
// loading it alone raised the peak RSS of every `ocrforge` process by 106 MiB
// (docs/benchmarks.md).
#include <iostream>
#include <map>

#include <opencv2/core/utility.hpp>

#include "commands.h"
#include "run_command.h"

int main(int argc, char** argv) {
  using namespace ocrforge;
  cv::setNumThreads(1);
  const std::map<std::string, int (*)(const Args&)> commands = {
      {"train", cmd_train}, {"eval", cmd_eval}, {"export", cmd_export}, {"check", cmd_check}, {"infer", cmd_infer}};
  const auto it = argc >= 2 ? commands.find(argv[1]) : commands.end();
  if (it == commands.end()) {
    std::cerr << "ocrforge-train runs ocrforge's train, eval, export, check (and checkpoint infer) commands; run them as "
                 "`ocrforge <command> [flags]`\n";
    return 2;
  }
  return run_command(it->first, it->second, Args(argv + 2, argv + argc));
}
