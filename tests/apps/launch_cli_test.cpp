// `ocrforge launch` end to end on one machine: two "nodes" (127.0.0.1 and
// 127.0.0.2, each its own launcher in its own working directory), and the
// failures: a worker killed mid-run, a node that never joins, a busy port,
// nodes started with different -o overrides, SIGTERM. Each must end within
// its bound with the documented message (docs/distributed.md).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "ocrforge/core/tcp_port.h"
#include "test_support.h"
#include "train/tasks/rec/trainer_fixture.h"

namespace fs = std::filesystem;
using namespace ocrforge;
using Clock = std::chrono::steady_clock;

namespace {

struct Launch {
  pid_t pid = -1;
  std::string dir;  // working directory: log/, output/, out.txt, err.txt
  std::string out() const { return test::read_text(dir + "/out.txt"); }
  std::string err() const { return test::read_text(dir + "/err.txt"); }
};

// Starts `ocrforge launch FLAGS train -c CFG -o Global.num_threads=1 OVERRIDES` in `dir`.
Launch start(const std::string& dir, const std::string& flags, const std::string& cfg,
             const std::string& overrides = "") {
  fs::create_directories(dir);
  Launch l;
  l.dir = dir;
  const std::string cmd = "cd " + dir + " && exec " + test::binary() + " launch " + flags + " train -c " + cfg +
                          " -o Global.num_threads=1 Global.save_model_dir=./output " + overrides +
                          " >out.txt 2>err.txt";
  l.pid = fork();
  if (l.pid == 0) {
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return l;
}

// Exit code (128 + signal if killed); -1 (and the launcher killed) after `limit_s`.
int wait_exit(const Launch& l, double limit_s, double* seconds = nullptr) {
  const auto t0 = Clock::now();
  for (;;) {
    int status = 0;
    if (waitpid(l.pid, &status, WNOHANG) == l.pid) {
      if (seconds) *seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (std::chrono::duration<double>(Clock::now() - t0).count() > limit_s) {
      kill(l.pid, SIGKILL);
      waitpid(l.pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

bool wait_for_text(const std::string& path, const std::string& text, double limit_s) {
  const auto t0 = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - t0).count() < limit_s) {
    if (test::read_text(path).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// A tiny task (16 crops, batch 4 per worker) and its config file.
std::string tiny_cfg(const std::string& name, int epochs) {
  const auto task = test::make_tiny_task(name, 16);
  const std::string cfg = task.dir + "/cfg.yml";
  test::write_text(cfg, test::tiny_config(task, epochs, 4));
  return cfg;
}

std::string two_nodes(int port, const std::string& me, int timeout_s = 60) {
  return "--ips=127.0.0.1,127.0.0.2 --node_ip=" + me + " --master_port=" + std::to_string(port) +
         " --timeout=" + std::to_string(timeout_s);
}

}  // namespace

TEST(LaunchCli, TwoNodesOnOneMachineTrainToTheEnd) {
  const std::string cfg = tiny_cfg("launch_2n", 2), root = test::fresh_dir("launch_2n_run");
  const int port = free_loopback_port();
  Launch a = start(root + "/a", two_nodes(port, "127.0.0.1"), cfg);
  Launch b = start(root + "/b", two_nodes(port, "127.0.0.2"), cfg);
  EXPECT_EQ(wait_exit(a, 180), 0) << a.out() << a.err();
  EXPECT_EQ(wait_exit(b, 60), 0) << b.out() << b.err();
  // Only rank 0's node saves and writes train.log; each node logs under its own log/.
  EXPECT_TRUE(fs::exists(root + "/a/output/latest.ckpt"));
  EXPECT_TRUE(fs::exists(root + "/a/output/train.log"));
  EXPECT_FALSE(fs::exists(root + "/b/output"));
  const std::string log_a = test::read_text(root + "/a/log/workerlog.0");
  EXPECT_NE(log_a.find("2 worker(s)"), std::string::npos) << log_a;
  EXPECT_NE(log_a.find("epoch: [2/2]"), std::string::npos) << log_a;
  EXPECT_NE(log_a.find("communication: "), std::string::npos) << log_a;  // share of step time in collectives
  EXPECT_NE(a.out().find("epoch: [2/2]"), std::string::npos);  // rank 0 streamed to the launcher
  EXPECT_NE(test::read_text(root + "/b/log/workerlog.0").find("rank 1 of 2 joined"), std::string::npos);
}

TEST(LaunchCli, AKilledWorkerStopsTheRunWithin30s) {
  const std::string cfg = tiny_cfg("launch_kill", 500), dir = test::fresh_dir("launch_kill_run");
  Launch l = start(dir, "--nproc_per_node=2 --master_port=" + std::to_string(free_loopback_port()), cfg);
  ASSERT_TRUE(wait_for_text(dir + "/out.txt", "global_step", 120)) << l.out() << l.err();
  const std::string out = l.out();
  const auto at = out.find("rank 1 pid ");
  ASSERT_NE(at, std::string::npos) << out;
  kill(std::stoi(out.substr(at + 11)), SIGKILL);
  double s = 0;
  EXPECT_EQ(wait_exit(l, 40, &s), 1);
  EXPECT_LT(s, 30);
  EXPECT_NE(l.err().find("worker rank 1 (local rank 1) was killed by signal 9; its log: log/workerlog.1"),
            std::string::npos)
      << l.err();
}

TEST(LaunchCli, ANodeThatNeverJoinsEndsTheRunAfterTimeout) {
  const std::string cfg = tiny_cfg("launch_alone", 1), dir = test::fresh_dir("launch_alone_run");
  const int port = free_loopback_port();
  double s = 0;
  Launch first = start(dir + "/a", two_nodes(port, "127.0.0.1", 10), cfg);
  EXPECT_EQ(wait_exit(first, 40, &s), 1);
  EXPECT_GE(s, 9);
  EXPECT_LT(s, 25);
  EXPECT_NE(first.err().find("rendezvous timed out after 10 s: 1 of 2 ranks never joined: rank 1 (node 127.0.0.2)"),
            std::string::npos)
      << first.err();
  // Only the second node: it cannot reach the store on the first.
  Launch second = start(dir + "/b", two_nodes(port, "127.0.0.2", 3), cfg);
  EXPECT_EQ(wait_exit(second, 30), 1);
  EXPECT_NE(second.err().find("could not reach the rendezvous store at 127.0.0.1:" + std::to_string(port)),
            std::string::npos)
      << second.err();
}

TEST(LaunchCli, ABusyPortIsNamed) {
  const std::string cfg = tiny_cfg("launch_busy", 1), dir = test::fresh_dir("launch_busy_run");
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  listen(fd, 1);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  double s = 0;
  Launch l = start(dir, "--nproc_per_node=2 --master_port=" + std::to_string(port), cfg);
  EXPECT_EQ(wait_exit(l, 30, &s), 1);
  close(fd);
  EXPECT_LT(s, 10);
  EXPECT_NE(l.err().find("port " + std::to_string(port) + " (rendezvous port, from --master_port) is already in use"),
            std::string::npos)
      << l.err();
  EXPECT_FALSE(fs::exists(dir + "/log/workerlog.0"));  // refused before starting workers
}

TEST(LaunchCli, NodesWithDifferentOverridesRefuseToTrain) {
  const std::string cfg = tiny_cfg("launch_diff", 1), root = test::fresh_dir("launch_diff_run");
  const int port = free_loopback_port();
  Launch a = start(root + "/a", two_nodes(port, "127.0.0.1"), cfg, "Global.epoch_num=1");
  Launch b = start(root + "/b", two_nodes(port, "127.0.0.2"), cfg, "Global.epoch_num=2");
  double sa = 0, sb = 0;
  EXPECT_EQ(wait_exit(a, 60, &sa), 1);
  EXPECT_EQ(wait_exit(b, 60, &sb), 1);
  EXPECT_LT(std::max(sa, sb), 30);
  for (const Launch* l : {&a, &b}) {
    const std::string err = l->err();
    EXPECT_NE(err.find("refusing to train"), std::string::npos) << err;
    EXPECT_NE(err.find("Global.epoch_num: 1 on rank 0, 2 on rank 1"), std::string::npos) << err;
    EXPECT_NE(err.find(" 127.0.0.2)"), std::string::npos) << err;  // the other node is named
  }
  EXPECT_FALSE(fs::exists(root + "/a/output/latest.ckpt"));
}

TEST(LaunchCli, SigtermStopsAllWorkersAndKeepsTheCheckpoint) {
  const std::string cfg = tiny_cfg("launch_term", 500), dir = test::fresh_dir("launch_term_run");
  Launch l = start(dir, "--nproc_per_node=2 --master_port=" + std::to_string(free_loopback_port()), cfg);
  ASSERT_TRUE(wait_for_text(dir + "/out.txt", "save model in", 120)) << l.out() << l.err();
  kill(l.pid, SIGTERM);
  double s = 0;
  EXPECT_EQ(wait_exit(l, 90, &s), 128 + SIGTERM) << l.err();
  EXPECT_NE(l.out().find("signal 15 received: saving latest and stopping"), std::string::npos) << l.out();
  // The saved checkpoint loads and evaluates.
  auto r = test::run_command("cd " + dir + " && " + test::binary() + " eval -c " + cfg +
                                 " -o Global.checkpoints=./output/latest Global.num_threads=1",
                             dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("acc: "), std::string::npos) << r.out;
}

TEST(LaunchCli, WorkersOfAKilledLauncherStopAndSave) {
  const std::string cfg = tiny_cfg("launch_orphan", 500), dir = test::fresh_dir("launch_orphan_run");
  Launch l = start(dir, "--nproc_per_node=2 --master_port=" + std::to_string(free_loopback_port()), cfg);
  ASSERT_TRUE(wait_for_text(dir + "/out.txt", "global_step", 120)) << l.out() << l.err();
  const std::string out = l.out();
  std::vector<pid_t> pids;
  for (size_t at = out.find(" pid "); at != std::string::npos; at = out.find(" pid ", at + 1))
    pids.push_back(std::stoi(out.substr(at + 5)));
  ASSERT_EQ(pids.size(), 2u) << out;
  kill(l.pid, SIGKILL);  // no chance to forward anything: the parent-death signal must do it
  wait_exit(l, 10);
  const auto t0 = Clock::now();
  auto alive = [&] { return kill(pids[0], 0) == 0 || kill(pids[1], 0) == 0; };
  while (alive() && std::chrono::duration<double>(Clock::now() - t0).count() < 30)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(alive());
  EXPECT_NE(test::read_text(dir + "/log/workerlog.0").find("signal 15 received: saving latest and stopping"),
            std::string::npos);
}

// A model fine-tuned from ONNX goes through the same launcher and gradient
// averaging as a native one: the shipped direction classifier, two workers,
// its crops made by `data cls`, then exported and run by `infer cls`.
TEST(LaunchCli, TwoWorkersFineTuneTheShippedClassifierAndExportIt) {
  const std::string dir = test::fresh_dir("launch_cls_run");
  auto r = test::run_command(test::binary() + " data cls --label " + test::data_dir() + "/rec_toy/rec_gt.txt --out " +
                                 dir + "/cls",
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string shipped = test::model_root() + "/cls/inference.onnx";
  const std::string data = "Train.dataset.data_dir=" + dir + "/cls Train.dataset.label_file_list=[" + dir +
                           "/cls/cls_gt.txt] Eval.dataset.data_dir=" + dir + "/cls Eval.dataset.label_file_list=[" +
                           dir + "/cls/cls_gt.txt] Architecture.onnx_model=" + shipped;
  Launch l = start(dir, "--nproc_per_node=2 --master_port=" + std::to_string(free_loopback_port()),
                   test::source_dir() + "/configs/cls/ch_ppocr_mobile_cls_finetune.yml",
                   data + " Global.epoch_num=2 Global.eval_batch_step=[0,1000] Train.loader.batch_size_per_card=4 "
                          "Train.loader.num_workers=0 Eval.loader.num_workers=0");
  ASSERT_EQ(wait_exit(l, 240), 0) << l.out() << l.err();
  const std::string log = test::read_text(dir + "/log/workerlog.0");
  EXPECT_NE(log.find("2 worker(s)"), std::string::npos) << log;
  EXPECT_NE(log.find("fine-tuning ONNX model"), std::string::npos) << log;
  EXPECT_NE(log.find("epoch: [2/2]"), std::string::npos) << log;  // 20 crops / (2 x 4): 2 steps per epoch
  ASSERT_TRUE(fs::exists(dir + "/output/latest.ckpt"));

  r = test::run_command("cd " + dir + " && " + test::binary() + " export -c " + test::source_dir() +
                            "/configs/cls/ch_ppocr_mobile_cls_finetune.yml -o Architecture.onnx_model=" + shipped +
                            " Global.pretrained_model=./output/latest Global.save_inference_dir=./inference",
                        dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Training moved the weights (the file is the shipped graph with new constants).
  EXPECT_NE(test::read_text(dir + "/inference/inference.onnx"), test::read_text(shipped));
  r = test::run_command(test::binary() + " infer cls --cls_model_dir " + dir + "/inference --image_dir " + dir +
                            "/cls/cls_img --cpu_threads 1",
                        dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Predicts of"), std::string::npos) << r.out;
}
