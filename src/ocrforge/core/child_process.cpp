#include "ocrforge/core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "ocrforge/core/error.h"

extern char** environ;

namespace ocrforge {

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) ::close(f);
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const std::string& install_hint, size_t max_out_bytes) {
  if (argv.empty()) throw Error("run_child: no program given");
  Pipe out, err;
  if (::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0)
    throw Error("cannot start '" + argv[0] + "': " + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    if (rc == ENOENT)
      throw Error("'" + argv[0] + "' was not found on PATH: " + install_hint);
    throw Error("cannot start '" + argv[0] + "': " + std::strerror(rc));
  }
  out.close_end(1);
  err.close_end(1);

  ChildResult result;
  bool too_much = false;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  char buf[1 << 16];
  int open = 2;
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof(buf));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open;
        continue;
      }
      if (i == 0) {
        if (result.out.size() + static_cast<size_t>(n) > max_out_bytes) {
          too_much = true;
          ::kill(pid, SIGKILL);
          fds[0].fd = -1;
          --open;
          continue;
        }
        result.out.append(buf, static_cast<size_t>(n));
      } else if (result.err.size() < 65536) {
        result.err.append(buf, static_cast<size_t>(n));
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (too_much)
    throw Error("'" + argv[0] + "' wrote more than " + std::to_string(max_out_bytes >> 20) + " MiB; stopped it");
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
  return result;
}

}  // namespace ocrforge
