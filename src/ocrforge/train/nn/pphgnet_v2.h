// PPHGNetV2_B4, the backbone of PP-OCRv5's server recognizer
// (PP-OCRv5_server_rec.yml: Backbone {name: PPHGNetV2_B4, text_rec: True})
// and, in its det variant, of PP-OCRv5's server detector, as PaddleOCR
// builds it (ppocr/modeling/backbones/rec_pphgnetv2.py). A stem of two
// branches (max pool | two 2x2 convs, Paddle "SAME"-padded), then four HGV2
// stages: an optional depthwise downsampling conv and HGV2 blocks, each a
// chain of conv layers whose outputs are all concatenated with the block
// input and aggregated by a squeeze 1x1 conv (to out/2) and an excitation
// 1x1 conv (to out). Unlike PPHGNet (pphgnet.h) there is no ESE attention.
// Stages 3-4 use "light" layers (1x1 conv, then a depthwise kxk conv).
// Sub-layer names are PaddleOCR's (stem.stem1.conv, stem.stem2a.bn,
// stages.0.downsample.conv, stages.0.blocks.0.layers.0.conv,
// stages.2.blocks.1.layers.3.conv1.conv, ...aggregation_squeeze_conv.bn,
// ...aggregation_excitation_conv.conv), so parameter names read like a
// PaddleOCR state dict (BN statistics are LibTorch's running_mean /
// running_var where Paddle says _mean / _variance).
//
// text_rec: the stem's third conv keeps the size (stride 1 instead of 2) and
// the stages downsample with (h, w) strides (2,1), (1,2), (2,1), (2,1): a
// 48 x 320 line becomes 2048 x 3 x 80 (PaddleOCR then pools it to 1 x 40,
// rec_backbone.h's line_pool). det: PaddleOCR's stage_config_det (stage 1
// does not downsample, strides 2) and the stage outputs at strides 4..32.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "ocrforge/train/nn/pplcnet_v3.h"  // LearnableAffineBlock (the same PaddleOCR layer)

namespace ocrforge {

struct PPHGNetV2Spec {
  // PaddleOCR's PPHGNetV2_B<variant>. Only "B4" builds in PaddleOCR: the
  // other variants' stage tables lack the stride column its PPHGNetV2
  // constructor unpacks, so they are refused here too (UsageError).
  std::string variant = "B4";
  // PaddleOCR passes in_channels to PPHGNetV2_B4, which ignores it (the stem
  // is fixed at 3 inputs); here it is the stem's input width.
  int in_channels = 3;
  bool det = false;       // stage_config_det, features() at strides 4..32
  bool text_rec = false;  // the stem's stem3 at stride 1 (PaddleOCR's default is False; the v5 rec config sets it)
  // PPHGNetV2_B4 passes use_lab=False itself (a config key would be a
  // duplicate keyword there); kept for completeness: a LearnableAffineBlock
  // ("lab") after each activation.
  bool use_lab = false;
  std::vector<int> out_indices{0, 1, 2, 3};  // det: the stage outputs features() returns
  // PaddleOCR's PPHGNetV2 always builds its ImageNet tail (a 1x1 last_conv
  // to class_expand channels and, outside det, an fc to class_num classes)
  // although the OCR forward never runs it; the tensors are built here too
  // so a PaddleOCR state dict maps one to one (and a .pdparams written here
  // loads in PaddleOCR without warnings). They get no gradient.
  bool use_last_conv = true;
  int class_expand = 2048;
  int class_num = 1000;
};

// conv (no bias) -> BN [-> ReLU [-> LAB]]. Padding (k-1)/2 on each side, or
// Paddle's "SAME" (same_pad): for stride 1 (k-1)/2 before and the rest
// after, i.e. a 2x2 kernel pads only bottom and right. The conv itself is
// unpadded then; forward pads explicitly, as the exporter does.
class HGV2ConvBNActImpl : public torch::nn::Module {
 public:
  HGV2ConvBNActImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t groups, bool act,
                    bool use_lab, bool same_pad = false);
  torch::Tensor forward(torch::Tensor x);
  bool has_act() const { return act_; }
  // {top, left, bottom, right} for a "SAME" conv; empty otherwise.
  const std::vector<int64_t>& same_pads() const { return same_pads_; }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  LearnableAffineBlock lab{nullptr};  // null without use_lab or without an activation

 private:
  bool act_;
  std::vector<int64_t> same_pads_;
};
TORCH_MODULE(HGV2ConvBNAct);

// PaddleOCR's LightConvBNAct: conv1 (1x1, no activation) -> conv2 (depthwise kxk, ReLU).
class HGV2LightConvBNActImpl : public torch::nn::Module {
 public:
  HGV2LightConvBNActImpl(int64_t in, int64_t out, int64_t kernel, bool use_lab);
  torch::Tensor forward(torch::Tensor x) { return conv2(conv1(x)); }
  HGV2ConvBNAct conv1{nullptr}, conv2{nullptr};
};
TORCH_MODULE(HGV2LightConvBNAct);

class HGV2BlockImpl : public torch::nn::Module {
 public:
  HGV2BlockImpl(int64_t in, int64_t mid, int64_t out, int64_t kernel, int layer_num, bool identity, bool light_block,
                bool use_lab);
  torch::Tensor forward(torch::Tensor x);
  bool identity() const { return identity_; }
  bool light() const { return !light_layers.empty(); }
  // The chain ("layers"): plain ConvBNAct layers, or light ones; one of the two is empty.
  std::vector<HGV2ConvBNAct> conv_layers;
  std::vector<HGV2LightConvBNAct> light_layers;
  HGV2ConvBNAct aggregation_squeeze_conv{nullptr}, aggregation_excitation_conv{nullptr};

 private:
  bool identity_;
};
TORCH_MODULE(HGV2Block);

class HGV2StageImpl : public torch::nn::Module {
 public:
  HGV2StageImpl(int64_t in, int64_t mid, int64_t out, int block_num, int layer_num, bool is_downsample,
                bool light_block, int64_t kernel, bool use_lab, std::vector<int64_t> stride);
  torch::Tensor forward(torch::Tensor x);
  HGV2ConvBNAct downsample{nullptr};  // depthwise 3x3, no activation; null when the stage keeps the size
  std::vector<HGV2Block> blocks;
};
TORCH_MODULE(HGV2Stage);

// stem1 (3x3 / 2) -> [max pool 2x2 / 1 "SAME" | stem2a -> stem2b (2x2 "SAME")]
// concatenated in that order -> stem3 (3x3, stride 2, 1 for text_rec) -> stem4 (1x1).
class HGV2StemBlockImpl : public torch::nn::Module {
 public:
  HGV2StemBlockImpl(int64_t in, int64_t mid, int64_t out, bool use_lab, bool text_rec);
  torch::Tensor forward(torch::Tensor x);
  HGV2ConvBNAct stem1{nullptr}, stem2a{nullptr}, stem2b{nullptr}, stem3{nullptr}, stem4{nullptr};
};
TORCH_MODULE(HGV2StemBlock);

// The max pool of the stem: Paddle's MaxPool2D(2, 1, "SAME") pads bottom
// and right by one, and its padding never wins the max (-inf, as ONNX
// MaxPool's pads), so the map keeps its size.
torch::Tensor hgv2_stem_pool(const torch::Tensor& x);

// The layers of PPHGNetV2, registered into a backbone module `owner` (names
// start at the backbone: backbone.stem.stem1.conv.weight).
struct PPHGNetV2Layers {
  PPHGNetV2Layers(torch::nn::Module& owner, const PPHGNetV2Spec& spec);
  // The outputs of the stages in out_indices (PaddleOCR returns them for det).
  std::vector<torch::Tensor> features(torch::Tensor x);
  // The last stage's output, before PaddleOCR's text_rec pool (rec).
  torch::Tensor last(torch::Tensor x);
  // det: width of each features() output; otherwise the last stage's width (2048 for B4).
  std::vector<int64_t> out_channels;

  bool det = false;
  std::vector<int> out_indices;
  HGV2StemBlock stem{nullptr};
  std::vector<HGV2Stage> stages;
  // The unused ImageNet tail (see PPHGNetV2Spec); null when not built.
  torch::nn::Conv2d last_conv{nullptr};
  torch::nn::Linear fc{nullptr};
};

}  // namespace ocrforge
