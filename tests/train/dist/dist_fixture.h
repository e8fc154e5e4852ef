// Helpers for in-process distributed tests: each rank is a thread with its
// own TCPStore client and Gloo process group over 127.0.0.1 (Gloo and c10d
// keep no per-process state that would make threads differ from processes).
#pragma once
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "ocrforge/core/tcp_port.h"
#include "ocrforge/train/dist/dist_env.h"

namespace ocrforge::test {

inline DistEnv loopback_env(int rank, int world, int port, double timeout_s = 30) {
  DistEnv e;
  e.rank = rank;
  e.world_size = world;
  e.master_addr = e.node_ip = "127.0.0.1";
  e.master_port = port;
  e.timeout_s = timeout_s;
  return e;
}

// Runs fn(rank) for ranks 0..world-1 on their own threads; the error messages
// of the ranks that threw, indexed by rank ("" when it returned).
inline std::vector<std::string> run_ranks(int world, const std::function<void(int)>& fn) {
  std::vector<std::future<void>> futures;
  for (int r = 0; r < world; ++r) futures.push_back(std::async(std::launch::async, fn, r));
  std::vector<std::string> errors(static_cast<size_t>(world));
  for (int r = 0; r < world; ++r) {
    try {
      futures[static_cast<size_t>(r)].get();
    } catch (const std::exception& e) {
      errors[static_cast<size_t>(r)] = e.what();
    }
  }
  return errors;
}

}  // namespace ocrforge::test
