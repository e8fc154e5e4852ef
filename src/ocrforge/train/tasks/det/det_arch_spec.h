// Typed description of a DB text-detection network (PaddleOCR's Architecture
// section for det: Backbone + Neck + Head) and of its loss. Free of torch
// includes so the CLI, the config checker and the exporter can read and
// validate a detector without compiling LibTorch headers.
//
// The struct defaults are PaddleOCR's constructor defaults (MobileNetV3 large
// x0.5, DBHead k = 50, DBLoss alpha 5 / beta 10 / ohem_ratio 3), except where
// PaddleOCR has none: Neck.out_channels (a required argument there) is 256
// here, the value of det_mv3_db.yml. det_arch_from_yaml() starts from these
// defaults for keys a config leaves out.
#pragma once
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace ocrforge {

struct DetBackboneSpec {
  std::string name = "MobileNetV3";  // MobileNetV3 | ResNet_vd | ResNet | PPLCNetV3 | PPHGNet_small | PPHGNetV2_B4
  int in_channels = 3;
  // MobileNetV3 (det variant: square strides, 4 stage outputs)
  std::string model_name = "large";  // large | small
  // A double, as in PaddleOCR: 0.35 kept as a float is 0.34999999 and
  // make_divisible(0.34999999 * 240) is 80 where PaddleOCR builds 88.
  double scale = 0.5;                 // 0.35 | 0.5 | 0.75 | 1.0 | 1.25 (PaddleOCR's supported_scale)
  bool disable_se = false;            // drop the SE modules of the blocks (PP-OCRv3 det student)
  // PPLCNetV3 (scale above; PaddleOCR's default scale for it is 1.0, the
  // PP-OCRv4 mobile detector's 0.75), PPHGNet_small, PPHGNetV2_B4
  bool det = true;        // must be true here: the rec variants have other strides (and PPLCNetV3 no layer_list)
  int conv_kxk_num = 4;   // kxk branches per LearnableRepLayer
  // Not a config key: LearnableRepLayers in deploy form (one fused conv,
  // reparam_conv), set by code that loads weights from an inference file
  // (nn/pplcnet_v3.h explains the two forms).
  bool rep_deploy = false;
  // ResNet_vd / ResNet
  int layers = 50;  // ResNet_vd: 18 | 34 | 50; ResNet: 18 | 34 | 50 | 101 | 152 (PaddleOCR's default is 50)
  // PPHGNetV2_B4: the ImageNet tail PaddleOCR builds and never runs, kept so
  // a PaddleOCR state dict maps one to one (nn/pphgnet_v2.h; det: no fc).
  bool use_last_conv = true;
  int class_expand = 2048;
};

struct DetNeckSpec {
  std::string name = "DBFPN";  // DBFPN | RSEFPN | LKPAN
  int out_channels = 256;      // width of the lateral maps; the fused map has 4 x out_channels/4
  bool shortcut = true;        // RSEFPN: x + SE(x) in each RSE layer (false: SE(x) only)
  // LKPAN (the PP-OCRv3 CML teacher's neck): "large" = plain 9x9 convs,
  // "lite" = PaddleOCR's DSConv (depthwise 9x9 + pointwise) in their place.
  std::string mode = "large";
  // LKPAN: an IntraCL block (det_intracl.h) on each level's output before the
  // levels are fused (PP-OCRv4 / v5 server detectors: intracl: true).
  bool intracl = false;
};

struct DetHeadSpec {
  std::string name = "DBHead";  // DBHead | PFHeadLocal
  int k = 50;  // steepness of the differentiable binarisation 1 / (1 + exp(-k (P - T)))
  // Kernel sizes of each branch's conv1 (padding k/2) and its two 2x
  // transposed convs (PaddleOCR's Head kernel_list; the CML teacher: [7, 2, 2]).
  // The transposed convs must stay 2 (another size changes the map size).
  std::vector<int> kernel_list = {3, 2, 2};
  // PaddleOCR's fix_nan (PP-OCRv4): in training, NaNs after each hidden
  // conv + BN + ReLU of a branch become 0. No effect in eval.
  bool fix_nan = false;
  // PFHeadLocal (PP-OCRv4 / v5 server detectors): the width of its
  // LocalModule's 3x3 conv, in_channels/4 ("large") or in_channels/8
  // ("small", PaddleOCR's default).
  std::string mode = "small";
};

struct DetArchSpec {
  std::string algorithm = "DB";
  DetBackboneSpec backbone;
  DetNeckSpec neck;
  DetHeadSpec head;
};

// From the config's Architecture section (model_type det). Unknown names or
// keys throw UsageError naming the key path and the known values, e.g.
// "Architecture.Backbone.sclae: unknown key (did you mean 'scale'?)".
DetArchSpec det_arch_from_yaml(const YAML::Node& architecture);

// Checks names and value ranges; throws UsageError naming the Architecture
// key. DetModel's constructor calls it.
void validate_det_arch(const DetArchSpec& spec);

// The backbone names a detector builds, for messages: "MobileNetV3, ResNet_vd, ...".
std::string det_backbone_names();

// PaddleOCR's DBLoss arguments (ppocr/losses/det_db_loss.py).
struct DBLossSpec {
  bool balance_loss = true;  // OHEM on the shrink-map term; false: the plain main loss
  // Per-pixel loss inside BalanceLoss on the shrink map:
  //  - "DiceLoss" (PaddleOCR's default, and what every PaddleOCR DB config
  //    writes): BalanceLoss then weights one scalar Dice value per pixel, so
  //    the shrink term is in effect Dice(shrink, gt) and the OHEM selection
  //    does not change it;
  //  - "BCELoss": binary cross-entropy per pixel with OHEM (all positives +
  //    the hardest negatives, at most ohem_ratio per positive) as in the DB
  //    paper; older PaddleOCR releases passed it straight to BalanceLoss.
  std::string main_loss_type = "DiceLoss";
  double alpha = 5.0;       // weight of the shrink-map term
  double beta = 10.0;       // weight of the threshold-map (masked L1) term
  double ohem_ratio = 3.0;  // negatives kept per positive
  double eps = 1e-6;        // Dice and L1 denominators
};

// From the config's Loss section ({name: DBLoss, ...}); UsageError naming
// Loss.<key> on unknown keys or bad values.
DBLossSpec db_loss_from_yaml(const YAML::Node& loss);
void validate_db_loss(const DBLossSpec& spec);

}  // namespace ocrforge
