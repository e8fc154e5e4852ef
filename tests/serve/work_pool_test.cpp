#include "ocrforge/serve/work_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

using namespace ocrforge;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Holds a worker until released, so tests decide when work finishes.
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
};

TEST(WorkPool, RunsTasksAndReportsThemDone) {
  WorkPool pool(2, 4);
  std::atomic<int> ran{0};
  auto a = pool.submit([&] { ++ran; });
  auto b = pool.submit([&] { ++ran; });
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(a->wait_until(Clock::now() + 5s));
  EXPECT_TRUE(b->wait_until(Clock::now() + 5s));
  EXPECT_EQ(ran, 2);
}

TEST(WorkPool, RefusesWhenWorkersAndQueueAreFull) {
  WorkPool pool(1, 1);
  Gate gate;
  auto busy = pool.submit([&] { gate.opened.wait(); });
  while (pool.running() == 0) std::this_thread::sleep_for(1ms);
  auto waiting = pool.submit([] {});
  ASSERT_TRUE(busy && waiting);
  EXPECT_EQ(pool.queued(), 1u);
  EXPECT_FALSE(pool.submit([] {})) << "one running and one waiting: the next is refused";
  gate.open.set_value();
  EXPECT_TRUE(waiting->wait_until(Clock::now() + 5s));
  EXPECT_TRUE(pool.submit([] {})) << "room again";
}

TEST(WorkPool, QueueOfZeroStillUsesIdleWorkers) {
  WorkPool pool(1, 0);
  Gate gate;
  auto first = pool.submit([&] { gate.opened.wait(); });
  ASSERT_TRUE(first);
  while (pool.running() == 0) std::this_thread::sleep_for(1ms);
  EXPECT_FALSE(pool.submit([] {}));
  gate.open.set_value();
  EXPECT_TRUE(first->wait_until(Clock::now() + 5s));
}

TEST(WorkPool, CancelledTaskNeverRuns) {
  WorkPool pool(1, 2);
  Gate gate;
  std::atomic<bool> ran{false};
  auto busy = pool.submit([&] { gate.opened.wait(); });
  auto later = pool.submit([&] { ran = true; });
  EXPECT_FALSE(later->wait_until(Clock::now() + 20ms));  // a timed-out caller...
  EXPECT_TRUE(later->cancel());                          // ...gives it up before it starts
  gate.open.set_value();
  EXPECT_TRUE(busy->wait_until(Clock::now() + 5s));
  pool.submit([] {})->wait_until(Clock::now() + 5s);  // the worker has passed the cancelled one
  EXPECT_FALSE(ran);
  EXPECT_FALSE(busy->cancel()) << "a task that ran cannot be cancelled";
}

TEST(WorkPool, DestructorFinishesQueuedWork) {
  std::atomic<int> ran{0};
  {
    WorkPool pool(1, 8);
    for (int i = 0; i < 5; ++i) pool.submit([&] {
      std::this_thread::sleep_for(2ms);
      ++ran;
    });
  }
  EXPECT_EQ(ran, 5);
}
