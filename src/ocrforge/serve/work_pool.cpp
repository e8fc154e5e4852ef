#include "ocrforge/serve/work_pool.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

bool WorkPool::Ticket::wait_until(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  return done_.wait_until(lock, deadline, [this] { return state_ == State::Done; });
}

bool WorkPool::Ticket::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ != State::Queued) return false;
  state_ = State::Cancelled;
  return true;
}

WorkPool::WorkPool(int workers, size_t queue_capacity) : capacity_(queue_capacity) {
  if (workers < 1) throw UsageError("the worker count must be >= 1, got " + std::to_string(workers));
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

WorkPool::~WorkPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

std::shared_ptr<WorkPool::Ticket> WorkPool::submit(std::function<void()> task) {
  auto ticket = std::make_shared<Ticket>();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Admitted: what idle workers are about to take, plus capacity_ waiting.
    const size_t idle = threads_.size() - static_cast<size_t>(running_);
    if (stopping_ || queue_.size() >= capacity_ + idle) return nullptr;
    queue_.push_back({std::move(task), ticket});
  }
  wake_.notify_one();
  return ticket;
}

size_t WorkPool::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

int WorkPool::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

void WorkPool::work() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    bool run = false;
    {
      std::lock_guard<std::mutex> lock(job.ticket->mutex_);
      if (job.ticket->state_ == Ticket::State::Queued) {
        job.ticket->state_ = Ticket::State::Running;
        run = true;
      }
    }
    if (run) job.task();
    {
      std::lock_guard<std::mutex> lock(job.ticket->mutex_);
      if (run) job.ticket->state_ = Ticket::State::Done;
    }
    job.ticket->done_.notify_all();
    job.task = nullptr;  // release what the task captured before counting it done
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
}

}  // namespace ocrforge
