// `ocrforge launch` planning (train/dist/launch_plan.h): flags, node identity, ranks, ports and the
// environment each worker gets (no processes started).
#include "ocrforge/train/dist/launch_plan.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>

#include "ocrforge/core/error.h"

using namespace ocrforge;

namespace {

std::map<std::string, std::string> env_of(const WorkerSpec& w) { return {w.env.begin(), w.env.end()}; }

LaunchPlan plan(const LaunchArgs& args, const std::vector<std::string>& local = {"127.0.0.1", "10.0.0.2"}, int cores = 8,
                const char* start_port = nullptr) {
  return plan_launch(parse_launch_args(args), local, cores, start_port);
}

}  // namespace

TEST(LaunchPlan, TwoNodesTwoWorkersEach) {
  const auto p =
      plan({"--ips=10.0.0.1,10.0.0.2", "--nproc_per_node=2", "--master_port", "7000", "train", "-c", "x.yml"});
  EXPECT_EQ(p.node_ip, "10.0.0.2");  // the one local address in --ips
  EXPECT_EQ(p.node_index, 1);
  EXPECT_EQ(p.world_size, 4);
  ASSERT_EQ(p.workers.size(), 2u);
  const auto e = env_of(p.workers[1]);
  EXPECT_EQ(e.at("RANK"), "3");
  EXPECT_EQ(e.at("LOCAL_RANK"), "1");
  EXPECT_EQ(e.at("WORLD_SIZE"), "4");
  EXPECT_EQ(e.at("MASTER_ADDR"), "10.0.0.1");
  EXPECT_EQ(e.at("MASTER_PORT"), "7000");
  EXPECT_EQ(e.at("PADDLE_TRAINER_ID"), "3");
  EXPECT_EQ(e.at("PADDLE_TRAINERS_NUM"), "4");
  EXPECT_EQ(e.at("PADDLE_CURRENT_ENDPOINT"), "10.0.0.2:7001");
  EXPECT_EQ(e.at("PADDLE_TRAINER_ENDPOINTS"), "10.0.0.1:7000,10.0.0.1:7001,10.0.0.2:7000,10.0.0.2:7001");
  EXPECT_EQ(e.at("OCRFORGE_NUM_THREADS"), "4");  // 8 cores / 2 workers
  EXPECT_EQ(p.workers[1].log_path, "log/workerlog.1");
}

TEST(LaunchPlan, PortFromFlagThenFlagsStartPortThenDefault) {
  EXPECT_EQ(plan({"--master_port=7100", "train"}, {}, 2, "7200").master_port, 7100);
  const auto p = plan({"train"}, {}, 2, "7200");
  EXPECT_EQ(p.master_port, 7200);
  EXPECT_EQ(p.port_source, "FLAGS_START_PORT");
  EXPECT_EQ(plan({"train"}, {}, 2, nullptr).master_port, kDefaultLaunchPort);
}

TEST(LaunchPlan, NodeIdentityErrorsAreClear) {
  try {
    plan({"--ips=10.0.0.7,10.0.0.8", "train"});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("none of --ips (10.0.0.7, 10.0.0.8) is an address of this machine"),
              std::string::npos)
        << e.what();
  }
  try {
    plan({"--ips=127.0.0.1,10.0.0.2", "train"});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("several of --ips are addresses of this machine (127.0.0.1, 10.0.0.2)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(plan({"--ips=127.0.0.1,10.0.0.2", "--node_ip=127.0.0.1", "train"}).node_index, 0);
  EXPECT_THROW(plan({"--ips=127.0.0.1,10.0.0.2", "--node_ip=10.9.9.9", "train"}), UsageError);
}

TEST(LaunchPlan, GpusGiveOneWorkerPerDeviceEach) {
  const auto p = plan({"--gpus=2,3", "train"});
  ASSERT_EQ(p.workers.size(), 2u);
  EXPECT_EQ(env_of(p.workers[1]).at("CUDA_VISIBLE_DEVICES"), "3");
  EXPECT_EQ(env_of(p.workers[1]).count("OCRFORGE_NUM_THREADS"), 0u);
}

TEST(LaunchPlan, ThreadsSplitNeverBelowOne) {
  EXPECT_EQ(env_of(plan({"--nproc_per_node=4", "train"}, {}, 2).workers[0]).at("OCRFORGE_NUM_THREADS"), "1");
  EXPECT_EQ(env_of(plan({"--nproc_per_node=2", "train"}, {}, 2).workers[0]).at("OCRFORGE_NUM_THREADS"), "1");
  EXPECT_EQ(env_of(plan({"train"}, {}, 2).workers[0]).at("OCRFORGE_NUM_THREADS"), "2");
}

TEST(LaunchArgs, RejectsMistakes) {
  EXPECT_THROW(parse_launch_args({"--nproc=2", "train"}), UsageError);  // did you mean --nproc_per_node?
  EXPECT_THROW(parse_launch_args({"--nproc_per_node=2"}), UsageError);  // nothing to launch
  EXPECT_THROW(parse_launch_args({"ocr", "--image_dir", "x"}), UsageError);
  EXPECT_THROW(parse_launch_args({"--gpus=0,1", "--nproc_per_node=3", "train"}), UsageError);
  EXPECT_THROW(parse_launch_args({"--timeout=0", "train"}), UsageError);
  EXPECT_THROW(parse_launch_args({"--nproc_per_node=0", "train"}), UsageError);  // ran 1 worker before
  EXPECT_THROW(parse_launch_args({"--nproc_per_node", "-3", "train"}), UsageError);
  EXPECT_THROW(plan({"--ips=127.0.0.1,127.0.0.1", "train"}), UsageError);  // one entry per node
  const auto o = parse_launch_args({"--log_dir", "L", "train", "-c", "x.yml", "-o", "Global.epoch_num=1"});
  EXPECT_EQ(o.log_dir, "L");
  EXPECT_EQ(o.command, (LaunchArgs{"train", "-c", "x.yml", "-o", "Global.epoch_num=1"}));
}

TEST(LaunchPlan, PortInUseSeesAListener) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ASSERT_EQ(listen(fd, 1), 0);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  EXPECT_TRUE(port_in_use(port));
  close(fd);
  EXPECT_FALSE(port_in_use(port));
}
