// A fixed number of worker threads fed by a bounded queue: how `ocrforge
// serve` limits the OCR runs at once (--max_concurrency) and the requests
// waiting for one (--queue_size). A full queue refuses at once (the caller
// answers 503), and a task whose caller gave up before it started is
// skipped, so a timed-out request costs no OCR time.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ocrforge {

class WorkPool {
 public:
  // What became of one submitted task, shared by the pool and the caller.
  class Ticket {
   public:
    // Waits until the task has run (true) or `deadline` passed (false).
    bool wait_until(std::chrono::steady_clock::time_point deadline);
    // Gives the task up: true when it had not started (it never will);
    // false when it is running or done (it finishes; its result is unused).
    bool cancel();

   private:
    friend class WorkPool;
    enum class State { Queued, Running, Done, Cancelled };
    std::mutex mutex_;
    std::condition_variable done_;
    State state_ = State::Queued;
  };

  WorkPool(int workers, size_t queue_capacity);
  // Runs what is queued, then joins the workers.
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Queues `task`; null when every worker is busy and queue_capacity tasks
  // are already waiting (queue_capacity 0: no waiting at all). The
  // task must not throw (wrap it: the caller reads its outcome from state
  // the task captured).
  std::shared_ptr<Ticket> submit(std::function<void()> task);

  size_t queued() const;  // waiting for a worker
  int running() const;    // on a worker now
  int workers() const { return static_cast<int>(threads_.size()); }
  size_t capacity() const { return capacity_; }

 private:
  struct Job {
    std::function<void()> task;
    std::shared_ptr<Ticket> ticket;
  };
  void work();

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  int running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ocrforge
