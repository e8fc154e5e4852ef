#include "ocrforge/train/optim/optimizer_factory.h"

#include <algorithm>
#include <utility>

namespace ocrforge {

namespace {

// Parameters grouped by their coupled L2 factor, groups in order of first
// appearance (deterministic, so optimizer state in checkpoints lines up).
std::vector<std::pair<double, std::vector<torch::Tensor>>> by_l2_factor(torch::nn::Module& model, double factor,
                                                                        const PinnedL2Decay& pinned) {
  std::vector<std::pair<double, std::vector<torch::Tensor>>> groups;
  for (const auto& item : model.named_parameters()) {
    double f = factor;
    if (pinned)
      if (const auto p = pinned(item.key())) f = *p;
    auto it = std::find_if(groups.begin(), groups.end(), [f](const auto& g) { return g.first == f; });
    if (it == groups.end()) it = groups.insert(groups.end(), {f, {}});
    it->second.push_back(item.value());
  }
  return groups;
}

// One optimizer group per L2 factor (a single group when all agree).
template <typename Optim, typename Options>
std::unique_ptr<torch::optim::Optimizer> with_l2_groups(torch::nn::Module& model, Options opt, double factor,
                                                        const PinnedL2Decay& pinned) {
  const auto groups = by_l2_factor(model, factor, pinned);
  std::vector<torch::optim::OptimizerParamGroup> param_groups;
  for (const auto& [f, params] : groups) {
    auto o = opt;
    o.weight_decay(f);
    param_groups.emplace_back(params, std::make_unique<Options>(o));
  }
  opt.weight_decay(factor);
  return std::make_unique<Optim>(param_groups, opt);
}

}  // namespace

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerSpec& s, torch::nn::Module& model,
                                                        const PinnedL2Decay& pinned) {
  std::vector<torch::Tensor> params = model.parameters();
  const double lr = s.lr.learning_rate;
  if (s.name == "Adam") {
    auto opt = torch::optim::AdamOptions(lr).betas({s.beta1, s.beta2}).eps(s.epsilon);
    return with_l2_groups<torch::optim::Adam>(model, opt, s.l2_factor, pinned);
  }
  if (s.name == "AdamW") {
    auto opt = torch::optim::AdamWOptions(lr).betas({s.beta1, s.beta2}).eps(s.epsilon).weight_decay(s.weight_decay);
    if (!s.one_dim_param_no_weight_decay && s.no_weight_decay_names.empty())
      return std::make_unique<torch::optim::AdamW>(params, opt);
    // PaddleOCR's AdamW: no decay for 1-D parameters (one_dim_param_no_weight_decay)
    // and for names holding a no_weight_decay_name word (SVTR's pos_embed).
    const auto exempt = [&](const std::string& name, const torch::Tensor& p) {
      if (s.one_dim_param_no_weight_decay && p.dim() <= 1) return true;
      return std::any_of(s.no_weight_decay_names.begin(), s.no_weight_decay_names.end(),
                         [&](const std::string& w) { return name.find(w) != std::string::npos; });
    };
    std::vector<torch::Tensor> decay, no_decay;
    for (const auto& item : model.named_parameters()) (exempt(item.key(), item.value()) ? no_decay : decay).push_back(item.value());
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decay, std::make_unique<torch::optim::AdamWOptions>(opt));
    auto nd = opt;
    nd.weight_decay(0.0);
    groups.emplace_back(no_decay, std::make_unique<torch::optim::AdamWOptions>(nd));
    return std::make_unique<torch::optim::AdamW>(groups, opt);
  }
  // Momentum (Paddle's default momentum 0.9) and plain SGD.
  auto opt = torch::optim::SGDOptions(lr).momentum(s.name == "SGD" ? 0.0 : s.momentum);
  return with_l2_groups<torch::optim::SGD>(model, opt, s.l2_factor, pinned);
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
