// PPHGNet_small, the backbone of PP-OCRv4's server recognizer (and of the
// PP-OCRv4 recognition distillation's teacher) and, in its det variant, of
// PP-OCRv4's server detector, as PaddleOCR builds it
// (ppocr/modeling/backbones/rec_hgnet.py): a three-conv stem, then four
// HG stages, each an optional depthwise downsampling conv and HG blocks
// (a chain of 3x3 conv + BN + ReLU whose outputs are all concatenated with
// the block input, aggregated by a 1x1 conv and scaled by an ESE
// channel attention). Sub-layer names are PaddleOCR's (stem.0.conv,
// stages.0.downsample.bn, stages.2.blocks.1.layers.5.conv,
// ...aggregation_conv.conv, ...att.conv), so parameter names read like a
// PaddleOCR state dict.
//
// The rec variant downsamples with (h, w) strides (2,1), (1,2), (2,1),
// (2,1) after the stride-2 stem: a 48 x 320 line becomes 3 x 80. The det
// variant adds a 3x3 / 2 max pool after the stem, strides 2 in stages 2-4
// and returns the four stage outputs (strides 4, 8, 16, 32).
#pragma once
#include <torch/torch.h>

#include <vector>

namespace ocrforge {

struct PPHGNetSpec {
  bool det = false;
  int in_channels = 3;
  std::vector<int> out_indices{0, 1, 2, 3};  // det: which stage outputs features() returns
};

// conv (no bias, padding (k-1)/2) -> BN [-> ReLU].
class HGConvBNActImpl : public torch::nn::Module {
 public:
  HGConvBNActImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t groups, bool act);
  torch::Tensor forward(torch::Tensor x);
  bool has_act() const { return act_; }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};

 private:
  bool act_;
};
TORCH_MODULE(HGConvBNAct);

// Effective squeeze-excitation: x * sigmoid(conv1x1(mean over H, W)), one conv with bias.
class HGESEImpl : public torch::nn::Module {
 public:
  explicit HGESEImpl(int64_t channels);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Conv2d conv{nullptr};
};
TORCH_MODULE(HGESE);

class HGBlockImpl : public torch::nn::Module {
 public:
  HGBlockImpl(int64_t in, int64_t mid, int64_t out, int layer_num, bool identity);
  torch::Tensor forward(torch::Tensor x);
  bool identity() const { return identity_; }
  std::vector<HGConvBNAct> layers;
  HGConvBNAct aggregation_conv{nullptr};
  HGESE att{nullptr};

 private:
  bool identity_;
};
TORCH_MODULE(HGBlock);

class HGStageImpl : public torch::nn::Module {
 public:
  HGStageImpl(int64_t in, int64_t mid, int64_t out, int block_num, int layer_num, bool downsample,
              std::vector<int64_t> stride);
  torch::Tensor forward(torch::Tensor x);
  HGConvBNAct downsample{nullptr};  // depthwise 3x3, no activation; null when the stage keeps the size
  std::vector<HGBlock> blocks;
};
TORCH_MODULE(HGStage);

// The layers of PPHGNet_small, registered into a backbone module `owner`
// (names start at the backbone: backbone.stem.0.conv.weight).
struct PPHGNetLayers {
  PPHGNetLayers(torch::nn::Module& owner, const PPHGNetSpec& spec);
  // det: the outputs of the stages in out_indices.
  std::vector<torch::Tensor> features(torch::Tensor x);
  // rec: the last stage's output, before the final pool.
  torch::Tensor last(torch::Tensor x);
  // det: width of each features() output; rec: the last stage's width (1024).
  std::vector<int64_t> out_channels;

  bool det = false;
  std::vector<int> out_indices;
  std::vector<HGConvBNAct> stem;
  std::vector<HGStage> stages;
};

}  // namespace ocrforge
