#include "ocrforge/tipc/tipc_run.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// Runs binary + argv with stdout and stderr to `log`; returns the wait status.
int run_child(const std::string& binary, const std::vector<std::string>& argv, const std::string& log) {
  std::error_code ec;
  if (fs::path(log).has_parent_path()) fs::create_directories(fs::path(log).parent_path(), ec);
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("TIPC: cannot write the stage log '" + log + "': " + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd);
    throw Error("TIPC: fork: " + std::string(std::strerror(errno)));
  }
  if (pid == 0) {
    dup2(fd, STDOUT_FILENO), dup2(fd, STDERR_FILENO);
    std::vector<char*> args{const_cast<char*>(binary.c_str())};
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(binary.c_str(), args.data());
    std::fprintf(stderr, "ocrforge tipc: cannot run %s: %s\n", binary.c_str(), std::strerror(errno));
    _exit(127);
  }
  close(fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

std::string seconds_text(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << s;
  return o.str();
}

}  // namespace

TipcRunReport run_tipc(const TipcPlan& plan, const std::string& binary, std::ostream& out,
                       const std::string& frame_version) {
  TipcRunReport r;
  std::error_code ec;
  fs::create_directories(plan.log_dir, ec);
  if (ec) throw Error("TIPC: cannot create '" + plan.log_dir + "': " + ec.message());
  r.results_log = plan.log_dir + "/results_python.log";
  r.summary_md = plan.log_dir + "/summary.md";
  std::ofstream status(r.results_log, std::ios::app);
  if (!status) throw Error("TIPC: cannot write '" + r.results_log + "'");
  const auto line = [&](const std::string& text) {
    status << text << "\n";
    status.flush();
    out << text << "\n";
    out.flush();
  };

  for (const TipcStage& s : plan.stages) {
    TipcStageResult res;
    res.kind = s.kind;
    res.log_path = s.log_path;
    if (!s.skip_reason.empty()) {
      res.status = "skipped: " + s.skip_reason;
      line("Skipped - " + plan.model_name + " - " + s.kind + " - " + s.skip_reason);
      r.stages.push_back(res);
      continue;
    }
    for (const auto& n : s.not_applied) line("Not applied - " + plan.model_name + " - " + s.kind + " - " + n);
    std::string command = binary;
    for (const auto& a : s.argv) command += " " + a;
    command += " > " + s.log_path + " 2>&1";
    const auto start = std::chrono::steady_clock::now();
    const int code = exit_code(run_child(binary, s.argv, s.log_path));
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string analysis_error;
    if (code == 0 && s.benchmark.active()) {
      try {
        std::ifstream in(s.log_path);
        std::ostringstream text;
        text << in.rdbuf();
        const std::string json =
            benchmark_json(s.benchmark, read_train_log_speed(text.str()), s.log_path, res.seconds, frame_version);
        if (fs::path(s.benchmark.speed_file).has_parent_path())
          fs::create_directories(fs::path(s.benchmark.speed_file).parent_path());
        write_file_atomic(s.benchmark.speed_file, json + "\n");
        r.benchmark_json.push_back(json);
      } catch (const std::exception& e) {
        analysis_error = e.what();
      }
    }
    if (code == 0 && analysis_error.empty()) {
      res.status = "ok";
      line("Run successfully with command - " + plan.model_name + " - " + command + " - " + s.log_path);
      if (s.benchmark.active()) out << r.benchmark_json.back() << "\n";
    } else if (code == 0) {
      res.status = "failed (benchmark analysis)";
      ++r.failed;
      line("Run failed with command - " + plan.model_name + " - " + command + " - " + s.log_path + " - " + analysis_error);
    } else {
      res.status = "failed (exit code " + std::to_string(code) + ")";
      ++r.failed;
      line("Run failed with command - " + plan.model_name + " - " + command + " - " + s.log_path +
           " - exit code " + std::to_string(code));
    }
    r.stages.push_back(res);
  }

  std::ostringstream md;
  md << "# TIPC " << plan.model_name << " " << plan.mode << "\n\n| stage | status | seconds | log |\n|---|---|--:|---|\n";
  for (const auto& s : r.stages)
    md << "| " << s.kind << " | " << s.status << " | " << (s.status.rfind("skipped", 0) == 0 ? "" : seconds_text(s.seconds))
       << " | " << s.log_path << " |\n";
  md << "\n" << r.stages.size() << " stages, " << r.failed << " failed; status lines in " << r.results_log << "\n";
  write_file_atomic(r.summary_md, md.str());
  out << "\n" << md.str();
  return r;
}

}  // namespace ocrforge
