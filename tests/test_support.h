// Paths and helpers shared by the tests. OCRFORGE_SOURCE_DIR and
// OCRFORGE_BINARY_DIR come from cmake/OcrforgeTest.cmake.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ocrforge/core/config_reads.h"
#include "ocrforge/core/error.h"

namespace ocrforge::test {

inline std::string source_dir() { return OCRFORGE_SOURCE_DIR; }
inline std::string data_dir() { return source_dir() + "/tests/data"; }
inline std::string model_root() { return source_dir() + "/models/PP-OCRv4"; }
inline std::string binary() { return std::string(OCRFORGE_BINARY_DIR) + "/ocrforge"; }

// A fresh empty folder under the test temp dir, unique per test and process.
inline std::string fresh_dir(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(::testing::TempDir()) / ("ocrforge_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

// The message of the exception of type E (Error, UsageError, ...) that `f`
// throws; "" when `f` returns normally. Another exception propagates, so the
// test fails with it.
template <typename E, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// The message of the UsageError a config reader throws while reading `node`
// (found at config path `path`, e.g. "Architecture"), or, when it reads
// cleanly, of the keys of `node` it did not read (core/config_reads.h: what a
// run reports once its whole config is read); "" when neither.
template <typename F>
std::string read_error(const YAML::Node& node, const std::string& path, F&& read) {
  ocrforge::ConfigReads reads;
  try {
    ocrforge::ConfigReadScope scope(reads);
    read();
  } catch (const ocrforge::UsageError& e) {
    return e.what();
  }
  return message_of<ocrforge::UsageError>([&] { reads.throw_if_unknown(node, "", path); });
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs a shell command, capturing stdout and stderr separately.
inline CommandResult run_command(const std::string& cmd, const std::string& scratch) {
  const std::string out = scratch + "/stdout.txt", err = scratch + "/stderr.txt";
  const int status = std::system((cmd + " >" + out + " 2>" + err).c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

}  // namespace ocrforge::test

namespace ocrforge::test {
// The team's larger data set beside the checkout (../shared/data); "" when
// absent, e.g. on a user's clone: tests that need it skip.
inline std::string shared_data_dir() {
  const std::string p = source_dir() + "/../shared/data";
  return std::filesystem::exists(p) ? p : "";
}
}  // namespace ocrforge::test
