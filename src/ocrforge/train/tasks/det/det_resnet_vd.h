// ResNet_vd for detection (PaddleOCR ppocr/modeling/backbones/det_resnet_vd.py,
// without deformable convolutions): the "vd" stem of three 3x3 convs
// (32, 32, 64 channels, the first with stride 2) + 3x3 max pool stride 2, then
// four stages of residual blocks; a block that changes the shape takes its
// shortcut through a 2x2 average pool (stride 2) + 1x1 conv ("vd" shortcut),
// except the very first block (1x1 conv only). Layers 18 / 34: BasicBlock
// (64, 128, 256, 512 channels); 50: BottleneckBlock (256, 512, 1024, 2048).
// Stage outputs at strides 4 / 8 / 16 / 32.
// Sub-layer names as PaddleOCR: conv1_1 | conv1_2 | conv1_3 ._conv / ._batch_norm,
// bb_<stage>_<block>.conv0 | conv1 (| conv2) | short ._conv / ._batch_norm.
#pragma once
#include "ocrforge/train/tasks/det/det_backbone.h"

namespace ocrforge {

// [avg pool 2x2 s2 (vd)] -> conv (no bias, "same" padding) -> BatchNorm [-> ReLU].
class ResNetConvBNImpl : public torch::nn::Module {
 public:
  ResNetConvBNImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride, bool relu, bool vd_pool = false);
  torch::Tensor forward(torch::Tensor x);
  bool relu() const { return relu_; }
  bool vd_pool() const { return vd_pool_; }

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d bn_{nullptr};
  bool relu_ = false, vd_pool_ = false;
};
TORCH_MODULE(ResNetConvBN);

// BasicBlock (two 3x3) or BottleneckBlock (1x1 -> 3x3 -> 1x1 to 4x), + shortcut, ReLU.
class ResNetBlockImpl : public torch::nn::Module {
 public:
  ResNetBlockImpl(int64_t in, int64_t filters, int64_t stride, bool shortcut, bool if_first, bool bottleneck);
  torch::Tensor forward(torch::Tensor x);

 private:
  ResNetConvBN conv0_{nullptr}, conv1_{nullptr}, conv2_{nullptr}, short_{nullptr};
};
TORCH_MODULE(ResNetBlock);

class DetResNetVdImpl : public DetBackboneImpl {
 public:
  explicit DetResNetVdImpl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;

 private:
  ResNetConvBN conv1_1_{nullptr}, conv1_2_{nullptr}, conv1_3_{nullptr};
  std::vector<std::vector<ResNetBlock>> stages_;
};
TORCH_MODULE(DetResNetVd);

}  // namespace ocrforge
