#include "ocrforge/train/tasks/det/det_db_fpn.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

DBFPNImpl::DBFPNImpl(const std::vector<int64_t>& in_channels, int64_t out_channels) {
  out_channels_ = out_channels;
  for (int i = 0; i < 4; ++i) {
    const auto level = std::to_string(i + 2);
    in_[i] = register_module("in" + level + "_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                                                            in_channels[i], out_channels, 1)
                                                                            .bias(false)));
    p_[i] = register_module("p" + level + "_conv",
                            torch::nn::Conv2d(torch::nn::Conv2dOptions(out_channels, out_channels / 4, 3)
                                                  .padding(1)
                                                  .bias(false)));
    paddle_init::kaiming_uniform(in_[i]->weight);
    paddle_init::kaiming_uniform(p_[i]->weight);
  }
}

torch::Tensor DBFPNImpl::forward(std::vector<torch::Tensor> c) {
  det_fpn::check_levels(c, "DBFPN");
  std::vector<torch::Tensor> in(4);
  for (int i = 0; i < 4; ++i) in[i] = in_[i](c[i]);
  const auto td = det_fpn::top_down(in);  // out2, out3, out4, in5
  // Concatenated coarsest first (p5, p4, p3, p2), as PaddleOCR; p2 is already at stride 4.
  std::vector<torch::Tensor> p;
  for (int i = 3; i >= 1; --i) p.push_back(det_fpn::upsample(p_[i](td[i]), int64_t{1} << i));
  p.push_back(p_[0](td[0]));
  return torch::cat(p, 1);
}

}  // namespace ocrforge
