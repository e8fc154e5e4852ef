// PFHeadLocal (PaddleOCR ppocr/modeling/heads/det_db_head.py, the PP-OCRv4 /
// v5 server detectors' head): a DBHead (binarize + thresh branches, same
// names and kernel_list / fix_nan) whose shrink map is refined by a
// LocalModule on the binarize branch's hidden feature:
//   P, f = binarize(x)             P at the input size, f (C/4) at half of it
//   cbn = sigmoid(cbn_layer(upsample_nearest_2x(f), P))
// Evaluation (and the exported model): 0.5 * (P + cbn), N x 1 x H x W.
// Training: N x 3 x H x W = [cbn, T, step(P, T)], the three maps DBLoss
// reads as shrink, threshold and binary: the loss's shrink term supervises
// the refined map, its binary term the base map. (PaddleOCR also returns
// distance_maps = cbn and cbn_maps = step(P, T), which its DBLoss does not
// read; they are left out.)
// Sub-layer names as PaddleOCR: binarize.*, thresh.*, cbn_layer.last_3.conv,
// cbn_layer.last_3.bn, cbn_layer.last_1; up_conv has no parameters.
#pragma once
#include "ocrforge/train/nn/mobilenet_v3_blocks.h"
#include "ocrforge/train/tasks/det/det_db_head.h"

namespace ocrforge {

// PaddleOCR's LocalModule: concat([map, x]) (the map first) -> last_3
// (det_mobilenet_v3's ConvBNLayer: 3x3 conv without bias, BN, ReLU; in+1 ->
// mid) -> last_1 (1x1 conv with bias, mid -> 1). Returns logits.
class LocalModuleImpl : public torch::nn::Module {
 public:
  LocalModuleImpl(int64_t in_channels, int64_t mid_channels);
  torch::Tensor forward(torch::Tensor x, torch::Tensor init_map);
  MV3ConvBN last_3{nullptr};
  torch::nn::Conv2d last_1{nullptr};
};
TORCH_MODULE(LocalModule);

class PFHeadLocalImpl : public DBHeadImpl {
 public:
  // spec.mode: "large" (LocalModule width in_channels/4) or "small"
  // (in_channels/8); UsageError naming Architecture.Head.mode otherwise.
  PFHeadLocalImpl(int64_t in_channels, const DetHeadSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  LocalModule cbn_layer() const { return cbn_layer_; }

 private:
  LocalModule cbn_layer_{nullptr};
};

}  // namespace ocrforge
