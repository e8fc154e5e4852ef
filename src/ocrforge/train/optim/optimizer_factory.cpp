#include "ocrforge/train/optim/optimizer_factory.h"

namespace ocrforge {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerSpec& s, torch::nn::Module& model) {
  std::vector<torch::Tensor> params = model.parameters();
  const double lr = s.lr.learning_rate;
  if (s.name == "Adam") {
    auto opt = torch::optim::AdamOptions(lr).betas({s.beta1, s.beta2}).eps(s.epsilon).weight_decay(s.l2_factor);
    return std::make_unique<torch::optim::Adam>(params, opt);
  }
  if (s.name == "AdamW") {
    auto opt = torch::optim::AdamWOptions(lr).betas({s.beta1, s.beta2}).eps(s.epsilon).weight_decay(s.weight_decay);
    if (!s.one_dim_param_no_weight_decay) return std::make_unique<torch::optim::AdamW>(params, opt);
    std::vector<torch::Tensor> decay, no_decay;
    for (const auto& p : params) (p.dim() <= 1 ? no_decay : decay).push_back(p);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decay, std::make_unique<torch::optim::AdamWOptions>(opt));
    auto nd = opt;
    nd.weight_decay(0.0);
    groups.emplace_back(no_decay, std::make_unique<torch::optim::AdamWOptions>(nd));
    return std::make_unique<torch::optim::AdamW>(groups, opt);
  }
  // Momentum (Paddle's default momentum 0.9) and plain SGD.
  auto opt = torch::optim::SGDOptions(lr).momentum(s.name == "SGD" ? 0.0 : s.momentum).weight_decay(s.l2_factor);
  return std::make_unique<torch::optim::SGD>(params, opt);
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

double clip_gradients(const OptimizerSpec& s, torch::nn::Module& model) {
  std::vector<torch::Tensor> params;
  for (const auto& p : model.parameters())
    if (p.grad().defined()) params.push_back(p);
  if (s.clip_norm > 0)
    for (auto& p : params) torch::nn::utils::clip_grad_norm_(p, s.clip_norm);
  if (s.clip_norm_global > 0) return torch::nn::utils::clip_grad_norm_(params, s.clip_norm_global);
  return -1.0;
}

}  // namespace ocrforge
