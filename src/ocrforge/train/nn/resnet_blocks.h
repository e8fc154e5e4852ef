// The residual blocks PaddleOCR's ResNet backbones share: the detector's
// ResNet_vd (det_resnet_vd.py) and plain ResNet (det_resnet.py), and the
// recognizer's ResNet (rec_resnet_vd.py). All three build the same
// ConvBNLayer (conv without bias, "same" padding, BatchNorm, optional
// ReLU; sub-layers _conv / _batch_norm) and the same BasicBlock /
// BottleneckBlock (conv0, conv1 [, conv2], short); they differ only in the
// strides and in how a block that changes the shape takes its shortcut
// (ResNetShortcut). The backbones name the blocks (bb_<stage>_<block> or
// res2a, ...), so parameter names read like PaddleOCR's state dict.
#pragma once
#include <torch/torch.h>

#include <vector>

namespace ocrforge {

// [average pool, kernel = stride = pool] -> conv (no bias, padding (k-1)/2)
// -> BatchNorm [-> ReLU]. Conv weights take Paddle's default initialiser:
// none of the three files gives the conv an initialiser.
class ResNetConvBNImpl : public torch::nn::Module {
 public:
  // pool {0, 0}: no pool. The pool (the "vd" shortcut's) runs in ceil mode.
  ResNetConvBNImpl(int64_t in, int64_t out, int64_t kernel, torch::ExpandingArray<2> stride, bool relu,
                   torch::ExpandingArray<2> pool = torch::ExpandingArray<2>(0));
  torch::Tensor forward(torch::Tensor x);
  bool relu() const { return relu_; }
  // The pool's kernel (= stride) {h, w}; empty without one.
  std::vector<int64_t> pool_kernel() const;

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d bn_{nullptr};
  bool relu_ = false;
  std::vector<int64_t> pool_;
};
TORCH_MODULE(ResNetConvBN);

// The shortcut of a residual block.
enum class ResNetShortcut {
  kIdentity,  // the input itself (the block keeps the shape)
  kConv,      // 1x1 conv with the block's stride (plain ResNet; the vd nets' first block)
  kPoolConv,  // average pool (kernel = stride = the block's stride), then 1x1 conv with stride 1 (ResNet-D)
};

// BasicBlock (3x3 with the stride, 3x3) or BottleneckBlock (1x1, 3x3 with
// the stride, 1x1 to 4 x filters), plus the shortcut, then ReLU.
class ResNetBlockImpl : public torch::nn::Module {
 public:
  ResNetBlockImpl(int64_t in, int64_t filters, torch::ExpandingArray<2> stride, ResNetShortcut shortcut,
                  bool bottleneck);
  torch::Tensor forward(torch::Tensor x);
  int64_t out_channels() const { return out_; }

 private:
  ResNetConvBN conv0_{nullptr}, conv1_{nullptr}, conv2_{nullptr}, short_{nullptr};
  int64_t out_ = 0;
};
TORCH_MODULE(ResNetBlock);

// PaddleOCR's stage depths for `layers` (18, 34, 50, 101, 152, 200);
// empty for another value.
std::vector<int> resnet_depths(int layers);

}  // namespace ocrforge
