#include "ocrforge/train/dist/communicator.h"

namespace ocrforge {

namespace {
class SingleProcessCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int world_size() const override { return 1; }
  void broadcast_parameters(torch::nn::Module&) override {}
  void average_gradients(torch::nn::Module&) override {}
  std::vector<double> sum(const std::vector<double>& values) override { return values; }
  bool any(bool value) override { return value; }
  void barrier() override {}
};
}  // namespace

std::unique_ptr<Communicator> make_single_process_communicator() {
  return std::make_unique<SingleProcessCommunicator>();
}

}  // namespace ocrforge
