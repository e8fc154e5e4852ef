// PPLCNetV3, the backbone of PP-OCRv4's mobile detector and recognizer, as
// PaddleOCR builds it (ppocr/modeling/backbones/rec_lcnetv3.py): a stem conv
// + BN, five stages of LCNetV3 blocks (a depthwise and a pointwise
// LearnableRepLayer, SE in some), and for detection four 1x1 convs that
// narrow the stage outputs to MobileNetV3's widths. Sub-layer names are
// PaddleOCR's (conv1.conv / conv1.bn, blocks<i>.<j>.dw_conv.conv_kxk.<b>.conv,
// ...conv_1x1.bn, ...identity, ...lab.scale, ...act.lab.bias, blocks<i>.<j>.se.conv1,
// layer_list.<i>), so parameter names read like a PaddleOCR state dict.
//
// A LearnableRepLayer exists in two forms, as in PaddleOCR:
//  - training form: the sum of an identity BN (when shape-preserving), a 1x1
//    conv + BN (when k > 1) and conv_kxk_num kxk conv + BN branches;
//  - deploy form (PaddleOCR's rep(), what its inference export holds): one
//    kxk conv with bias, `reparam_conv`, equal in eval to the training form.
// PaddleOCR's shipped inference files only hold the deploy form (the
// branches and their BN statistics are gone), so a network that takes their
// weights is built in deploy form (PPLCNetV3Spec::deploy).
#pragma once
#include <torch/torch.h>

#include <utility>
#include <vector>

namespace ocrforge {

struct PPLCNetV3Spec {
  double scale = 1.0;
  int conv_kxk_num = 4;  // kxk branches per LearnableRepLayer (training form)
  bool det = false;      // NET_CONFIG_det + layer_list (detection) or NET_CONFIG_rec
  bool deploy = false;   // LearnableRepLayers as one fused conv (see above)
  int in_channels = 3;
};

// PaddleOCR's make_divisible of rec_lcnetv3.py (divisor 16, not MobileNetV3's 8).
int64_t lcnet_make_divisible(double v, int64_t divisor = 16);

// y = scale * x + bias with two learnable scalars (shape [1]).
class LearnableAffineBlockImpl : public torch::nn::Module {
 public:
  LearnableAffineBlockImpl();
  torch::Tensor forward(torch::Tensor x) { return scale * x + bias; }
  torch::Tensor scale, bias;
};
TORCH_MODULE(LearnableAffineBlock);

// conv (no bias, padding (k-1)/2) -> BN.
class LCNetConvBNImpl : public torch::nn::Module {
 public:
  LCNetConvBNImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t groups);
  torch::Tensor forward(torch::Tensor x) { return bn(conv(x)); }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
};
TORCH_MODULE(LCNetConvBN);

// PaddleOCR's Act: hardswish, then a LearnableAffineBlock (child "lab").
class LCNetActImpl : public torch::nn::Module {
 public:
  LCNetActImpl();
  torch::Tensor forward(torch::Tensor x) { return lab(torch::hardswish(x)); }
  LearnableAffineBlock lab{nullptr};
};
TORCH_MODULE(LCNetAct);

class LearnableRepLayerImpl : public torch::nn::Module {
 public:
  // stride {sh, sw}. PaddleOCR skips the activation only for the scalar
  // stride 2 (its rec strides (2, 1) / (1, 2) keep it): here {2, 2}.
  LearnableRepLayerImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t groups,
                        int num_conv_branches, bool deploy);
  torch::Tensor forward(torch::Tensor x);

  bool deploy() const { return static_cast<bool>(reparam_conv); }
  bool has_act() const { return has_act_; }
  // The single conv equal (in eval) to this layer's branches: kernel
  // [out, in/groups, k, k] and bias [out], in float64. In deploy form, the
  // reparam_conv's own.
  std::pair<torch::Tensor, torch::Tensor> fused_kernel_bias() const;

  torch::nn::BatchNorm2d identity{nullptr};
  std::vector<LCNetConvBN> conv_kxk;
  LCNetConvBN conv_1x1{nullptr};
  torch::nn::Conv2d reparam_conv{nullptr};
  LearnableAffineBlock lab{nullptr};
  LCNetAct act{nullptr};  // registered always, as PaddleOCR; not applied after a scalar stride 2

 private:
  int64_t in_, out_, kernel_, groups_;
  bool has_act_;
};
TORCH_MODULE(LearnableRepLayer);

// Squeeze-excitation with Paddle's nn.Hardsigmoid (slope 1/6, offset 0.5).
class LCNetSEImpl : public torch::nn::Module {
 public:
  explicit LCNetSEImpl(int64_t channels, int64_t reduction = 4);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
};
TORCH_MODULE(LCNetSE);

// Depthwise LearnableRepLayer [-> SE] -> pointwise LearnableRepLayer.
class LCNetV3BlockImpl : public torch::nn::Module {
 public:
  LCNetV3BlockImpl(int64_t in, int64_t out, std::vector<int64_t> stride, int64_t dw_size, bool use_se,
                   int conv_kxk_num, bool deploy);
  torch::Tensor forward(torch::Tensor x);
  LearnableRepLayer dw_conv{nullptr}, pw_conv{nullptr};
  LCNetSE se{nullptr};
};
TORCH_MODULE(LCNetV3Block);

// The layers of PPLCNetV3, registered into a backbone module `owner` (so
// their names start at the backbone: backbone.conv1.conv.weight).
struct PPLCNetV3Layers {
  PPLCNetV3Layers(torch::nn::Module& owner, const PPLCNetV3Spec& spec);
  // Stage outputs of blocks3..blocks6 (strides 4, 8, 16, 32 for det), each
  // through its layer_list conv in the det variant.
  std::vector<torch::Tensor> features(torch::Tensor x);
  // The last stage's output (blocks6), for recognition.
  torch::Tensor last(torch::Tensor x);
  // Width of each features() output; for rec, the single blocks6 width.
  std::vector<int64_t> out_channels;

  LCNetConvBN conv1{nullptr};
  std::vector<torch::nn::Sequential> blocks;  // blocks2..blocks6
  std::vector<torch::nn::Conv2d> layer_list;  // det only
};

// Names (under `prefix`, e.g. "backbone.") of the tensors of deploy-form
// `layers` in the order PaddleOCR's exported graph reads them: per layer
// conv weight and bias, LAB scale and bias, the Act's LAB, per SE conv1 /
// conv2 weight and bias, BN weight, bias, mean, variance. Error when a
// LearnableRepLayer is in training form (the exported file has no branches).
std::vector<std::string> pplcnet_v3_onnx_order(const PPLCNetV3Layers& layers, const std::string& prefix);

}  // namespace ocrforge
