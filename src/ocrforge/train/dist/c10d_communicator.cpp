// c10d_communicator.h: Gloo/NCCL collectives behind the Communicator interface.
#include "ocrforge/train/dist/c10d_communicator.h"

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/dist/c10d_compat.h"
#include "ocrforge/train/dist/rendezvous.h"

namespace ocrforge {

namespace {

class C10dCommunicator final : public Communicator {
 public:
  C10dCommunicator(const DistEnv& env, c10d_compat::StorePtr store, c10d_compat::GroupPtr group, C10dParams o)
      : env_(env), store_(std::move(store)), group_(std::move(group)), opt_(o) {}

  int rank() const override { return env_.rank; }
  int world_size() const override { return env_.world_size; }

  void broadcast_parameters(torch::nn::Module& model) override {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> tensors = model.parameters();
    for (auto& b : model.buffers()) tensors.push_back(b);
    in_buckets(tensors, [&](std::vector<at::Tensor>& flat) {
      c10d::BroadcastOptions o;
      o.rootRank = 0;
      group_->broadcast(flat, o)->wait();
    });
  }

  void average_gradients(torch::nn::Module& model) override {
    std::vector<torch::Tensor> grads;
    for (auto& p : model.parameters())
      if (p.grad().defined()) grads.push_back(p.grad());
    const double inv = 1.0 / world_size();
    in_buckets(grads, [&](std::vector<at::Tensor>& flat) {
      group_->allreduce(flat)->wait();  // sum
      flat[0].mul_(inv);
    });
  }

  std::vector<double> sum(const std::vector<double>& values) override {
    if (values.empty()) return values;
    auto t = torch::tensor(values, torch::kFloat64).to(opt_.device);
    std::vector<at::Tensor> v{t};
    collective("sum", [&] { group_->allreduce(v)->wait(); });
    t = v[0].cpu();
    return {t.data_ptr<double>(), t.data_ptr<double>() + t.numel()};
  }

  bool any(bool value) override { return sum({value ? 1.0 : 0.0})[0] > 0.5; }

  void barrier() override {
    collective("barrier", [&] { group_->barrier()->wait(); });
  }

 private:
  // A failed collective almost always means a peer died: say so, with the rank.
  template <typename F>
  void collective(const char* what, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      throw Error(env_.describe_rank(rank()) + ": " + what +
                  " with the other workers failed (another worker or node probably stopped; see its log): " + e.what());
    }
  }

  // Runs `op` on flat copies of consecutive same-dtype tensors (at most
  // bucket_bytes each, one tensor may exceed it alone), then copies back.
  template <typename Op>
  void in_buckets(std::vector<torch::Tensor>& tensors, Op&& op) {
    size_t i = 0;
    while (i < tensors.size()) {
      size_t j = i, bytes = 0;
      while (j < tensors.size() && tensors[j].scalar_type() == tensors[i].scalar_type() &&
             (j == i || bytes + tensors[j].nbytes() <= opt_.bucket_bytes))
        bytes += tensors[j++].nbytes();
      std::vector<torch::Tensor> views;
      for (size_t k = i; k < j; ++k) views.push_back(tensors[k].reshape({-1}));
      std::vector<at::Tensor> flat{torch::cat(views).to(opt_.device)};
      collective("bucketed all-reduce/broadcast", [&] { op(flat); });
      int64_t offset = 0;
      for (size_t k = i; k < j; ++k) {
        const int64_t n = tensors[k].numel();
        tensors[k].copy_(flat[0].narrow(0, offset, n).view_as(tensors[k]));
        offset += n;
      }
      i = j;
    }
  }

  DistEnv env_;
  c10d_compat::StorePtr store_;  // rank 0 hosts the TCPStore server: keep it alive
  c10d_compat::GroupPtr group_;
  C10dParams opt_;
};

c10d_compat::GroupPtr make_group(const DistEnv& env, const c10d_compat::StorePtr& store, const C10dParams& o) {
  auto prefixed = c10::make_intrusive<c10d::PrefixStore>("ocrforge/pg", store);
  if (o.device.is_cuda()) {
#ifdef USE_C10D_NCCL
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(prefixed, env.rank, env.world_size);
#else
    throw Error(
        "distributed training on CUDA needs NCCL: rebuild with -DOCRFORGE_WITH_NCCL=ON against a CUDA "
        "libtorch (this build has Gloo only; set Global.use_gpu=False for CPU workers)");
#endif
  }
  auto opts = c10d::ProcessGroupGloo::Options::create();
  // Bind Gloo to the launcher's node address: the host name often resolves
  // to 127.0.1.1 on Debian, which peers on other machines cannot reach.
  std::string host = env.node_ip;
  if (host.empty() && env.master_addr.rfind("127.", 0) == 0) host = "127.0.0.1";
  opts->devices.push_back(host.empty() ? c10d::ProcessGroupGloo::createDefaultDevice()
                                       : c10d::ProcessGroupGloo::createDeviceForHostname(host));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, env.rank, env.world_size, opts);
}

}  // namespace

std::unique_ptr<Communicator> make_c10d_communicator(const DistEnv& env, const Fingerprint& mine,
                                                     const C10dParams& options) {
  c10d_compat::StorePtr store = rendezvous(env, mine);
  c10d_compat::GroupPtr group;
  try {
    group = make_group(env, store, options);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(env.describe_rank(env.rank) + ": could not connect to the other workers (Gloo binds " +
                (env.node_ip.empty() ? std::string("this host's name") : env.node_ip) +
                " on a random port; firewalls must allow TCP between the nodes): " + e.what());
  }
  return std::make_unique<C10dCommunicator>(env, std::move(store), std::move(group), options);
}

bool nccl_compiled_in() {
#ifdef USE_C10D_NCCL
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Communicator> make_communicator_from_environment(const Config& config) {
  const DistEnv env = dist_env_from_environment();
  if (!env.distributed()) return make_single_process_communicator();
  if (config.get<bool>("Global.use_sync_bn", false))
    throw UsageError(
        "Global.use_sync_bn=True is not supported yet (each worker normalises with its own batch "
        "statistics); set Global.use_sync_bn=False");
  C10dParams o;
  if (config.get<bool>("Global.use_gpu", false))  // the trainer's device (rec_trainer.cpp)
    o.device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(cuda_device_index(
                                               static_cast<int>(torch::cuda::device_count()))));
  return make_c10d_communicator(env, make_fingerprint(config, env.rank, this_host(env)), o);
}

}  // namespace ocrforge
