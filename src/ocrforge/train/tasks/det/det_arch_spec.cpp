// Architecture / Loss YAML -> DetArchSpec / DBLossSpec. Keys and defaults are
// PaddleOCR's constructor arguments; anything else is rejected with its full
// key path so a typo cannot silently build a different network.
#include "ocrforge/core/model_type.h"
#include "ocrforge/train/tasks/det/det_arch_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/nn/pphgnet_keys.h"
#include "ocrforge/train/nn/pplcnet_v3_keys.h"

namespace ocrforge {
namespace {

using namespace arch_yaml;

// PPHGNet_small / PPHGNetV2_B4 as a DB backbone: the det variant, all four
// stage outputs (the necks fuse exactly four levels).
void read_pphgnet_det_keys(const PPHGNetKeys& k, const std::string& path, DetBackboneSpec& b) {
  b.det = k.det;
  if (k.out_indices != std::vector<int>{0, 1, 2, 3})
    throw UsageError(path + ".out_indices: the DB necks take all four stage outputs; leave it out or write "
                            "[0, 1, 2, 3]");
  if (k.text_rec)
    throw UsageError(path + ".text_rec: True is the recognizer's stem (stride 1); a detector needs text_rec: False "
                            "(or no text_rec key)");
  b.use_last_conv = k.use_last_conv;
  b.class_expand = k.class_expand;
}

// ResNet_vd / ResNet (det_resnet_vd.py / det_resnet.py): layers, and the
// two keys a DB detector here cannot take: out_indices other than all four
// stages, and deformable conv stages (dcn_stage True, which only the
// bottleneck nets build; PaddleOCR ignores dcn_stage for 18 / 34).
void read_resnet_det_keys(const YAML::Node& n, const std::string& path, DetBackboneSpec& b) {
  read(n, "layers", path, b.layers);
  std::vector<int> out_indices{0, 1, 2, 3};
  read(n, "out_indices", path, out_indices);
  if (out_indices != std::vector<int>{0, 1, 2, 3})
    throw UsageError(path + ".out_indices: the DB necks take all four stage outputs; other out_indices are not "
                            "supported yet (leave it out or write [0, 1, 2, 3])");
  YAML::Node dcn;
  read(n, "dcn_stage", path, dcn);
  if (!dcn || dcn.IsNull()) return;
  if (!dcn.IsSequence() || dcn.size() != 4)
    throw UsageError(path + ".dcn_stage: expected a list of four booleans, one per stage");
  for (size_t i = 0; i < dcn.size(); ++i) {
    const bool on = config_detail::convert<bool>(dcn[i], path + ".dcn_stage[" + std::to_string(i) + "]");
    if (on && b.layers >= 50)
      throw UsageError(path + ".dcn_stage: deformable convolutions (DCNv2, True for stage " + std::to_string(i) +
                       ") are not supported yet; set every stage to False or leave dcn_stage out");
  }
}

DetBackboneSpec backbone_from_yaml(const YAML::Node& n, const std::string& path) {
  DetBackboneSpec b;
  b.name = required_name(n, path);
  if (b.name == "MobileNetV3") {
    read(n, "model_name", path, b.model_name);
    read(n, "scale", path, b.scale);
    read(n, "disable_se", path, b.disable_se);
  } else if (b.name == "ResNet_vd" || b.name == "ResNet") {
    read_resnet_det_keys(n, path, b);
  } else if (b.name == "PPLCNetV3") {
    const PPLCNetV3Keys k = read_pplcnet_v3_keys(n, path, /*det_default=*/true);
    b.scale = k.scale;
    b.det = k.det;
    b.conv_kxk_num = k.conv_kxk_num;
  } else if (b.name == "PPHGNet_small") {
    read_pphgnet_det_keys(read_pphgnet_small_keys(n, path, /*det_default=*/true), path, b);
  } else if (b.name == "PPHGNetV2_B4") {
    read_pphgnet_det_keys(read_pphgnet_v2_b4_keys(n, path, /*det_default=*/true), path, b);
  }  // unknown names are reported by validate_det_arch with the known list
  read(n, "in_channels", path, b.in_channels);
  return b;
}

DetNeckSpec neck_from_yaml(const YAML::Node& n, const std::string& path) {
  DetNeckSpec s;
  s.name = required_name(n, path);
  if (s.name == "DBFPN") {
    bool use_asf = false;
    read(n, "use_asf", path, use_asf);
    if (use_asf) throw UsageError(path + ".use_asf: the ASF block (DBNet++) is not supported; set it to false");
  } else if (s.name == "RSEFPN") {
    read(n, "shortcut", path, s.shortcut);
  } else if (s.name == "LKPAN") {
    read(n, "mode", path, s.mode);
    s.mode = to_lower(s.mode);  // PaddleOCR compares mode.lower()
    read(n, "intracl", path, s.intracl);
  }
  read(n, "out_channels", path, s.out_channels);
  return s;
}

DetHeadSpec head_from_yaml(const YAML::Node& n, const std::string& path) {
  DetHeadSpec h;
  h.name = required_name(n, path);
  read(n, "k", path, h.k);
  read(n, "fix_nan", path, h.fix_nan);
  read(n, "kernel_list", path, h.kernel_list);
  if (h.name == "PFHeadLocal") read(n, "mode", path, h.mode);  // compared as written, as PaddleOCR
  return h;
}

}  // namespace

std::string det_backbone_names() { return "MobileNetV3, ResNet_vd, ResNet, PPLCNetV3, PPHGNet_small, PPHGNetV2_B4"; }

DetArchSpec det_arch_from_yaml(const YAML::Node& arch) {
  const std::string path = "Architecture";
  if (!arch || !arch.IsMap()) throw UsageError(path + ": missing or not a mapping");
  if (arch["Models"])
    throw UsageError(path + ".Models: a Distillation architecture; build each sub-model from "
                            "Architecture.Models.<name> (e.g. Student)");
  if (const ModelType t = read_model_type(arch, path, ModelType::Det); t != ModelType::Det)
    throw UsageError(path + ".model_type: '" + model_type_name(t) + "' is not a detection model (det)");
  note_config_read(path + ".Transform");  // null is "none", as in PaddleOCR
  if (present(arch, "Transform")) throw UsageError(path + ".Transform: detection takes no transform; leave it empty");

  DetArchSpec spec;
  read(arch, "algorithm", path, spec.algorithm);
  if (spec.algorithm != "DB")
    throw UsageError(path + ".algorithm: '" + spec.algorithm + "' is not supported for detection (known: DB)");
  for (const char* key : {"Backbone", "Neck", "Head"})
    if (!present(arch, key)) throw UsageError(path + "." + key + ": missing");
  spec.backbone = backbone_from_yaml(arch["Backbone"], path + ".Backbone");
  spec.neck = neck_from_yaml(arch["Neck"], path + ".Neck");
  spec.head = head_from_yaml(arch["Head"], path + ".Head");
  validate_det_arch(spec);
  return spec;
}

void validate_det_arch(const DetArchSpec& s) {
  const auto fail = [](const std::string& key, const std::string& what) {
    throw UsageError("Architecture." + key + ": " + what);
  };
  const auto& b = s.backbone;
  if (b.in_channels < 1) fail("Backbone.in_channels", "must be >= 1");
  if (b.name == "MobileNetV3") {
    if (b.model_name != "large" && b.model_name != "small")
      fail("Backbone.model_name", "unknown model '" + b.model_name + "' (known: large, small)");
    const double ok[] = {0.35, 0.5, 0.75, 1.0, 1.25};  // PaddleOCR asserts these
    if (std::none_of(std::begin(ok), std::end(ok), [&](double v) { return std::abs(v - b.scale) < 1e-9; }))
      fail("Backbone.scale", std::to_string(b.scale) + " is not supported (known: 0.35, 0.5, 0.75, 1.0, 1.25)");
  } else if (b.name == "ResNet_vd") {
    if (b.layers != 18 && b.layers != 34 && b.layers != 50)
      fail("Backbone.layers", std::to_string(b.layers) + " is not supported (known: 18, 34, 50)");
  } else if (b.name == "ResNet") {
    if (b.layers != 18 && b.layers != 34 && b.layers != 50 && b.layers != 101 && b.layers != 152)
      fail("Backbone.layers", std::to_string(b.layers) + " is not supported (known: 18, 34, 50, 101, 152)");
  } else if (b.name == "PPLCNetV3") {
    if (!b.det)
      fail("Backbone.det", "must be True for a detector (PPLCNetV3's det: False variant is the recognition backbone)");
    if (!(b.scale > 0)) fail("Backbone.scale", "must be > 0");
    if (b.conv_kxk_num < 1) fail("Backbone.conv_kxk_num", "must be >= 1");
  } else if (b.name == "PPHGNet_small" || b.name == "PPHGNetV2_B4") {
    if (!b.det)
      fail("Backbone.det", "must be True for a detector (" + b.name + "'s det: False variant is the recognition "
                           "backbone)");
    if (b.class_expand < 1) fail("Backbone.class_expand", "must be >= 1");
  } else {
    fail("Backbone.name", "unknown backbone '" + b.name + "' (known: " + det_backbone_names() + ")");
  }
  if (s.neck.name != "DBFPN" && s.neck.name != "RSEFPN" && s.neck.name != "LKPAN")
    fail("Neck.name", "unknown neck '" + s.neck.name + "' (known: DBFPN, RSEFPN, LKPAN)");
  if (s.neck.name == "LKPAN" && s.neck.mode != "large" && s.neck.mode != "lite")
    fail("Neck.mode", "'" + s.neck.mode + "' (known: large, lite)");
  // The neck concatenates four out_channels/4 maps and the head halves twice more.
  if (s.neck.out_channels < 16 || s.neck.out_channels % 4 != 0)
    fail("Neck.out_channels", std::to_string(s.neck.out_channels) + ": must be a multiple of 4, at least 16");
  if (s.neck.intracl && s.neck.name != "LKPAN")
    fail("Neck.intracl", "the IntraCL blocks are built for LKPAN here (PP-OCRv4 / v5's server necks); set it to "
                         "false");
  if (s.head.name != "DBHead" && s.head.name != "PFHeadLocal")
    fail("Head.name", "unknown head '" + s.head.name + "' (known: DBHead, PFHeadLocal)");
  if (s.head.name == "PFHeadLocal" && s.head.mode != "large" && s.head.mode != "small")
    fail("Head.mode", "'" + s.head.mode + "' (known: large, small; PaddleOCR builds no LocalModule for another "
                      "mode and fails on the first forward)");
  if (s.head.k <= 0) fail("Head.k", "must be > 0");
  const auto& kl = s.head.kernel_list;
  if (kl.size() != 3 || kl[0] < 1 || kl[0] % 2 == 0 || kl[1] != 2 || kl[2] != 2)
    fail("Head.kernel_list", "must be [k, 2, 2] with k odd (3 by default, 7 in PP-OCRv3's teacher): an even conv "
                             "kernel or a transposed kernel other than 2 would change the map size");
}

DBLossSpec db_loss_from_yaml(const YAML::Node& loss) {
  const std::string path = "Loss";
  DBLossSpec s;
  const std::string name = required_name(loss, path);
  if (name != "DBLoss") throw UsageError(path + ".name: unknown detection loss '" + name + "' (known: DBLoss)");
  read(loss, "balance_loss", path, s.balance_loss);
  read(loss, "main_loss_type", path, s.main_loss_type);
  read(loss, "alpha", path, s.alpha);
  read(loss, "beta", path, s.beta);
  read(loss, "ohem_ratio", path, s.ohem_ratio);
  read(loss, "eps", path, s.eps);
  validate_db_loss(s);
  return s;
}

void validate_db_loss(const DBLossSpec& s) {
  if (s.main_loss_type != "DiceLoss" && s.main_loss_type != "BCELoss")
    throw UsageError("Loss.main_loss_type: unknown loss '" + s.main_loss_type + "' (known: DiceLoss, BCELoss)");
  if (!(s.ohem_ratio >= 0)) throw UsageError("Loss.ohem_ratio: must be >= 0");
  if (!(s.eps > 0)) throw UsageError("Loss.eps: must be > 0 (it keeps empty masks from dividing by zero)");
  if (!(s.alpha >= 0)) throw UsageError("Loss.alpha: must be >= 0");
  if (!(s.beta >= 0)) throw UsageError("Loss.beta: must be >= 0");
}

}  // namespace ocrforge
