// The launch supervisor (launch_supervisor.h).
#include "ocrforge/train/dist/launch_supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

constexpr int kFailureGraceS = 10;    // a failed run: peers may be stuck in a collective
constexpr int kSignalGraceS = 60;     // a requested stop: let workers finish the step and save
constexpr int kReportDelayMs = 1000;  // collect simultaneous failures before naming the cause

std::atomic<int> g_signal{0};
int g_wake_fd = -1;  // self-pipe: the handler wakes poll()
extern "C" void launch_on_signal(int sig) {
  g_signal.store(sig);
  const char c = 1;
  if (g_wake_fd >= 0) (void)!write(g_wake_fd, &c, 1);
}

struct Worker {
  WorkerSpec spec;
  pid_t pid = -1;
  int tail_fd = -1, log_fd = -1;  // tail_fd: local rank 0's log, copied to our stdout as it grows
  bool running = false;
  int status = 0;
};

void spawn(Worker& w, const LaunchArgs& command) {
  w.log_fd = open(w.spec.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (w.log_fd < 0) throw Error("cannot write " + w.spec.log_path + ": " + std::strerror(errno));
  if (w.spec.local_rank == 0) w.tail_fd = open(w.spec.log_path.c_str(), O_RDONLY | O_CLOEXEC);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw Error("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    setpgid(0, 0);                     // own group: a terminal's Ctrl-C reaches the launcher only
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // launcher killed -> workers stop too
    if (getppid() != parent) _exit(1);
    signal(SIGINT, SIG_DFL), signal(SIGTERM, SIG_DFL), signal(SIGHUP, SIG_DFL), signal(SIGPIPE, SIG_DFL);
    for (const auto& [k, v] : w.spec.env) setenv(k.c_str(), v.c_str(), 1);
    dup2(w.log_fd, STDOUT_FILENO), dup2(w.log_fd, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>("ocrforge")};
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    std::fprintf(stderr, "ocrforge launch: cannot run /proc/self/exe: %s\n", std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also here: no race with the first kill()
  w.pid = pid;
  w.running = true;
}

// Copies what local rank 0 added to its log since the last call to our stdout.
void pump(Worker& w) {
  char buf[8192];
  ssize_t n;
  while (w.tail_fd >= 0 && (n = read(w.tail_fd, buf, sizeof(buf))) > 0) std::cout.write(buf, n);
  std::cout.flush();
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with code " + std::to_string(WEXITSTATUS(status));
}

std::string log_tail(const std::string& path, size_t lines) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
    std::fclose(f);
  }
  if (!text.empty() && text.back() != '\n') text += '\n';
  size_t pos = text.empty() ? 0 : text.size() - 1;  // the last newline
  for (size_t k = 0; k < lines && pos > 0; ++k) {
    const size_t p = text.rfind('\n', pos - 1);
    pos = p == std::string::npos ? 0 : p;
  }
  return text.substr(pos == 0 ? 0 : pos + 1);
}

// The peers of a dead worker fail too ("Connection reset by peer") and may be
// reaped first, so failures are collected for kReportDelayMs and a worker
// killed by a signal is named as the cause ahead of workers that exited 1.
void report_failures(const std::vector<const Worker*>& failures) {
  auto cause = std::find_if(failures.begin(), failures.end(), [](const Worker* w) { return WIFSIGNALED(w->status); });
  const Worker& w = cause != failures.end() ? **cause : *failures.front();
  std::cerr << "ocrforge launch: worker rank " << w.spec.rank << " (local rank " << w.spec.local_rank << ") "
            << describe_exit(w.status) << "; its log: " << w.spec.log_path << "\n--- last lines ---\n"
            << log_tail(w.spec.log_path, 12) << "---" << std::endl;
  for (const Worker* o : failures)
    if (o != &w)
      std::cerr << "ocrforge launch: also worker rank " << o->spec.rank << " " << describe_exit(o->status)
                << "; its log: " << o->spec.log_path << std::endl;
  std::cerr << "ocrforge launch: stopping the other workers" << std::endl;
}

}  // namespace

int supervise_workers(const LaunchPlan& plan, const LaunchArgs& command) {
  int wake[2];
  if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) throw Error("pipe: " + std::string(std::strerror(errno)));
  g_wake_fd = wake[1];
  struct sigaction sa {};
  sa.sa_handler = launch_on_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::vector<Worker> workers;
  for (const auto& spec : plan.workers) workers.push_back(Worker{spec});
  for (auto& w : workers) {
    spawn(w, command);
    std::cout << "ocrforge launch: rank " << w.spec.rank << " pid " << w.pid << " log " << w.spec.log_path << std::endl;
  }

  using Clock = std::chrono::steady_clock;
  int exit_code = 0, forwarded = 0;
  Clock::time_point kill_at = Clock::time_point::max(), report_at = Clock::time_point::max();
  std::vector<const Worker*> failures;  // in the order they were seen
  auto stop_all = [&](int sig, int grace_s) {
    for (auto& w : workers)
      if (w.running) kill(-w.pid, sig);
    kill_at = std::min(kill_at, Clock::now() + std::chrono::seconds(grace_s));
  };
  for (;;) {
    pollfd wake_fd{wake[0], POLLIN, 0};
    poll(&wake_fd, 1, 200);
    for (char drain[64]; read(wake[0], drain, sizeof(drain)) > 0;) continue;
    for (auto& w : workers) pump(w);
    if (const int sig = g_signal.exchange(0)) {
      if (forwarded) {  // a second Ctrl-C: no more waiting
        stop_all(SIGKILL, 0);
      } else {
        std::cerr << "ocrforge launch: " << strsignal(sig) << ": stopping the workers (they save `latest` first)"
                  << std::endl;
        stop_all(sig, kSignalGraceS);
        forwarded = sig;
        if (exit_code == 0) exit_code = 128 + sig;
      }
    }
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      for (auto& w : workers) {
        if (w.pid != pid) continue;
        w.running = false;
        w.status = status;
        const bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        if (failed && exit_code == 0 && (code == 128 + SIGINT || code == 128 + SIGTERM)) {
          // All ranks stop together when any node is interrupted: not a failure here.
          std::cerr << "ocrforge launch: worker rank " << w.spec.rank << " stopped on a stop signal (exit " << code
                    << "; the run stops on every node when one is interrupted); its log: " << w.spec.log_path
                    << std::endl;
          exit_code = code;
          stop_all(SIGTERM, kSignalGraceS);
        } else if (failed && exit_code == 0) {
          failures.push_back(&w);
          report_at = std::min(report_at, Clock::now() + std::chrono::milliseconds(kReportDelayMs));
        }
      }
    }
    const bool any_running = std::any_of(workers.begin(), workers.end(), [](const Worker& w) { return w.running; });
    if (!failures.empty() && exit_code == 0 && (Clock::now() >= report_at || !any_running)) {
      report_failures(failures);
      exit_code = 1;
      stop_all(SIGTERM, kFailureGraceS);
    }
    if (Clock::now() >= kill_at) {
      for (auto& w : workers)
        if (w.running) {
          std::cerr << "ocrforge launch: worker rank " << w.spec.rank << " did not stop in time: killing it"
                    << std::endl;
          kill(-w.pid, SIGKILL);
        }
      kill_at = Clock::time_point::max();
    }
    if (!any_running) break;
  }
  for (auto& w : workers) {
    pump(w);
    close(w.log_fd);
    if (w.tail_fd >= 0) close(w.tail_fd);
  }
  if (exit_code == 0) std::cout << "ocrforge launch: all " << workers.size() << " worker(s) finished" << std::endl;
  return exit_code;
}

}  // namespace ocrforge
