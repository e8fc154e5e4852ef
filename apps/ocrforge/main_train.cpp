// ocrforge-train: the subcommands that need LibTorch (train, eval, export,
// check, and infer on a training checkpoint; command_table.cpp). `ocrforge`
// runs this binary for them (exec, same arguments), so reading text never
// loads LibTorch and its memory (docs/benchmarks.md, memory).
#include <iostream>

#include <opencv2/core/utility.hpp>

#include "command_table.h"
#include "ocrforge/train/tasks/task_networks.h"
#ifdef OCRFORGE_WITH_SERVE
#include "ocrforge/serve/prometheus_train_monitor.h"
#endif
#include "run_command.h"

int main(int argc, char** argv) {
  using namespace ocrforge;
  cv::setNumThreads(1);
  register_task_networks();  // `infer` reads training checkpoints through the tasks
#ifdef OCRFORGE_WITH_SERVE
  // Global.metrics_port: Prometheus metrics of a training run.
  register_train_monitor(
      [](const std::string& host, int port) { return std::make_unique<PrometheusTrainMonitor>(host, port); });
#endif
  const Command* c = argc >= 2 ? find_command(argv[1]) : nullptr;
  if (c == nullptr || c->run == nullptr) {
    std::cerr << "ocrforge-train runs ocrforge's train, eval, export, check (and checkpoint infer) commands; run them as "
                 "`ocrforge <command> [flags]`\n";
    return 2;
  }
  return run_command(c->name, c->run, Args(argv + 2, argv + argc));
}
