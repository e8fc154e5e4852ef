// `ocrforge launch [flags] train -c ... -o ...`: distributed training on
// this node: the flags become a plan (train/dist/launch_plan.h: which
// workers, their ranks and environment), the supervisor runs it
// (train/dist/launch_supervisor.h). Exit codes: 0 all workers succeeded, 1 a
// worker failed, 2 bad usage, 128+N stopped by signal N. No torch.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/dist/launch_plan.h"
#include "ocrforge/train/dist/launch_supervisor.h"

namespace ocrforge {

int cmd_launch(const Args& args) {
  const LaunchOptions o = parse_launch_args(args);
  if (o.help) {
    std::cout << launch_usage();
    return 0;
  }
  const LaunchPlan plan = plan_launch(o, local_ipv4_addresses(), usable_cores(), std::getenv("FLAGS_START_PORT"));
  // The port must be free before any worker binds it, or rank 0 fails later
  // with a less helpful message (and peers wait for the full timeout).
  if (plan.node_index == 0 && port_in_use(plan.master_port))
    throw Error("port " + std::to_string(plan.master_port) + " (rendezvous port, from " + plan.port_source +
                ") is already in use on this machine: stop what holds it, or choose another port with "
                "--master_port=P (the same on every node)");
  std::filesystem::create_directories(o.log_dir);
  std::cout << "ocrforge launch: node " << plan.node_ip << " (" << plan.node_index + 1 << " of " << plan.nodes << "), "
            << plan.workers.size() << " worker(s): ranks " << plan.workers.front().rank << ".."
            << plan.workers.back().rank << " of " << plan.world_size << "; rendezvous " << plan.master_addr << ":"
            << plan.master_port << "; logs " << o.log_dir << "/workerlog.N" << std::endl;
  return supervise_workers(plan, o.command);
}

}  // namespace ocrforge
