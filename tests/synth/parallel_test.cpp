// Tests for the worker pool (ocrforge/synth/parallel.h).
#include "ocrforge/synth/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ocrforge;

TEST(SynthParallel, EveryIndexExactlyOnce) {
  for (int workers : {1, 3, 8}) {
    std::vector<std::atomic<int>> hits(200);
    std::vector<std::atomic<int>> by_worker(8);
    run_parallel(200, workers, [&](long i, int w) {
      hits[static_cast<size_t>(i)]++;
      by_worker[static_cast<size_t>(w)]++;
    });
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
    for (int w = workers; w < 8; ++w) EXPECT_EQ(by_worker[static_cast<size_t>(w)].load(), 0);
  }
}

TEST(SynthParallel, ReportsTheLowestFailingIndex) {
  for (int workers : {1, 4}) {
    try {
      run_parallel(100, workers, [](long i, int) {
        if (i == 17 || i == 60) throw std::runtime_error("sample " + std::to_string(i));
      });
      FAIL();
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "sample 17");
    }
  }
}

TEST(SynthParallel, WorkerCount) {
  EXPECT_EQ(effective_workers(3, 2), 2);
  EXPECT_EQ(effective_workers(3, 100), 3);
  EXPECT_GE(effective_workers(0, 100), 1);
  run_parallel(0, 4, [](long, int) { FAIL(); });
}
