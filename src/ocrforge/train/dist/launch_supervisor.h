// The supervisor of `ocrforge launch` (train/dist): starts this node's
// workers (this same binary, /proc/self/exe, running the given command,
// usually `train`) with the environment the plan gives each (RANK,
// WORLD_SIZE, MASTER_ADDR, ...; launch_plan.h), and watches them. Each
// worker runs in its own process group and writes its own
// <log_dir>/workerlog.<local rank> (so the log survives the launcher); local
// rank 0's log is also streamed to stdout. Signals (Ctrl-C, SIGTERM,
// SIGHUP) are forwarded; the workers save `latest` and exit. When a worker
// fails, the others are stopped (SIGTERM, then SIGKILL after a grace time)
// and the failed rank and its log are named. No torch.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/train/dist/launch_plan.h"

namespace ocrforge {

// Runs the plan's workers to their end. Returns the launcher's exit code: 0
// all workers succeeded, 1 a worker failed, 128+N stopped by signal N.
// Installs handlers for SIGINT / SIGTERM / SIGHUP (and ignores SIGPIPE) for
// the rest of the process. Error when a worker log cannot be written or a
// process cannot be started.
int supervise_workers(const LaunchPlan& plan, const LaunchArgs& command);

}  // namespace ocrforge
