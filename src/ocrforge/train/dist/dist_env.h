// Where this process sits in a distributed run, read once from the
// environment that `ocrforge launch` (or torchrun, Slurm, Open MPI) sets.
// Torch-free so the CLI can read it without compiling LibTorch headers.
//
// Variables, first found wins:
//   rank        RANK | PADDLE_TRAINER_ID | SLURM_PROCID | OMPI_COMM_WORLD_RANK
//   world size  WORLD_SIZE | PADDLE_TRAINERS_NUM | SLURM_STEP_NUM_TASKS | OMPI_COMM_WORLD_SIZE
//   local rank  LOCAL_RANK | SLURM_LOCALID | OMPI_COMM_WORLD_LOCAL_RANK (default 0)
//   store       MASTER_ADDR (default: the host of the first PADDLE_TRAINER_ENDPOINTS
//               entry, else 127.0.0.1), MASTER_PORT (default FLAGS_START_PORT, else 6070)
//   node        OCRFORGE_NODE_IP | host of PADDLE_CURRENT_ENDPOINT (the address Gloo
//               binds to and peers connect to; empty: resolve this host's name)
//   timeout     OCRFORGE_DIST_TIMEOUT seconds for rendezvous (default 300)
// Slurm: the task count of the srun step, not SLURM_NTASKS, which an sbatch
// script sees outside srun too (a plain `ocrforge train` there is one process).
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// PaddlePaddle's default first port (paddle.distributed.launch --start_port).
constexpr int kDefaultMasterPort = 6070;
constexpr int kDefaultRendezvousTimeoutS = 300;

struct DistEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = kDefaultMasterPort;
  std::string node_ip;  // "" = let Gloo resolve the host name
  double timeout_s = kDefaultRendezvousTimeoutS;
  std::vector<std::string> rank_hosts;  // host of each rank (PADDLE_TRAINER_ENDPOINTS), may be empty
  bool distributed() const { return world_size > 1; }
  // "rank 3 (node 10.0.0.2)" or "rank 3" when the host is unknown.
  std::string describe_rank(int r) const;
};

// Throws UsageError for malformed values (RANK=abc, RANK >= WORLD_SIZE).
DistEnv dist_env_from_environment();

// The CUDA device index this process trains on, given how many it sees:
// 0 when it sees one (`ocrforge launch --gpus` gives each worker its own GPU
// through CUDA_VISIBLE_DEVICES), else LOCAL_RANK modulo the count (torchrun
// or Slurm with every GPU visible to every task).
int cuda_device_index(int visible_devices);

}  // namespace ocrforge
