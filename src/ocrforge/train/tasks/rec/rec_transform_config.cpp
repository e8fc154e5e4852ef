// Parses the transform list into RecTransformSpec. The pipeline's order is
// fixed in code (typed steps, not a list of callables), so the config's list
// is validated against that order instead of being executed as written.
#include "ocrforge/train/tasks/rec/rec_transform_config.h"

#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/data/data_yaml.h"

namespace ocrforge {

namespace y = data_yaml;

void parse_decode_image(const YAML::Node& p, const std::string& path) {
  y::at(p, path, "ignore_orientation");  // PaddleOCR's EXIF switch: accepted, images are read as stored
  if (!p || p.IsNull()) return;
  if (y::at(p, path, "img_mode") && !y::at(p, path, "img_mode").IsNull() && y::string(y::at(p, path, "img_mode"), path + ".img_mode") != "BGR")
    throw UsageError("config key '" + path + ".img_mode': only BGR is supported (the PP-OCR recognizers and classifier take BGR)");
  if (y::at(p, path, "channel_first") && !y::at(p, path, "channel_first").IsNull() && y::boolean(y::at(p, path, "channel_first"), path + ".channel_first"))
    throw UsageError("config key '" + path + ".channel_first': must be false (RecResizeImg / ClsResizeImg make CHW themselves)");
}

void parse_rec_aug(const YAML::Node& p, const std::string& path, bool with_tia, RecAugParams* aug) {
  std::vector<std::pair<std::string, double*>> probs = {
      {"crop_prob", &aug->crop_prob},     {"reverse_prob", &aug->reverse_prob},
      {"noise_prob", &aug->noise_prob},   {"jitter_prob", &aug->jitter_prob},
      {"blur_prob", &aug->blur_prob},     {"hsv_aug_prob", &aug->hsv_aug_prob}};
  if (with_tia) probs.insert(probs.begin(), {"tia_prob", &aug->tia_prob});
  else aug->tia_prob = 0.0;
  if (!p || p.IsNull()) return;
  for (const auto& [key, dst] : probs) {
    note_config_read(path + "." + key);
    if (!p[key] || p[key].IsNull()) continue;
    const double v = y::number(p[key], path + "." + key);
    if (v < 0.0 || v > 1.0) throw UsageError("config key '" + path + "." + key + "': a probability in [0, 1]");
    *dst = v;
  }
}

std::array<int, 3> parse_image_shape(const YAML::Node& p, const std::string& path, const std::string& example) {
  if (!p || !p.IsMap() || !y::at(p, path, "image_shape") || y::at(p, path, "image_shape").IsNull())
    throw UsageError("config key '" + path + ".image_shape' is required, e.g. " + example);
  const YAML::Node s = y::at(p, path, "image_shape");
  if (!s.IsSequence() || s.size() != 3) throw UsageError("config key '" + path + ".image_shape': expected [C, H, W]");
  std::array<int, 3> shape{};
  for (size_t i = 0; i < 3; ++i) shape[i] = y::integer(s[i], path + ".image_shape");
  if (shape[0] != 3 || shape[1] <= 0 || shape[2] <= 0 || shape[1] > kMaxRecImageSide || shape[2] > kMaxRecImageSide)
    throw UsageError("config key '" + path + ".image_shape': expected [3, H, W] with H and W in 1.." +
                     std::to_string(kMaxRecImageSide) + ", got [" + std::to_string(shape[0]) + ", " +
                     std::to_string(shape[1]) + ", " + std::to_string(shape[2]) + "]");
  return shape;
}

namespace {

// MultiLabelEncode (MultiHead configs) makes CTC + guidance labels, as
// PaddleOCR's: CTCLabelEncode's "label" / "length" plus SARLabelEncode's
// "label_sar" (sar_label_encode.h; PP-OCRv3, no gtc_encode) or, with
// gtc_encode: NRTRLabelEncode, the NRTR "label_gtc" (nrtr_label_encode.h;
// PP-OCRv4 / v5), and a text either rejects is dropped (both guidance labels
// reject max_text_length - 1 or more characters).
// max_text_length / character_dict_path / use_space_char are accepted and not
// read (train/loop/config_keys.cpp lists them): PaddleOCR's create_operators
// overwrites every transform's copies with Global's, which this pipeline uses.
// Returns whether the labels are NRTR's.
bool parse_multi_label_encode(const YAML::Node& p, const std::string& path) {
  if (!p || !p.IsMap() || !y::at(p, path, "gtc_encode") || y::at(p, path, "gtc_encode").IsNull()) return false;
  const std::string gtc = y::string(y::at(p, path, "gtc_encode"), path + ".gtc_encode");
  if (gtc != "NRTRLabelEncode")
    throw UsageError("config key '" + path + ".gtc_encode': '" + gtc + "' is not supported; known: NRTRLabelEncode "
                     "(the NRTR branch's labels), or leave it out for the SAR branch's");
  return true;
}

// RecConAug: prob, ext_data_num, image_shape [H, W, C], max_text_length
// (Global.max_text_length when absent).
void parse_rec_con_aug(const YAML::Node& p, const std::string& path, int global_max_text_length,
                       RecConAugParams* con) {
  con->max_text_length = global_max_text_length;
  if (!p || p.IsNull()) return;
  const auto set = [&](const char* key) { return p[key] && !p[key].IsNull(); };
  if (set("prob")) {
    con->prob = y::number(y::at(p, path, "prob"), path + ".prob");
    if (con->prob < 0.0 || con->prob > 1.0) throw UsageError("config key '" + path + ".prob': a probability in [0, 1]");
  }
  if (set("ext_data_num")) {
    con->ext_data_num = y::integer(y::at(p, path, "ext_data_num"), path + ".ext_data_num");
    if (con->ext_data_num < 0) throw UsageError("config key '" + path + ".ext_data_num': must be 0 or more");
  }
  if (set("max_text_length")) {
    con->max_text_length = y::integer(y::at(p, path, "max_text_length"), path + ".max_text_length");
    if (con->max_text_length <= 0 || con->max_text_length > kMaxTextLength)
      throw UsageError("config key '" + path + ".max_text_length': must be in 1.." + std::to_string(kMaxTextLength));
  }
  if (set("image_shape")) {
    // [H, W, C] here (PaddleOCR's order for RecConAug), not RecResizeImg's [C, H, W].
    const YAML::Node s = y::at(p, path, "image_shape");
    const std::string key = path + ".image_shape";
    if (!s.IsSequence() || s.size() != 3) throw UsageError("config key '" + key + "': expected [H, W, C], e.g. [48, 320, 3]");
    const int h = y::integer(s[0], key), w = y::integer(s[1], key), c = y::integer(s[2], key);
    if (h <= 0 || w <= 0 || c != 3 || h > kMaxRecImageSide || w > kMaxRecImageSide)
      throw UsageError("config key '" + key + "': expected [H, W, 3] with H, W in 1.." +
                       std::to_string(kMaxRecImageSide) + " (RecConAug's order is H, W, C, "
                       "e.g. [48, 320, 3])");
    con->height = h;
    con->width = w;
  }
}

void parse_resize(const YAML::Node& p, const std::string& path, RecTransformSpec* spec) {
  spec->image_shape = parse_image_shape(p, path, "[3, 48, 320]");
  if (y::at(p, path, "eval_mode") && !y::at(p, path, "eval_mode").IsNull())
    spec->keep_wide_lines = y::boolean(y::at(p, path, "eval_mode"), path + ".eval_mode");
  // PaddleOCR's default dictionary path for infer_mode; it changes nothing here.
  y::at(p, path, "character_dict_path");
  if (y::at(p, path, "padding") && !y::at(p, path, "padding").IsNull() && !y::boolean(y::at(p, path, "padding"), path + ".padding"))
    throw UsageError("config key '" + path + ".padding': only true (keep the aspect ratio, pad right) is supported");
  if (y::at(p, path, "infer_mode") && !y::at(p, path, "infer_mode").IsNull() && y::boolean(y::at(p, path, "infer_mode"), path + ".infer_mode"))
    throw UsageError("config key '" + path + ".infer_mode': must be false for training and evaluation");
}

// PaddleOCR's SVTRRecResizeImg(image_shape, padding=True): resize_norm_img,
// as RecResizeImg outside infer_mode.
void parse_svtr_resize(const YAML::Node& p, const std::string& path, std::array<int, 3>* shape) {
  *shape = parse_image_shape(p, path, "[3, 48, 320]");
  const YAML::Node padding = y::at(p, path, "padding");
  if (padding && !padding.IsNull() && !y::boolean(padding, path + ".padding"))
    throw UsageError("config key '" + path + ".padding': only true (keep the aspect ratio, pad right) is supported");
}

}  // namespace

void parse_keep_keys(const YAML::Node& p, const std::string& path, const std::vector<std::string>& allowed) {
  if (!p || !y::at(p, path, "keep_keys") || y::at(p, path, "keep_keys").IsNull()) return;
  for (const auto& k : y::string_list(y::at(p, path, "keep_keys"), path + ".keep_keys")) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == k;
    if (!ok)
      throw UsageError("config key '" + path + ".keep_keys': '" + k + "' is not produced by this pipeline; known: " +
                       y::joined(allowed));
  }
}

const std::vector<std::string>& known_rec_transforms() {
  static const std::vector<std::string> names = {"DecodeImage",      "RecConAug",    "RecAug",           "CTCLabelEncode",
                                                 "MultiLabelEncode", "RecResizeImg", "SVTRRecResizeImg", "KeepKeys"};
  return names;
}

RecTransformSpec rec_transform_spec_from_yaml(const YAML::Node& transforms, const std::string& where,
                                              const Charset& charset, int max_text_length, bool training,
                                              bool sampler_resizes) {
  if (!transforms || !transforms.IsSequence())
    throw UsageError("config key '" + where + "': expected a list of transforms such as '- DecodeImage: ...'");
  if (max_text_length <= 0 || max_text_length > kMaxTextLength)
    throw UsageError("Global.max_text_length must be in 1.." + std::to_string(kMaxTextLength) + ", got " +
                     std::to_string(max_text_length) + " (PaddleOCR's recognition configs use 25-512)");
  if (charset.num_classes() <= 1) throw UsageError("the character dictionary holds no characters");
  RecTransformSpec spec;
  spec.charset = charset;
  spec.max_text_length = max_text_length;
  std::map<std::string, size_t> position;  // name -> index in the list
  const auto& known = known_rec_transforms();
  YAML::Node keep_keys;  // read once the label step is known
  std::string keep_keys_path;
  for (size_t i = 0; i < transforms.size(); ++i) {
    const y::TransformEntry entry = y::transform_entry(transforms, i, where, known, &position);
    const std::string& name = entry.name;
    const YAML::Node& params = entry.params;
    const std::string& path = entry.path;
    if (name == "DecodeImage") parse_decode_image(params, path);
    else if (name == "RecConAug") parse_rec_con_aug(params, path, max_text_length, &spec.con_aug);
    else if (name == "RecAug") parse_rec_aug(params, path, true, &spec.aug);
    else if (name == "CTCLabelEncode" && params && !params.IsNull())
      throw UsageError("config key '" + path + "' takes no parameters: it uses Global.character_dict_path, "
                       "Global.use_space_char and Global.max_text_length");
    else if (name == "MultiLabelEncode") spec.nrtr_labels = parse_multi_label_encode(params, path);
    else if (name == "RecResizeImg") parse_resize(params, path, &spec);
    else if (name == "SVTRRecResizeImg") parse_svtr_resize(params, path, &spec.image_shape);
    else if (name == "KeepKeys") {
      keep_keys = params;
      keep_keys_path = path;
    }
  }
  // SVTRRecResizeImg is RecResizeImg with padding (PaddleOCR's SVTR configs
  // name it in Eval): one resize, checked below as RecResizeImg.
  if (position.count("SVTRRecResizeImg")) {
    if (position.count("RecResizeImg"))
      throw UsageError("'" + where + "' lists both RecResizeImg and SVTRRecResizeImg; keep one (they resize alike)");
    position["RecResizeImg"] = position["SVTRRecResizeImg"];
  }
  if (!position.count("DecodeImage")) throw UsageError("'" + where + "' needs a DecodeImage transform");
  if (sampler_resizes && position.count("RecResizeImg"))
    throw UsageError("'" + where + "' lists RecResizeImg, but MultiScaleDataSet resizes every sample to its "
                     "batch's sampler scale after the listed transforms; remove RecResizeImg (or use SimpleDataSet)");
  if (!sampler_resizes && !position.count("RecResizeImg"))
    throw UsageError("'" + where + "' needs a RecResizeImg transform");
  // Exactly one label step: MultiLabelEncode includes CTCLabelEncode's labels.
  const bool ctc = position.count("CTCLabelEncode") > 0, multi = position.count("MultiLabelEncode") > 0;
  if (ctc && multi)
    throw UsageError("'" + where + "' lists both CTCLabelEncode and MultiLabelEncode; keep one (MultiLabelEncode "
                     "makes CTCLabelEncode's labels and the SAR label)");
  if (!ctc && !multi) throw UsageError("'" + where + "' needs a CTCLabelEncode (or MultiLabelEncode) transform");
  const std::string label_step = multi ? "MultiLabelEncode" : "CTCLabelEncode";
  spec.multi_label_encode = multi;
  if (!keep_keys_path.empty()) {
    if (multi) {
      // label_ctc is the CTC label: the batch tensor keeps the name "label",
      // which the tasks read; label_sar / label_gtc keep theirs.
      parse_keep_keys(keep_keys, keep_keys_path,
                      {"image", "label_ctc", spec.nrtr_labels ? "label_gtc" : "label_sar", "length", "valid_ratio"});
    } else {
      if (keep_keys && keep_keys.IsMap() && keep_keys["keep_keys"] && keep_keys["keep_keys"].IsSequence())
        for (const auto& k : keep_keys["keep_keys"])
          if (k.IsScalar() && (k.Scalar() == "label_ctc" || k.Scalar() == "label_sar" || k.Scalar() == "label_gtc"))
            throw UsageError("config key '" + keep_keys_path + ".keep_keys': '" + k.Scalar() +
                             "' is made by MultiLabelEncode; with CTCLabelEncode the keys are image, label, length, "
                             "valid_ratio");
      parse_keep_keys(keep_keys, keep_keys_path, {"image", "label", "length", "valid_ratio"});
    }
  }
  // The image steps must run decode -> concatenate -> augment -> resize;
  // RecConAug joins raw label texts, so it runs before the label step;
  // KeepKeys ends the list.
  const auto before = [&](const std::string& a, const std::string& b) {
    if (position.count(a) && position.count(b) && position[a] > position[b])
      throw UsageError("in '" + where + "', " + a + " must come before " + b);
  };
  before("DecodeImage", "RecConAug");
  before("DecodeImage", "RecAug");
  before("DecodeImage", "RecResizeImg");
  before("RecConAug", "RecAug");
  before("RecConAug", "RecResizeImg");
  before("RecConAug", label_step);
  before("RecAug", "RecResizeImg");
  // RecConAug's extra samples go through the transforms before
  // dataset.ext_op_transform_idx (which must be 1, rec_data_config.cpp),
  // i.e. DecodeImage alone. The rules above already make DecodeImage the
  // first transform whenever RecConAug is listed: everything else must follow
  // DecodeImage or RecConAug, and KeepKeys ends the list.
  if (position.count("KeepKeys") && position["KeepKeys"] + 1 != transforms.size())
    throw UsageError("in '" + where + "', KeepKeys must be the last transform");
  spec.use_con_aug = training && position.count("RecConAug") > 0;
  spec.use_aug = training && position.count("RecAug") > 0;
  return spec;
}

}  // namespace ocrforge
