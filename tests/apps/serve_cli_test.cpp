// `ocrforge serve` as a process: refusals at start, and SIGTERM draining
// the requests in progress before exiting 0.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>

#include "ocrforge/core/tcp_port.h"
#include "ocrforge/serve/base64.h"
#include "test_support.h"

using namespace ocrforge;
using namespace std::chrono_literals;

// Starts `ocrforge serve ARGS` with stdout / stderr in files under `dir`.
static pid_t spawn_serve(const std::vector<std::string>& args, const std::string& dir) {
  const pid_t pid = fork();
  if (pid == 0) {
    freopen((dir + "/stdout.txt").c_str(), "w", stdout);
    freopen((dir + "/stderr.txt").c_str(), "w", stderr);
    std::vector<std::string> all = {test::binary(), "serve"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

static int wait_exit(pid_t pid, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (std::chrono::steady_clock::now() < until) {
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(20ms);
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

TEST(ServeCli, SigtermAnswersRequestsInProgressAndExitsZero) {
  const std::string dir = test::fresh_dir("serve_sigterm");
  const int port = free_loopback_port();
  const pid_t pid = spawn_serve({"--port", std::to_string(port), "--cpu_threads", "1", "--rec_workers", "1",
                                 "--access_log", dir + "/access.log"},
                                dir);
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(60s);
  bool ready = false;
  for (int i = 0; i < 600 && !ready; ++i) {
    auto r = c.Get("/ready");
    ready = r && r->status == 200;
    if (!ready) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(ready) << test::read_text(dir + "/stderr.txt");
  // Two whole pages in one PaddleHub request: seconds of OCR on one thread.
  const std::string page = base64_encode(test::read_text(test::data_dir() + "/samples/imgs_11.jpg"));
  const std::string body = "{\"images\": [\"" + page + "\", \"" + page + "\"]}";
  auto reply = std::async(std::launch::async, [port, &body] {
    httplib::Client slow("127.0.0.1", port);
    slow.set_read_timeout(60s);
    auto r = slow.Post("/predict/ocr_system", body, "application/json");
    return r ? r->status : -1;
  });
  std::this_thread::sleep_for(150ms);  // the request is being read
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  EXPECT_EQ(reply.get(), 200) << "the request in progress must be answered";
  EXPECT_EQ(wait_exit(pid, 60s), 0) << test::read_text(dir + "/stderr.txt");
  const std::string err = test::read_text(dir + "/stderr.txt");
  EXPECT_NE(err.find("SIGTERM"), std::string::npos) << err;
  EXPECT_NE(test::read_text(dir + "/access.log").find("\"status\":200"), std::string::npos);
  httplib::Client after("127.0.0.1", port);
  after.set_connection_timeout(500ms);
  EXPECT_FALSE(after.Get("/health")) << "nothing listens after the drain";
}

TEST(ServeCli, PublicAddressWithoutKeysIsRefusedAtStart) {
  const std::string dir = test::fresh_dir("serve_public");
  auto r = test::run_command(test::binary() + " serve --host 0.0.0.0 --port 0", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--api_keys_file"), std::string::npos) << r.err;
}

TEST(ServeCli, BusyPortAndOcrOnlyFlagsAreClearErrors) {
  const std::string dir = test::fresh_dir("serve_busy");
  httplib::Server holder;
  const int port = holder.bind_to_any_port("127.0.0.1");
  auto busy = test::run_command(test::binary() + " serve --port " + std::to_string(port), dir);
  EXPECT_EQ(busy.exit_code, 1);
  EXPECT_NE(busy.err.find(std::to_string(port)), std::string::npos) << busy.err;
  EXPECT_NE(busy.err.find("in use"), std::string::npos) << busy.err;
  auto flag = test::run_command(test::binary() + " serve --image_dir x.jpg", dir);
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_NE(flag.err.find("--image_dir"), std::string::npos) << flag.err;
  test::write_text(dir + "/keys.txt", "short\n");
  auto keys = test::run_command(test::binary() + " serve --api_keys_file " + dir + "/keys.txt", dir);
  EXPECT_EQ(keys.exit_code, 2);
  EXPECT_NE(keys.err.find("keys.txt"), std::string::npos) << keys.err;
  // The document flags (serve_options.h) are the server's, range-checked.
  auto help = test::run_command(test::binary() + " serve --help", dir);
  EXPECT_NE(help.out.find("--max_num_input_imgs"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--pdf_dpi"), std::string::npos) << help.out;
  auto pages = test::run_command(test::binary() + " serve --max_num_input_imgs -1", dir);
  EXPECT_EQ(pages.exit_code, 2);
  EXPECT_NE(pages.err.find("--max_num_input_imgs=-1 is out of range"), std::string::npos) << pages.err;
  auto dpi = test::run_command(test::binary() + " serve --pdf_dpi 5", dir);
  EXPECT_EQ(dpi.exit_code, 2);
  EXPECT_NE(dpi.err.find("--pdf_dpi must be 0"), std::string::npos) << dpi.err;
}
