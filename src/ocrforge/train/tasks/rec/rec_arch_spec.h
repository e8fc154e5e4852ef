// Typed description of a recognition network (PaddleOCR's Architecture
// section for rec: Backbone + Neck + Head). Deliberately free of torch
// includes so the CLI, the config checker and the exporter can read and
// validate an architecture without compiling LibTorch headers.
//
// The C++ defaults below are the PP-OCRv3 mobile recipe (SVTR_LCNet:
// MobileNetV1Enhance 0.5, last_conv_stride [1,2], avg pool [2,2]; svtr neck).
// rec_arch_from_yaml() instead starts from PaddleOCR's constructor defaults
// for keys a config leaves out, so a PaddleOCR config builds the same network
// here as there (e.g. en_PP-OCRv3_rec.yml omits last_pool_kernel_size, which
// PaddleOCR then takes as [3, 2]).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ocrforge/train/tasks/rec/nrtr_head_spec.h"
#include "ocrforge/train/tasks/rec/sar_head_spec.h"
#include "ocrforge/train/tasks/rec/svtrnet_spec.h"

namespace YAML {
class Node;
}

namespace ocrforge {

struct BackboneSpec {
  std::string name = "MobileNetV1Enhance";  // one of rec_backbone_names()
  double scale = 0.5;  // double as in PaddleOCR (Python float): 0.35 in float builds other channel counts
  int in_channels = 3;
  // MobileNetV1Enhance
  std::vector<int> last_conv_stride{1, 2};  // stride (h, w) of the last dw block; one value = both
  std::string last_pool_type = "avg";        // avg | max (max is always 2x2 / stride 2, as PaddleOCR)
  std::vector<int> last_pool_kernel_size{2, 2};  // avg pool kernel = stride (h, w)
  // MobileNetV3 (rec variant: stride (s, 1) in the downsampling blocks, 2x2 max pool at the end)
  std::string model_name = "small";          // large | small
  std::vector<int> small_stride{2, 2, 2, 2};  // height strides of the 4 downsampling blocks
  std::vector<int> large_stride{1, 2, 2, 2};
  bool disable_se = false;
  // PPLCNetV3 (rec variant, PP-OCRv4's mobile recognizer; PaddleOCR's default scale 1.0)
  int conv_kxk_num = 4;  // kxk branches per LearnableRepLayer
  // Not a config key: LearnableRepLayers in deploy form (one fused conv),
  // set when the weights come from an inference file (nn/pplcnet_v3.h).
  bool rep_deploy = false;
  // PPHGNetV2_B4: the ImageNet tail PaddleOCR builds and never runs (nn/pphgnet_v2.h).
  bool use_last_conv = true;
  int class_expand = 2048;
  int class_num = 1000;
  // SVTRNet (svtrnet_spec.h)
  SvtrNetSpec svtr;
  // ResNet (rec_resnet_vd.py): 18 | 34. PaddleOCR's default, 50, builds
  // bottleneck blocks that PaddleOCR itself cannot run (rec_resnet.h).
  int layers = 50;
};

struct NeckSpec {
  std::string name = "SequenceEncoder";
  std::string encoder_type = "svtr";  // reshape | fc | rnn | svtr
  int hidden_size = 48;               // rnn: LSTM hidden per direction; fc: output width
  // svtr (EncoderWithSVTR)
  int dims = 64;          // output channels
  int depth = 2;          // global attention blocks
  int hidden_dims = 120;  // attention width (must divide by num_heads)
  bool use_guide = false;  // detach the neck input: no gradient from the CTC branch into the backbone
  int num_heads = 8;
  float mlp_ratio = 2.0f;
  std::vector<int> kernel_size{3, 3};
  bool qkv_bias = true;
  float drop_rate = 0.1f;       // MLP and attention-projection dropout
  float attn_drop_rate = 0.1f;  // dropout on the attention matrix
  float drop_path = 0.0f;       // stochastic depth per block
};

struct HeadSpec {
  std::string name = "CTCHead";
  int out_channels = 0;    // CTC classes: blank + dictionary (+ space)
  int mid_channels = 0;    // 0: one Linear; >0: Linear(in, mid) -> Linear(mid, out)
  float fc_decay = 0.0004f;  // L2 factor PaddleOCR pins on the head's weights and biases
};

struct RecArchSpec {
  std::string algorithm = "SVTR_LCNet";
  BackboneSpec backbone;
  NeckSpec neck;
  HeadSpec head;
  // The SARHead of a PaddleOCR MultiHead: a training-only branch on the
  // backbone's features (models/sar_head.h); inference and export use the CTC
  // branch alone. Empty for a CTCHead or a MultiHead without SARHead.
  std::optional<SarHeadSpec> sar;
  // The NRTRHead of a PaddleOCR MultiHead (PP-OCRv4 / v5): a training-only
  // Transformer branch on the backbone's features (nrtr_head.h).
  std::optional<NrtrHeadSpec> nrtr;
  // MultiHead.use_pool: a 3 x 2 average pool (stride 3 x 2) on SVTRNet's
  // 3-row token map before every branch (ch_PP-OCRv4_rec_svtr_large.yml);
  // PaddleOCR reshapes the tokens to 3 rows there, so only an SVTRNet
  // without last_stage whose grid is 3 rows high can be pooled.
  bool head_pool = false;
  // Head.name was MultiHead: PaddleOCR's state dict holds the branches under
  // head.* (head.ctc_encoder, head.ctc_head, head.sar_head, head.before_gtc,
  // head.gtc_head) where ocrforge's modules sit at the top (neck, head,
  // sar_head, before_gtc, gtc_head); RecModel::paddle_prefixes maps them.
  bool multi_head = false;
  // Training-only heads of a PaddleOCR MultiHead that are left out (an
  // NRTRHead whose loss the run does not list, drop_nrtr_branch): the trainer logs them.
  std::vector<std::string> dropped_heads;
};

// From the config's Architecture section (or one Distillation sub-model such
// as Architecture.Models.Student). num_classes = CTC classes (blank + dict
// (+ space)). Accepts Head.name CTCHead with a top-level Neck, or MultiHead
// (PP-OCRv3/v4 style): its CTCHead entry (its Neck and Head) is the main
// branch, a SARHead entry becomes `sar`, an NRTRHead entry `nrtr` (with
// MultiHead's use_pos; use_pool sets head_pool). Unknown names or keys throw UsageError naming the key path and the
// known values, e.g. "Architecture.Backbone.name: unknown backbone 'X'
// (known: MobileNetV1Enhance, MobileNetV3, PPLCNetV3, PPHGNet_small, PPHGNetV2_B4, SVTRNet, ResNet)".
RecArchSpec rec_arch_from_yaml(const YAML::Node& architecture, int num_classes);

// Leaves the NRTR branch out (a run that lists no NRTRLoss, a distillation
// member): `nrtr` moves to dropped_heads. Nothing happens without one.
void drop_nrtr_branch(RecArchSpec& spec);

// The Architecture.Backbone names a recognizer can be built from.
std::vector<std::string> rec_backbone_names();

// One Backbone entry (`path` names it in errors, "Architecture.Backbone"),
// PaddleOCR's constructor keys and defaults. The direction classifier builds
// its backbone from the same list, as PaddleOCR does for model_type cls.
BackboneSpec rec_backbone_from_yaml(const YAML::Node& backbone, const std::string& path);

// The backbone part of validate_rec_arch (`path` prefixes the keys).
void validate_rec_backbone(const BackboneSpec& backbone, const std::string& path = "Architecture.Backbone");

// Checks names, list lengths and value ranges; throws UsageError (message
// names the Architecture key). RecModel's constructor calls it.
void validate_rec_arch(const RecArchSpec& spec);

}  // namespace ocrforge
