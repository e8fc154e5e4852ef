// launch_plan.h: flags, node identity, ranks and worker environments.
#include "ocrforge/train/dist/launch_plan.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

std::vector<std::string> csv(const std::string& v) {
  std::vector<std::string> out;
  for (const auto& s : split(v, ','))
    if (!trim(s).empty()) out.push_back(trim(s));
  return out;
}

}  // namespace

std::string launch_usage() {
  return "usage: ocrforge launch [flags] train -c CONFIG.yml [-o ...]\n"
         "  --ips=IP1,IP2,...      every node of the run, the first hosts the rendezvous (default: this node)\n"
         "  --gpus=0,1             one worker per GPU (CUDA builds)\n"
         "  --nproc_per_node=N     N CPU workers on this node (threads split between them)\n"
         "  --node_ip=IP           this node's address in --ips (default: the one local address in --ips)\n"
         "  --master_port=P        rendezvous port on the first node (default: FLAGS_START_PORT, else 6070)\n"
         "  --log_dir=DIR          worker logs DIR/workerlog.<local rank> (default: log)\n"
         "  --timeout=S            seconds to wait for every node to join (default: 300)\n"
         "See docs/distributed.md.\n";
}

LaunchOptions parse_launch_args(const LaunchArgs& args) {
  LaunchOptions o;
  static const std::vector<std::string> known = {"ips", "gpus", "nproc_per_node", "node_ip", "master_port", "log_dir",
                                                 "timeout"};
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      o.help = true;
      continue;
    }
    if (!starts_with(a, "--")) break;  // the command to run
    std::string key = a.substr(2), value;
    const auto eq = key.find('=');
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    } else {
      if (i + 1 >= args.size()) throw UsageError("--" + key + " needs a value\n" + launch_usage());
      value = args[++i];
    }
    if (key == "ips") o.ips = csv(value);
    else if (key == "gpus") o.gpus = csv(value);
    else if (key == "nproc_per_node") {
      // 0 stands for "not given" inside LaunchOptions; written out, it is a mistake.
      o.nproc_per_node = parse_int(value, "--nproc_per_node");
      if (o.nproc_per_node < 1)
        throw UsageError("--nproc_per_node=" + value + " is out of range: it must be >= 1 (workers on this node)");
    }
    else if (key == "node_ip") o.node_ip = value;
    else if (key == "master_port") o.master_port = parse_int(value, "--master_port");
    else if (key == "log_dir") o.log_dir = value;
    else if (key == "timeout") o.timeout_s = parse_int(value, "--timeout");
    else {
      const std::string hint = closest_match(key, known);
      throw UsageError("unknown flag --" + key + (hint.empty() ? "" : " (did you mean --" + hint + "?)") + "\n" +
                       launch_usage());
    }
  }
  o.command.assign(args.begin() + static_cast<long>(i), args.end());
  if (o.help) return o;
  if (o.command.empty()) throw UsageError("what to launch is missing, e.g. `train -c CONFIG.yml`\n" + launch_usage());
  if (o.command[0] != "train")
    throw UsageError("only `train` can be launched (got '" + o.command[0] + "')\n" + launch_usage());
  if (o.nproc_per_node < 0) throw UsageError("--nproc_per_node must be at least 1");
  if (!o.gpus.empty() && o.nproc_per_node > 0 && o.nproc_per_node != static_cast<int>(o.gpus.size()))
    throw UsageError("--gpus lists " + std::to_string(o.gpus.size()) + " devices but --nproc_per_node is " +
                     std::to_string(o.nproc_per_node) + ": give one of them");
  if (o.master_port < 0 || o.master_port > 65535) throw UsageError("--master_port must be a TCP port (1..65535)");
  if (o.timeout_s < 1) throw UsageError("--timeout must be at least 1 second");
  return o;
}

LaunchPlan plan_launch(const LaunchOptions& o, const std::vector<std::string>& local, int cores,
                       const char* start_port_env) {
  LaunchPlan p;
  std::vector<std::string> ips = o.ips;
  if (ips.empty()) ips.push_back(o.node_ip.empty() ? "127.0.0.1" : o.node_ip);
  for (size_t i = 0; i < ips.size(); ++i)
    if (std::find(ips.begin() + static_cast<long>(i) + 1, ips.end(), ips[i]) != ips.end())
      throw UsageError("--ips lists " + ips[i] + " twice (one entry per node)");
  if (!o.node_ip.empty()) {
    p.node_ip = o.node_ip;
  } else if (ips.size() == 1) {
    p.node_ip = ips[0];
  } else {
    std::vector<std::string> mine;
    for (const auto& ip : ips)
      if (std::find(local.begin(), local.end(), ip) != local.end()) mine.push_back(ip);
    if (mine.empty())
      throw UsageError("none of --ips (" + join(ips, ", ") + ") is an address of this machine (local: " +
                       join(local, ", ") + "): pass --node_ip=<this node's address in --ips>");
    if (mine.size() > 1)
      throw UsageError("several of --ips are addresses of this machine (" + join(mine, ", ") +
                       "): pass --node_ip to say which node this is");
    p.node_ip = mine[0];
  }
  const auto it = std::find(ips.begin(), ips.end(), p.node_ip);
  if (it == ips.end()) throw UsageError("--node_ip " + p.node_ip + " is not in --ips (" + join(ips, ", ") + ")");
  p.node_index = static_cast<int>(it - ips.begin());
  p.nodes = static_cast<int>(ips.size());
  p.master_addr = ips[0];
  if (o.master_port > 0) {
    p.master_port = o.master_port, p.port_source = "--master_port";
  } else if (start_port_env && *start_port_env) {
    p.master_port = parse_int(start_port_env, "FLAGS_START_PORT"), p.port_source = "FLAGS_START_PORT";
    if (p.master_port < 1 || p.master_port > 65535) throw UsageError("FLAGS_START_PORT must be a TCP port (1..65535)");
  } else {
    p.master_port = kDefaultLaunchPort, p.port_source = "default";
  }

  const bool gpu = !o.gpus.empty();
  const int nproc = gpu ? static_cast<int>(o.gpus.size()) : std::max(1, o.nproc_per_node);
  p.world_size = nproc * p.nodes;
  // Endpoints as PaddlePaddle lists them (ip:start_port+local_rank); ocrforge
  // itself listens only on master_port of the first node (and Gloo's own ports).
  std::string endpoints;
  for (const auto& ip : ips)
    for (int l = 0; l < nproc; ++l)
      endpoints += (endpoints.empty() ? "" : ",") + ip + ":" + std::to_string(p.master_port + l);
  for (int l = 0; l < nproc; ++l) {
    WorkerSpec w;
    w.local_rank = l;
    w.rank = p.node_index * nproc + l;
    w.log_path = o.log_dir + "/workerlog." + std::to_string(l);
    const std::string endpoint = p.node_ip + ":" + std::to_string(p.master_port + l);
    w.env = {{"RANK", std::to_string(w.rank)},           {"LOCAL_RANK", std::to_string(l)},
             {"WORLD_SIZE", std::to_string(p.world_size)}, {"LOCAL_WORLD_SIZE", std::to_string(nproc)},
             {"MASTER_ADDR", p.master_addr},              {"MASTER_PORT", std::to_string(p.master_port)},
             {"OCRFORGE_NODE_IP", p.node_ip},             {"OCRFORGE_DIST_TIMEOUT", std::to_string(o.timeout_s)},
             {"PADDLE_TRAINER_ID", std::to_string(w.rank)}, {"PADDLE_TRAINERS_NUM", std::to_string(p.world_size)},
             {"PADDLE_RANK_IN_NODE", std::to_string(l)},  {"PADDLE_CURRENT_ENDPOINT", endpoint},
             {"PADDLE_TRAINER_ENDPOINTS", endpoints}};
    if (gpu) {
      // Each worker sees its one GPU as cuda:0 (the trainer uses device 0).
      w.env.emplace_back("CUDA_VISIBLE_DEVICES", o.gpus[static_cast<size_t>(l)]);
      w.env.emplace_back("FLAGS_selected_gpus", o.gpus[static_cast<size_t>(l)]);
    } else {
      // Workers share the cores; Global.num_threads in the config still wins.
      w.env.emplace_back("OCRFORGE_NUM_THREADS", std::to_string(std::max(1, cores / nproc)));
    }
    p.workers.push_back(std::move(w));
  }
  return p;
}

std::vector<std::string> local_ipv4_addresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
    char buf[INET_ADDRSTRLEN] = {0};
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, buf, sizeof(buf));
    out.push_back(buf);
  }
  freeifaddrs(list);
  return out;
}

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return 1;
}

bool port_in_use(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  a.sin_port = htons(static_cast<uint16_t>(port));
  const bool busy = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 && errno == EADDRINUSE;
  close(fd);
  return busy;
}

}  // namespace ocrforge
