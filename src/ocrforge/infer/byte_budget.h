// How many bytes of decoded images the stages of a pipeline may hold at once
// (OcrStream): the producer waits in take() until enough is given back.
// One item always goes through, however large, so an image bigger than the
// whole budget is processed alone rather than never.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace ocrforge {

class ByteBudget {
 public:
  explicit ByteBudget(size_t limit) : limit_(limit) {}  // 0: no limit

  // Blocks until `bytes` fit (or nothing is held). False when cancelled.
  bool take(size_t bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    fits_.wait(lock, [&] { return cancelled_ || limit_ == 0 || held_ == 0 || held_ + bytes <= limit_; });
    if (cancelled_) return false;
    held_ += bytes;
    return true;
  }

  void give_back(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ -= bytes < held_ ? bytes : held_;
    fits_.notify_all();
  }

  void cancel() {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
    fits_.notify_all();
  }

 private:
  const size_t limit_;
  std::mutex mutex_;
  std::condition_variable fits_;
  size_t held_ = 0;
  bool cancelled_ = false;
};

}  // namespace ocrforge
