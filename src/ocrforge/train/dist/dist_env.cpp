// dist_env.h: reading the launcher's environment.
#include "ocrforge/train/dist/dist_env.h"

#include <cstdlib>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// The first variable of `names` that is set (its name in *which).
const char* first_env(std::initializer_list<const char*> names, std::string* which) {
  for (const char* n : names) {
    const char* v = std::getenv(n);
    if (v && *v) {
      *which = n;
      return v;
    }
  }
  return nullptr;
}

long parse_long(const std::string& name, const char* value) {
  char* end = nullptr;
  const long v = std::strtol(value, &end, 10);
  if (end == value || *end != '\0')
    throw UsageError("environment variable " + name + "='" + value + "' is not an integer");
  return v;
}

std::string host_of(const std::string& endpoint) {
  const auto colon = endpoint.rfind(':');
  return colon == std::string::npos ? endpoint : endpoint.substr(0, colon);
}

}  // namespace

std::string DistEnv::describe_rank(int r) const {
  const std::string s = "rank " + std::to_string(r);
  if (r >= 0 && static_cast<size_t>(r) < rank_hosts.size())
    return s + " (node " + rank_hosts[static_cast<size_t>(r)] + ")";
  return s;
}

DistEnv dist_env_from_environment() {
  DistEnv e;
  std::string name;
  if (const char* v =
          first_env({"WORLD_SIZE", "PADDLE_TRAINERS_NUM", "SLURM_STEP_NUM_TASKS", "OMPI_COMM_WORLD_SIZE"}, &name))
    e.world_size = static_cast<int>(parse_long(name, v));
  if (const char* v = first_env({"RANK", "PADDLE_TRAINER_ID", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"}, &name))
    e.rank = static_cast<int>(parse_long(name, v));
  if (const char* v = first_env({"LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK"}, &name))
    e.local_rank = static_cast<int>(parse_long(name, v));
  if (e.world_size < 1) throw UsageError("WORLD_SIZE must be at least 1 (got " + std::to_string(e.world_size) + ")");
  if (e.rank < 0 || e.rank >= e.world_size)
    throw UsageError("RANK " + std::to_string(e.rank) + " is outside 0.." + std::to_string(e.world_size - 1) +
                     " (WORLD_SIZE " + std::to_string(e.world_size) + ")");
  if (const char* v = std::getenv("PADDLE_TRAINER_ENDPOINTS"))
    for (const auto& ep : split(v, ',')) e.rank_hosts.push_back(host_of(trim(ep)));
  if (const char* v = first_env({"MASTER_ADDR"}, &name)) {
    e.master_addr = v;
  } else if (!e.rank_hosts.empty()) {
    e.master_addr = e.rank_hosts.front();
  }
  if (const char* v = first_env({"MASTER_PORT", "FLAGS_START_PORT"}, &name)) {
    const long p = parse_long(name, v);
    if (p < 1 || p > 65535) throw UsageError(name + "=" + v + " is not a TCP port (1..65535)");
    e.master_port = static_cast<int>(p);
  }
  if (const char* v = first_env({"OCRFORGE_NODE_IP"}, &name)) {
    e.node_ip = v;
  } else if (const char* ep = first_env({"PADDLE_CURRENT_ENDPOINT"}, &name)) {
    e.node_ip = host_of(ep);
  }
  if (const char* v = first_env({"OCRFORGE_DIST_TIMEOUT"}, &name)) {
    e.timeout_s = static_cast<double>(parse_long(name, v));
    if (e.timeout_s < 1) throw UsageError("OCRFORGE_DIST_TIMEOUT must be at least 1 second");
  }
  return e;
}

int cuda_device_index(int visible_devices) {
  if (visible_devices <= 1) return 0;
  return dist_env_from_environment().local_rank % visible_devices;
}

}  // namespace ocrforge
