#include "run_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <vector>

#include "ocrforge/core/error.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/process_info.h"

namespace ocrforge {

int run_command(const std::string& cmd, int (*fn)(const Args&), const Args& args) {
  try {
    return fn(args);
  } catch (const UsageError& e) {
    std::cerr << "ocrforge " << cmd << ": " << printable(e.what(), true) << "\n";
    return 2;
  } catch (const Error& e) {
    std::cerr << "ocrforge " << cmd << ": error: " << printable(e.what(), true) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ocrforge " << cmd << ": internal error: " << printable(e.what(), true) << "\n";
    return 1;
  }
}

int exec_train_binary(const std::string& cmd, const Args& args) {
  const std::string exe = executable_path();
  const std::string path = exe.substr(0, exe.find_last_of('/') + 1) + "ocrforge-train";
  std::vector<char*> argv{const_cast<char*>(path.c_str()), const_cast<char*>(cmd.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  execv(path.c_str(), argv.data());
  std::cerr << "ocrforge " << cmd << ": error: cannot run " << path << " (" << std::strerror(errno)
            << "): the LibTorch commands (train, eval, export, check, infer on a checkpoint) are in "
               "ocrforge-train, which is not built or not installed next to ocrforge: build it (make build, or "
               "cmake --build build --target ocrforge-train) or install both (make install)\n";
  return 1;
}

}  // namespace ocrforge
