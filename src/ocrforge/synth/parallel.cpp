#include "ocrforge/synth/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ocrforge {

int effective_workers(int workers, long count) {
  long n = workers > 0 ? workers : static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
  n = std::min(n, std::max(1L, count));
  return static_cast<int>(n);
}

void run_parallel(long count, int workers, const std::function<void(long index, int worker)>& fn) {
  if (count <= 0) return;
  const int n = effective_workers(workers, count);
  std::atomic<long> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  long error_index = -1;
  std::exception_ptr error;

  auto work = [&](int worker) {
    for (;;) {
      if (failed.load()) return;
      const long i = next.fetch_add(1);
      if (i >= count) return;
      try {
        fn(i, worker);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (error_index < 0 || i < error_index) {
          error_index = i;
          error = std::current_exception();
        }
        failed.store(true);
      }
    }
  };
  if (n == 1) {
    work(0);
  } else {
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(n));
    for (int w = 0; w < n; ++w) threads.emplace_back(work, w);
    for (auto& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace ocrforge
