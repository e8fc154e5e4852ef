#include "ocrforge/train/tasks/det/det_lkpan.h"

#include <string>

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

namespace {
constexpr int64_t kLargeKernel = 9, kLargePadding = 4;

torch::nn::Conv2d conv(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t padding) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding(padding).bias(false));
}
}  // namespace

DSConvImpl::DSConvImpl(int64_t in, int64_t out, int64_t kernel, int64_t padding) {
  // LKPAN passes its KaimingUniform ParamAttr to DSConv, which drops it
  // (**kwargs): DSConv's convs start from Paddle's default initializer.
  conv1_ = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, in, kernel)
                                                          .padding(padding)
                                                          .groups(in)
                                                          .bias(false)));
  paddle_init::default_conv(conv1_->weight, in);
  bn1_ = register_module("bn1", torch::nn::BatchNorm2d(in));
  conv2_ = register_module("conv2", conv(in, in * 4, 1, 1, 0));
  paddle_init::default_conv(conv2_->weight, in);
  bn2_ = register_module("bn2", torch::nn::BatchNorm2d(in * 4));
  conv3_ = register_module("conv3", conv(in * 4, out, 1, 1, 0));
  paddle_init::default_conv(conv3_->weight, in * 4);
  if (in != out) {
    conv_end_ = register_module("conv_end", conv(in, out, 1, 1, 0));
    paddle_init::default_conv(conv_end_->weight, in);
  }
}

torch::Tensor DSConvImpl::forward(torch::Tensor inputs) {
  auto x = bn1_(conv1_(inputs));
  x = torch::relu(bn2_(conv2_(x)));
  x = conv3_(x);
  return conv_end_ ? x + conv_end_(inputs) : x;
}

LKPANImpl::LKPANImpl(const std::vector<int64_t>& in_channels, int64_t out_channels, const std::string& mode,
                     bool intracl)
    : lite_(mode == "lite") {
  out_channels_ = out_channels;
  const int64_t quarter = out_channels / 4;
  torch::nn::ModuleList ins, inp, pan_head, pan_lat;
  // A 9x9 layer appended to `convs` (large) or `ds` (lite) and to the module list.
  const auto large = [&](int64_t in, int64_t out, std::vector<torch::nn::Conv2d>& convs, std::vector<DSConv>& ds,
                         torch::nn::ModuleList& list) {
    if (lite_) {
      ds.push_back(DSConv(in, out, kLargeKernel, kLargePadding));
      list->push_back(ds.back());
      return;
    }
    convs.push_back(conv(in, out, kLargeKernel, 1, kLargePadding));
    paddle_init::kaiming_uniform(convs.back()->weight);
    list->push_back(convs.back());
  };
  for (size_t i = 0; i < in_channels.size(); ++i) {
    ins_.push_back(conv(in_channels[i], out_channels, 1, 1, 0));
    paddle_init::kaiming_uniform(ins_.back()->weight);
    ins->push_back(ins_.back());
    large(out_channels, quarter, inp_conv_, inp_ds_, inp);
    if (i > 0) {
      pan_head_.push_back(conv(quarter, quarter, 3, 2, 1));
      paddle_init::kaiming_uniform(pan_head_.back()->weight);
      pan_head->push_back(pan_head_.back());
    }
    large(quarter, quarter, pan_lat_conv_, pan_lat_ds_, pan_lat);
  }
  register_module("ins_conv", ins);
  register_module("inp_conv", inp);
  register_module("pan_head_conv", pan_head);
  register_module("pan_lat_conv", pan_lat);
  // After the lists, as PaddleOCR's state dict orders them.
  if (intracl)
    for (size_t i = 0; i < in_channels.size(); ++i)
      incl_.push_back(register_module("incl" + std::to_string(i + 1), IntraCLBlock(quarter, 2)));
}

torch::Tensor LKPANImpl::large_kernel(std::vector<torch::nn::Conv2d>& convs, std::vector<DSConv>& ds, size_t i,
                                      const torch::Tensor& x) {
  return lite_ ? ds[i]->forward(x) : convs[i]->forward(x);
}

torch::Tensor LKPANImpl::forward(std::vector<torch::Tensor> c) {
  det_fpn::check_levels(c, "LKPAN");
  std::vector<torch::Tensor> in(4);
  for (int i = 0; i < 4; ++i) in[i] = ins_[i](c[i]);
  const auto td = det_fpn::top_down(in);  // out2, out3, out4, in5
  std::vector<torch::Tensor> f(4), pan(4);
  for (size_t i = 0; i < 4; ++i) f[i] = large_kernel(inp_conv_, inp_ds_, i, td[i]);
  // Bottom-up: pan3 = f3 + down(f2), pan4 = f4 + down(pan3), pan5 = f5 + down(pan4).
  pan[0] = f[0];
  for (int i = 1; i < 4; ++i) pan[i] = f[i] + pan_head_[i - 1](pan[i - 1]);
  // p(i) = pan_lat(pan(i)) [-> IntraCL], then p5, p4, p3 upsampled to stride 4, and p2.
  const auto level = [&](int i) {
    torch::Tensor y = large_kernel(pan_lat_conv_, pan_lat_ds_, i, pan[i]);
    return incl_.empty() ? y : incl_[i]->forward(y);
  };
  std::vector<torch::Tensor> p;
  for (int i = 3; i >= 1; --i) p.push_back(det_fpn::upsample(level(i), int64_t{1} << i));
  p.push_back(level(0));
  return torch::cat(p, 1);
}

}  // namespace ocrforge
