// Architecture YAML -> RecArchSpec. Keys and defaults are PaddleOCR's
// constructor arguments; anything else is rejected with its full key path so
// a typo cannot silently build a different network.
#include "ocrforge/core/model_type.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/nn/pphgnet_keys.h"
#include "ocrforge/train/nn/pplcnet_v3_keys.h"

namespace ocrforge {

using namespace arch_yaml;

BackboneSpec rec_backbone_from_yaml(const YAML::Node& n, const std::string& path) {
  BackboneSpec b;
  b.name = required_name(n, path);
  if (b.name == "MobileNetV1Enhance") {
    // PaddleOCR's constructor defaults (the struct's defaults are the PP-OCRv3 recipe).
    b.last_conv_stride = {1, 1};
    b.last_pool_type = "max";
    b.last_pool_kernel_size = {3, 2};
    read(n, "last_conv_stride", path, b.last_conv_stride);
    if (b.last_conv_stride.size() == 1) b.last_conv_stride.push_back(b.last_conv_stride[0]);
    read(n, "last_pool_type", path, b.last_pool_type);
    read(n, "last_pool_kernel_size", path, b.last_pool_kernel_size);
    if (b.last_pool_kernel_size.size() == 1) b.last_pool_kernel_size.push_back(b.last_pool_kernel_size[0]);
  } else if (b.name == "MobileNetV3") {
    read(n, "model_name", path, b.model_name);
    read(n, "small_stride", path, b.small_stride);
    read(n, "large_stride", path, b.large_stride);
    read(n, "disable_se", path, b.disable_se);
  } else if (b.name == "PPLCNetV3") {
    const PPLCNetV3Keys k = read_pplcnet_v3_keys(n, path, /*det_default=*/false);
    if (k.det)
      throw UsageError(path + ".det: True builds PPLCNetV3's detection variant; a recognizer needs det: False "
                              "(or no det key)");
    b.scale = k.scale;
    b.conv_kxk_num = k.conv_kxk_num;
    read(n, "in_channels", path, b.in_channels);
    return b;
  } else if (b.name == "PPHGNet_small") {
    const PPHGNetKeys k = read_pphgnet_small_keys(n, path, /*det_default=*/false);
    if (k.det)
      throw UsageError(path + ".det: True builds PPHGNet_small's detection variant; a recognizer needs det: False "
                              "(or no det key)");
    read(n, "in_channels", path, b.in_channels);
    return b;
  } else if (b.name == "PPHGNetV2_B4") {
    const PPHGNetKeys k = read_pphgnet_v2_b4_keys(n, path, /*det_default=*/false);
    if (k.det)
      throw UsageError(path + ".det: True builds PPHGNetV2_B4's detection variant; a recognizer needs det: False "
                              "(or no det key)");
    if (!k.text_rec)
      throw UsageError(path + ".text_rec: a recognizer needs text_rec: True (PP-OCRv5_server_rec.yml sets it): "
                              "without it PPHGNetV2_B4 keeps a 2-D feature map that the sequence head cannot read");
    b.use_last_conv = k.use_last_conv;
    b.class_expand = k.class_expand;
    b.class_num = k.class_num;
    read(n, "in_channels", path, b.in_channels);
    return b;
  } else if (b.name == "SVTRNet") {
    b.svtr = read_svtrnet_keys(n, path);
    read(n, "in_channels", path, b.in_channels);
    return b;
  } else if (b.name == "ResNet") {
    read(n, "layers", path, b.layers);
    read(n, "in_channels", path, b.in_channels);
    return b;
  }  // unknown names are reported by validate_rec_arch with the known list
  read(n, "scale", path, b.scale);
  read(n, "in_channels", path, b.in_channels);
  return b;
}

namespace {

void read_encoder_args(const YAML::Node& n, const std::string& path, NeckSpec& s) {
  read(n, "hidden_size", path, s.hidden_size);
  read(n, "dims", path, s.dims);
  read(n, "depth", path, s.depth);
  read(n, "hidden_dims", path, s.hidden_dims);
  read(n, "use_guide", path, s.use_guide);
  read(n, "num_heads", path, s.num_heads);
  read(n, "mlp_ratio", path, s.mlp_ratio);
  read(n, "kernel_size", path, s.kernel_size);
  read(n, "qkv_bias", path, s.qkv_bias);
  read(n, "drop_rate", path, s.drop_rate);
  read(n, "attn_drop_rate", path, s.attn_drop_rate);
  read(n, "drop_path", path, s.drop_path);
}

// Top-level Neck: {name: SequenceEncoder, encoder_type: svtr, ...}.
NeckSpec neck_from_yaml(const YAML::Node& n, const std::string& path) {
  NeckSpec s;
  s.name = required_name(n, path);
  if (s.name != "SequenceEncoder") return s;  // validate_rec_arch reports it
  if (!present(n, "encoder_type")) throw UsageError(path + ".encoder_type: missing (known: reshape, fc, rnn, svtr)");
  read(n, "encoder_type", path, s.encoder_type);
  read_encoder_args(n, path, s);
  return s;
}

HeadSpec ctc_head_from_yaml(const YAML::Node& n, const std::string& path, int num_classes) {
  HeadSpec h;
  h.out_channels = num_classes;
  if (!n || n.IsNull()) return h;
  read(n, "name", path, h.name);
  read(n, "fc_decay", path, h.fc_decay);
  read(n, "mid_channels", path, h.mid_channels);
  return h;
}

// MultiHead: take the CTCHead entry (its own Neck, whose name is the encoder
// type, and Head), the SARHead entry (PP-OCRv3's guidance branch) or the
// NRTRHead entry (PP-OCRv4 / v5's).
void multi_head_from_yaml(const YAML::Node& n, const std::string& path, int num_classes, RecArchSpec& spec) {
  spec.multi_head = true;
  // PaddleOCR derives it from the dictionary; accepted as written, not used.
  note_config_whole(path + ".out_channels_list");
  note_config_read(path + ".head_list");
  bool use_pos = false;
  read(n, "use_pos", path, use_pos);
  read(n, "use_pool", path, spec.head_pool);  // validate_rec_arch checks the backbone gives what it pools
  const auto list = n["head_list"];
  if (!list || !list.IsSequence()) throw UsageError(path + ".head_list: missing or not a list");
  bool found = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const auto p = path + ".head_list[" + std::to_string(i) + "]";
    if (!list[i].IsMap() || list[i].size() != 1) throw UsageError(p + ": expected one '<HeadName>: {...}' entry");
    const auto name = list[i].begin()->first.as<std::string>();
    const auto args = list[i].begin()->second;
    if (name == "SARHead") {
      spec.sar = sar_head_from_yaml(args, p + ".SARHead", num_classes);
    } else if (name == "NRTRHead") {
      spec.nrtr = nrtr_head_from_yaml(args, p + ".NRTRHead", num_classes);
    } else if (name == "CTCHead") {
      found = true;
      const auto cp = p + ".CTCHead";
      const auto neck = args["Neck"];
      if (!neck || !neck.IsMap()) throw UsageError(cp + ".Neck: missing (e.g. {name: svtr, dims: 64})");
      spec.neck = NeckSpec{};
      spec.neck.encoder_type = required_name(neck, cp + ".Neck");
      read_encoder_args(neck, cp + ".Neck", spec.neck);
      spec.head = ctc_head_from_yaml(args["Head"], cp + ".Head", num_classes);
    } else {
      throw UsageError(p + ": unknown head '" + name + "' (known: CTCHead, SARHead, NRTRHead)");
    }
  }
  if (!found) throw UsageError(path + ".head_list: no CTCHead entry; ocrforge trains the CTC branch");
  // PaddleOCR's MultiHead runs one guidance head: NRTR when listed, else SAR.
  if (spec.sar && spec.nrtr)
    throw UsageError(path + ".head_list: lists both SARHead and NRTRHead; MultiHead trains one guidance head, keep one");
  if (spec.nrtr) spec.nrtr->use_pos = use_pos;
}

}  // namespace

RecArchSpec rec_arch_from_yaml(const YAML::Node& arch, int num_classes) {
  const std::string path = "Architecture";
  if (!arch || !arch.IsMap()) throw UsageError(path + ": missing or not a mapping");
  if (arch["Models"])
    throw UsageError(path + ".Models: a Distillation architecture; build each sub-model from "
                            "Architecture.Models.<name> (e.g. Student)");
  if (const ModelType t = read_model_type(arch, path); t != ModelType::Rec)
    throw UsageError(path + ".model_type: '" + model_type_name(t) + "' is not a recognition model (rec)");
  note_config_read(path + ".Transform");  // null is "none", as in PaddleOCR
  if (present(arch, "Transform"))
    throw UsageError(path + ".Transform: rectification transforms (TPS, ...) are not supported; leave it empty");
  if (num_classes < 2)
    throw UsageError("recognition needs at least 2 CTC classes (blank + 1 character), got " + std::to_string(num_classes));

  RecArchSpec spec;
  read(arch, "algorithm", path, spec.algorithm);
  bool all_feats = false;
  read(arch, "return_all_feats", path, all_feats);  // informational: every feature is always returned
  if (!present(arch, "Backbone")) throw UsageError(path + ".Backbone: missing");
  spec.backbone = rec_backbone_from_yaml(arch["Backbone"], path + ".Backbone");
  if (!present(arch, "Head")) throw UsageError(path + ".Head: missing");
  const auto head = arch["Head"];
  const std::string head_name = required_name(head, path + ".Head");
  if (head_name != "CTCHead" && head_name != "MultiHead")
    throw UsageError(path + ".Head.name: unknown head '" + head_name + "' (known: CTCHead, MultiHead)");
  if (head_name == "MultiHead") {
    if (present(arch, "Neck"))
      throw UsageError(path + ".Neck: MultiHead carries its own Neck inside head_list[CTCHead]; remove the top-level one");
    multi_head_from_yaml(head, path + ".Head", num_classes, spec);
  } else {
    if (head_name == "CTCHead" && !present(arch, "Neck"))
      throw UsageError(path + ".Neck: CTCHead needs a sequence neck (e.g. {name: SequenceEncoder, encoder_type: rnn})");
    if (present(arch, "Neck")) spec.neck = neck_from_yaml(arch["Neck"], path + ".Neck");
    spec.head = ctc_head_from_yaml(head, path + ".Head", num_classes);
  }
  validate_rec_arch(spec);
  return spec;
}

void drop_nrtr_branch(RecArchSpec& spec) {
  if (!spec.nrtr) return;
  spec.nrtr.reset();
  spec.dropped_heads.push_back("NRTRHead");
}

}  // namespace ocrforge
