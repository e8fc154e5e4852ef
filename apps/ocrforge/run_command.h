// One subcommand run with the exit-code rule both binaries share (ocrforge,
// and ocrforge-train, which holds the LibTorch commands): 0 success, 1
// failure (some input failed or a fatal error), 2 bad usage.
#pragma once
#include <string>

#include "commands.h"

namespace ocrforge {

int run_command(const std::string& cmd, int (*fn)(const Args&), const Args& args);

// Replaces this process with ocrforge-train (next to this binary) running
// `cmd args`: the LibTorch half of ocrforge (train, eval, export, check, and
// infer on a training checkpoint). Returns only when that cannot run: 1,
// after an error naming the missing binary.
int exec_train_binary(const std::string& cmd, const Args& args);

}  // namespace ocrforge
