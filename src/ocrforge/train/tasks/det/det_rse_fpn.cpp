#include "ocrforge/train/tasks/det/det_rse_fpn.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

RSELayerImpl::RSELayerImpl(int64_t in, int64_t out, int64_t kernel, bool shortcut) : shortcut_(shortcut) {
  in_conv_ = register_module(
      "in_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false)));
  paddle_init::kaiming_uniform(in_conv_->weight);
  se_ = register_module("se_block", MV3SE(out));  // reduction 4, hardsigmoid(0.2x + 0.5)
}

torch::Tensor RSELayerImpl::forward(torch::Tensor x) {
  x = in_conv_(x);
  return shortcut_ ? x + se_(x) : se_(x);
}

RSEFPNImpl::RSEFPNImpl(const std::vector<int64_t>& in_channels, int64_t out_channels, bool shortcut) {
  out_channels_ = out_channels;
  torch::nn::ModuleList ins, inp;
  for (size_t i = 0; i < in_channels.size(); ++i) {
    ins_.push_back(RSELayer(in_channels[i], out_channels, 1, shortcut));
    inp_.push_back(RSELayer(out_channels, out_channels / 4, 3, shortcut));
    ins->push_back(ins_.back());
    inp->push_back(inp_.back());
  }
  register_module("ins_conv", ins);
  register_module("inp_conv", inp);
}

torch::Tensor RSEFPNImpl::forward(std::vector<torch::Tensor> c) {
  det_fpn::check_levels(c, "RSEFPN");
  std::vector<torch::Tensor> in(4);
  for (int i = 0; i < 4; ++i) in[i] = ins_[i](c[i]);
  const auto td = det_fpn::top_down(in);  // out2, out3, out4, in5
  std::vector<torch::Tensor> p;  // p5, p4, p3 upsampled to stride 4, then p2
  for (int i = 3; i >= 1; --i) p.push_back(det_fpn::upsample(inp_[i](td[i]), int64_t{1} << i));
  p.push_back(inp_[0](td[0]));
  return torch::cat(p, 1);
}

}  // namespace ocrforge
