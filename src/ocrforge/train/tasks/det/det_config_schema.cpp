#include "ocrforge/train/tasks/det/det_config_schema.h"

namespace ocrforge {
namespace {
using schema::Kind;
constexpr Kind B = Kind::Bool, I = Kind::Int, N = Kind::Number, S = Kind::String;
}  // namespace

std::vector<schema::Variant> det_backbone_variants() {
  return {
      {"MobileNetV3", {{"in_channels", I}, {"model_name", S, {"large", "small"}}, {"scale", N}, {"disable_se", B}}},
      {"ResNet_vd", {{"in_channels", I}, {"layers", I}}},
      {"PPLCNetV3",
       {{"in_channels", I}, {"scale", N}, {"det", B}, {"conv_kxk_num", I}, {"lr_mult_list", Kind::NumberList, {}, 6},
        {"lab_lr", N}}},
  };
}

std::vector<schema::Variant> det_neck_variants() {
  return {
      {"DBFPN", {{"out_channels", I}, {"use_asf", B}}},
      {"RSEFPN", {{"out_channels", I}, {"shortcut", B}}},
      {"LKPAN", {{"out_channels", I}, {"mode", S}, {"intracl", B}}},
  };
}

std::vector<schema::Variant> det_head_variants() {
  return {{"DBHead", {{"k", I}, {"kernel_list", Kind::IntList, {}, 3}, {"fix_nan", B}}}};
}

std::vector<schema::Variant> det_loss_variants() {
  return {{"DBLoss",
           {{"balance_loss", B}, {"main_loss_type", S, {"DiceLoss", "BCELoss"}}, {"alpha", N}, {"beta", N},
            {"ohem_ratio", N}, {"eps", N}}}};
}

}  // namespace ocrforge
