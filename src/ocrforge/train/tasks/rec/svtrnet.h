// PaddleOCR's SVTRNet recognition backbone (ppocr/modeling/backbones/rec_svtrnet.py;
// the PP-OCRv4 distillation teacher, ch_PP-OCRv4_rec_svtr_large.yml), built
// from svtrnet_spec.h with PaddleOCR's parameter names below backbone.:
//   patch_embed.proj.{0,1[,2]}.{conv,norm}  2 (sub_num 3: 3) ConvBNLayer, 3x3 stride 2, GELU
//   pos_embed                                1 x tokens x embed_dim[0], learned
//   blocks1.i, sub_sample1, blocks2.i, sub_sample2, blocks3.i
//                                            Blocks (svtr_block.h; mixer Global / Local / Conv),
//                                            SubSample: [2, 1] downsampling (Conv: conv + norm;
//                                            Pool: (avg + max) / 2 + proj + norm)
//   norm                                     prenorm False only
//   last_conv                                last_stage only: 1x1, no bias
// Layout: x N x 3 x img_size -> tokens N x L x C through the stages ->
//   last_stage: adaptive average pool to 1 x out_char_num, last_conv,
//               hardswish, dropout -> N x out_channels x 1 x out_char_num;
//   otherwise:  the last stage's tokens as their map N x embed_dim[2] x h x w
//               (3 x 80 for 48 x 320). PaddleOCR returns the tokens N x (h*w) x C;
//               the map is the same numbers in the layout the heads here read
//               (MultiHead's use_pool makes it from the tokens the same way).
// The position embedding and the mixers fit one input size (img_size), as in
// PaddleOCR: another size is a UsageError, not a silent resize.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/rec/rec_backbone.h"
#include "ocrforge/train/tasks/rec/svtr_block.h"
#include "ocrforge/train/tasks/rec/svtrnet_spec.h"

namespace ocrforge {

// SubSample between stages: N x C x h x w map -> N x (h/2 * w) x out tokens.
class SvtrSubSampleImpl : public torch::nn::Module {
 public:
  SvtrSubSampleImpl(int64_t in, int64_t out, bool pool);
  torch::Tensor forward(const torch::Tensor& map);
  bool pool() const { return pool_; }

 private:
  bool pool_;
  torch::nn::Conv2d conv_{nullptr};  // Conv: 3x3, stride [2, 1], KaimingNormal, bias
  torch::nn::Linear proj_{nullptr};  // Pool
  torch::nn::LayerNorm norm_{nullptr};  // sub_norm: Paddle's default epsilon 1e-5
};
TORCH_MODULE(SvtrSubSample);

class SvtrNetImpl : public RecBackboneImpl {
 public:
  explicit SvtrNetImpl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return spec_.output_channels(); }
  const SvtrNetSpec& spec() const { return spec_; }

  // The pieces, for the exporter (svtrnet_emitter.h).
  const torch::nn::Sequential& patch_embed() const { return patch_embed_; }
  const torch::Tensor& pos_embed() const { return pos_embed_; }
  const torch::nn::ModuleList& blocks(int stage) const { return blocks_.at(stage); }
  SvtrSubSample sub_sample(int i) const { return sub_sample_.at(i); }  // null without patch_merging
  torch::nn::LayerNorm norm() const { return norm_; }                  // null with prenorm
  torch::nn::Conv2d last_conv() const { return last_conv_; }           // null without last_stage

 private:
  // Tokens N x (h*w) x C -> map N x C x h x w.
  static torch::Tensor to_map(const torch::Tensor& tokens, int64_t h, int64_t w);

  SvtrNetSpec spec_;
  torch::nn::Sequential patch_embed_{nullptr};
  torch::Tensor pos_embed_;
  torch::nn::Dropout pos_drop_{nullptr};
  std::vector<torch::nn::ModuleList> blocks_;
  std::vector<SvtrSubSample> sub_sample_{nullptr, nullptr};
  torch::nn::LayerNorm norm_{nullptr};
  torch::nn::Conv2d last_conv_{nullptr};
};

// Paddle's Dropout(mode="downscale_in_infer") of last_stage: in training
// keep each value with probability 1 - p unscaled, in eval scale by 1 - p.
torch::Tensor downscale_in_infer_dropout(const torch::Tensor& x, double p, bool training);

// AdaptiveAvgPool2D's column bins as a W x out matrix (column j averages
// the columns adaptive pooling gives bin j): the exporter's pooling of a
// fixed-width map, and the check that it is the same as LibTorch's.
torch::Tensor adaptive_pool_matrix(int64_t width, int64_t out);

}  // namespace ocrforge
