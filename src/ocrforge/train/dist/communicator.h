// How gradients and metrics are combined across workers. The trainer only
// talks to this interface, so the loop never asks how many ranks there are:
// the single-process communicator (default) does nothing; the c10d one
// (train/dist/c10d_communicator.h) all-reduces.
#pragma once
#include <torch/torch.h>

#include <memory>
#include <vector>

namespace ocrforge {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int world_size() const = 0;
  bool is_main() const { return rank() == 0; }
  // Makes every rank start from rank 0's parameters and buffers.
  virtual void broadcast_parameters(torch::nn::Module& model) = 0;
  // Averages gradients over ranks (after backward, before the optimizer step).
  virtual void average_gradients(torch::nn::Module& model) = 0;
  // Sums each value over ranks (metric counts, losses for the log).
  virtual std::vector<double> sum(const std::vector<double>& values) = 0;
  // True on every rank when `value` is true on any rank. Decisions that end
  // the loop (a stop signal seen by one rank) must be taken by all ranks at
  // the same step, or the others wait forever in their next all-reduce.
  virtual bool any(bool value) = 0;
  // Waits for every rank.
  virtual void barrier() = 0;
};

std::unique_ptr<Communicator> make_single_process_communicator();

}  // namespace ocrforge
