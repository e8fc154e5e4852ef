// `ocrforge launch` flags -> which workers this node starts and the
// environment each one gets (PaddlePaddle's paddle.distributed.launch
// semantics). Pure functions of the flags and the machine's facts, so tests
// can check them without starting processes. No torch: this and
// launch_supervisor.h form ocrforge_launch, linked into the reading binary.
#pragma once
#include <string>
#include <utility>
#include <vector>


namespace ocrforge {

using LaunchArgs = std::vector<std::string>;

struct LaunchOptions {
  std::vector<std::string> ips;   // --ips (default: this node only)
  std::vector<std::string> gpus;  // --gpus: one worker per listed GPU
  int nproc_per_node = 0;         // --nproc_per_node: CPU workers (0: 1, or one per --gpus entry)
  std::string node_ip;            // --node_ip
  int master_port = 0;            // --master_port (0: FLAGS_START_PORT, else kDefaultLaunchPort)
  std::string log_dir = "log";    // --log_dir
  int timeout_s = 300;            // --timeout: rendezvous timeout
  LaunchArgs command;             // "train" and its flags, passed on verbatim
  bool help = false;
};

constexpr int kDefaultLaunchPort = 6070;  // PaddlePaddle's default start port

LaunchOptions parse_launch_args(const LaunchArgs& args);
std::string launch_usage();

struct WorkerSpec {
  int rank = 0, local_rank = 0;
  std::vector<std::pair<std::string, std::string>> env;  // set on top of the launcher's environment
  std::string log_path;                                  // <log_dir>/workerlog.<local_rank>
};

struct LaunchPlan {
  std::string node_ip;
  int node_index = 0, nodes = 1, world_size = 1;
  std::string master_addr;
  int master_port = kDefaultLaunchPort;
  std::string port_source;  // "--master_port", "FLAGS_START_PORT" or "default"
  std::vector<WorkerSpec> workers;
};

// `local_addresses`: this machine's IPv4 addresses; `cores`: usable cores;
// `start_port_env`: FLAGS_START_PORT or null. UsageError when the node cannot
// be identified (no or several --ips are local), flags conflict, etc.
LaunchPlan plan_launch(const LaunchOptions& o, const std::vector<std::string>& local_addresses, int cores,
                       const char* start_port_env);

// IPv4 addresses of this machine's interfaces (getifaddrs).
std::vector<std::string> local_ipv4_addresses();
// Cores this process may run on (sched_getaffinity).
int usable_cores();
// Whether a TCP listener holds `port` on this machine (bind test on all
// addresses, with SO_REUSEADDR as TCPStore: TIME_WAIT does not count).
bool port_in_use(int port);

}  // namespace ocrforge
