// Builds the torch optimizer for an OptimizerSpec and applies per-step
// learning rates and gradient clipping.
#pragma once
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "ocrforge/train/optim/optimizer_spec.h"

namespace ocrforge {

// The L2 factor a parameter's own ParamAttr pins (PaddleOCR layers pin some,
// e.g. the CTC head's fc_decay), overriding Optimizer.regularizer.factor;
// nullopt: the optimizer's factor applies. See RecModelImpl::pinned_l2_decay.
using PinnedL2Decay = std::function<std::optional<float>(const std::string& param_name)>;

// Adam / Momentum / SGD take the L2 factor as coupled weight decay (what
// Paddle's L2Decay regulariser adds to the gradient), one parameter group per
// distinct factor once `pinned` is applied; AdamW uses decoupled decay,
// optionally not on 1-D parameters (biases, norms) nor on parameters named
// in no_weight_decay_names, and ignores `pinned`
// (Paddle's AdamW decays by its own coefficient, not by regularisers).
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerSpec& spec, torch::nn::Module& model,
                                                        const PinnedL2Decay& pinned = {});

// Sets the rate of every parameter group.
void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

// clip_norm (each parameter) and clip_norm_global (all together); returns the
// global gradient norm before clipping (for the log), or -1 when not computed.
double clip_gradients(const OptimizerSpec& spec, torch::nn::Module& model);

}  // namespace ocrforge
