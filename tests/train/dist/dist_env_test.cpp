// Reading the launcher's (or torchrun's / Slurm's) environment.
#include <gtest/gtest.h>

#include <cstdlib>

#include "ocrforge/core/error.h"
#include "ocrforge/train/dist/dist_env.h"

namespace ocrforge {
namespace {

const char* kVars[] = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT", "FLAGS_START_PORT",
                       "OCRFORGE_NODE_IP", "OCRFORGE_DIST_TIMEOUT", "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM",
                       "PADDLE_CURRENT_ENDPOINT", "PADDLE_TRAINER_ENDPOINTS", "SLURM_PROCID", "SLURM_NTASKS",
                       "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                       "OMPI_COMM_WORLD_LOCAL_RANK"};

class DistEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kVars) unsetenv(v);
  }
  void TearDown() override { SetUp(); }
};

TEST_F(DistEnvTest, DefaultsToASingleProcess) {
  const DistEnv e = dist_env_from_environment();
  EXPECT_FALSE(e.distributed());
  EXPECT_EQ(e.rank, 0);
  EXPECT_EQ(e.master_port, kDefaultMasterPort);
}

TEST_F(DistEnvTest, ReadsTheLaunchersVariables) {
  setenv("RANK", "3", 1);
  setenv("WORLD_SIZE", "4", 1);
  setenv("MASTER_ADDR", "10.0.0.1", 1);
  setenv("MASTER_PORT", "7000", 1);
  setenv("OCRFORGE_NODE_IP", "10.0.0.2", 1);
  setenv("OCRFORGE_DIST_TIMEOUT", "10", 1);
  setenv("PADDLE_TRAINER_ENDPOINTS", "10.0.0.1:7000,10.0.0.1:7001,10.0.0.2:7000,10.0.0.2:7001", 1);
  const DistEnv e = dist_env_from_environment();
  EXPECT_TRUE(e.distributed());
  EXPECT_EQ(e.rank, 3);
  EXPECT_EQ(e.master_addr, "10.0.0.1");
  EXPECT_EQ(e.master_port, 7000);
  EXPECT_EQ(e.node_ip, "10.0.0.2");
  EXPECT_EQ(e.timeout_s, 10);
  EXPECT_EQ(e.describe_rank(2), "rank 2 (node 10.0.0.2)");
}

TEST_F(DistEnvTest, FallsBackToPaddleAndSlurmNames) {
  setenv("PADDLE_TRAINER_ID", "1", 1);
  setenv("PADDLE_TRAINERS_NUM", "2", 1);
  setenv("PADDLE_CURRENT_ENDPOINT", "10.0.0.9:6070", 1);
  setenv("FLAGS_START_PORT", "6170", 1);
  DistEnv e = dist_env_from_environment();
  EXPECT_EQ(e.rank, 1);
  EXPECT_EQ(e.world_size, 2);
  EXPECT_EQ(e.node_ip, "10.0.0.9");
  EXPECT_EQ(e.master_port, 6170);
  SetUp();
  setenv("SLURM_PROCID", "0", 1);
  setenv("SLURM_NTASKS", "8", 1);  // an sbatch script outside srun: one process
  EXPECT_FALSE(dist_env_from_environment().distributed());
  setenv("SLURM_PROCID", "5", 1);
  setenv("SLURM_STEP_NUM_TASKS", "8", 1);  // inside srun
  e = dist_env_from_environment();
  EXPECT_EQ(e.rank, 5);
  EXPECT_EQ(e.world_size, 8);
}

TEST_F(DistEnvTest, RejectsMalformedValues) {
  setenv("WORLD_SIZE", "2", 1);
  setenv("RANK", "two", 1);
  EXPECT_THROW(dist_env_from_environment(), UsageError);
  setenv("RANK", "2", 1);
  EXPECT_THROW(dist_env_from_environment(), UsageError);
  setenv("RANK", "1", 1);
  setenv("MASTER_PORT", "70000", 1);
  EXPECT_THROW(dist_env_from_environment(), UsageError);
}

TEST_F(DistEnvTest, PicksTheLocalRanksGpuWhenSeveralAreVisible) {
  setenv("RANK", "3", 1);
  setenv("WORLD_SIZE", "4", 1);
  setenv("LOCAL_RANK", "3", 1);
  EXPECT_EQ(cuda_device_index(1), 0);  // `launch --gpus`: CUDA_VISIBLE_DEVICES holds its one GPU
  EXPECT_EQ(cuda_device_index(4), 3);  // torchrun / Slurm: every GPU visible
  EXPECT_EQ(cuda_device_index(2), 1);
}

}  // namespace
}  // namespace ocrforge
