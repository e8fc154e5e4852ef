// Builds the torch optimizer for an OptimizerSpec and applies per-step
// learning rates and gradient clipping.
#pragma once
#include <torch/torch.h>

#include <memory>

#include "ocrforge/train/optim/optimizer_spec.h"

namespace ocrforge {

// Adam / Momentum / SGD take the L2 factor as coupled weight decay (what
// Paddle's L2Decay regulariser adds to the gradient); AdamW uses decoupled
// decay, optionally not on 1-D parameters (biases, norms).
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerSpec& spec, torch::nn::Module& model);

// Sets the rate of every parameter group.
void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

// clip_norm (each parameter) and clip_norm_global (all together); returns the
// global gradient norm before clipping (for the log), or -1 when not computed.
double clip_gradients(const OptimizerSpec& spec, torch::nn::Module& model);

}  // namespace ocrforge
