// The Communicator of a multi-process run: TCPStore rendezvous (with the
// fingerprint check), then ProcessGroupGloo on CPU or ProcessGroupNCCL on
// CUDA (builds with USE_C10D_NCCL only). Gradients are averaged with
// bucketed all-reduces: flattened into ~25 MB buckets, one all-reduce per
// bucket, divided by the world size (one call per parameter would pay the
// per-call latency ~100 times per step).
#pragma once
#include <torch/torch.h>

#include <memory>

#include "ocrforge/train/dist/dist_env.h"
#include "ocrforge/train/dist/fingerprint.h"
#include "ocrforge/train/dist/communicator.h"

namespace ocrforge {

class Config;

struct C10dParams {
  torch::Device device{torch::kCPU};  // CUDA: NCCL (needs USE_C10D_NCCL), CPU: Gloo
  size_t bucket_bytes = 25u << 20;    // DDP's default bucket size
};

// Blocks until every rank joined (or throws Error after env.timeout_s naming
// the missing ranks, or when fingerprints differ).
std::unique_ptr<Communicator> make_c10d_communicator(const DistEnv& env, const Fingerprint& mine,
                                                     const C10dParams& options = {});

// For `ocrforge train`: the single-process communicator unless WORLD_SIZE
// (or an equivalent, see dist_env.h) > 1; then the c10d one, after refusing
// settings distributed training does not support (Global.use_sync_bn).
std::unique_ptr<Communicator> make_communicator_from_environment(const Config& config);

// Whether this build can create NCCL process groups (OCRFORGE_WITH_NCCL).
bool nccl_compiled_in();

}  // namespace ocrforge
