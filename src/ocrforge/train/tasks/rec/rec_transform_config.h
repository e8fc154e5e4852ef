// RecTransformSpec from a PaddleOCR config's transform list
// (Train.dataset.transforms / Eval.dataset.transforms), e.g.
//   - DecodeImage: {img_mode: BGR, channel_first: false}
//   - RecAug:
//   - CTCLabelEncode:
//   - RecResizeImg: {image_shape: [3, 48, 320]}
//   - KeepKeys: {keep_keys: [image, label, length]}
// or PP-OCRv3's (MultiHead / distillation configs)
//   - DecodeImage: {img_mode: BGR, channel_first: false}
//   - RecConAug: {prob: 0.5, ext_data_num: 2, image_shape: [48, 320, 3]}
//   - RecAug:
//   - MultiLabelEncode:
//   - RecResizeImg: {image_shape: [3, 48, 320]}
//   - KeepKeys: {keep_keys: [image, label_ctc, label_sar, length, valid_ratio]}
#pragma once
#include <array>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"

namespace ocrforge {

// The transform names this pipeline implements, in pipeline order.
const std::vector<std::string>& known_rec_transforms();

// `where` is the list's config path ("Train.dataset.transforms") for errors.
// `charset` and `max_text_length` come from Global (PaddleOCR hands Global's
// character_dict_path / use_space_char / max_text_length to every transform).
// RecConAug and RecAug are used only when listed and `training` is true
// (RecConAug's max_text_length defaults to `max_text_length`).
// MultiLabelEncode makes CTCLabelEncode's labels plus the SAR label
// (sar_label_encode.h), or with gtc_encode: NRTRLabelEncode the NRTR label
// (nrtr_label_encode.h): exactly one of CTCLabelEncode / MultiLabelEncode is
// required. SVTRRecResizeImg (image_shape, padding: true) is RecResizeImg
// under the name PaddleOCR's SVTR configs use. KeepKeys may list image, label, length, valid_ratio after
// CTCLabelEncode, and image, label_ctc, label_sar (label_gtc with NRTR),
// length, valid_ratio after MultiLabelEncode (label_ctc is the "label" tensor).
// Throws UsageError on: unknown transform names (listing the known ones),
// unknown or invalid parameters (a gtc_encode other than NRTRLabelEncode), a missing DecodeImage / label step / RecResizeImg, both label
// steps, duplicates, or an order this pipeline cannot honour (RecConAug
// needs DecodeImage first, and comes before RecAug, the label step and
// RecResizeImg).
// `sampler_resizes` (MultiScaleDataSet): the sampler's scale sets each
// batch's size, so RecResizeImg must be absent (PaddleOCR resizes such
// samples after the listed transforms) and image_shape is left for the
// caller to set.
RecTransformSpec rec_transform_spec_from_yaml(const YAML::Node& transforms, const std::string& where,
                                              const Charset& charset, int max_text_length, bool training,
                                              bool sampler_resizes = false);

// Parameter readers shared with the classifier's list (cls_transform_config.h);
// each throws UsageError naming `path` (the transform's key path).
// DecodeImage: only img_mode BGR, channel_first false.
void parse_decode_image(const YAML::Node& params, const std::string& path);
// RecAug's probabilities (`with_tia`), or BaseDataAugmentation's (RecAug
// without TIA: tia_prob is set to 0 and is not a key).
void parse_rec_aug(const YAML::Node& params, const std::string& path, bool with_tia, RecAugParams* aug);
// `image_shape: [3, H, W]` (required; `example` shows a valid value).
// Bounds on what a config may ask, so that `check -c` refuses what training
// would die on (out of memory) rather than pass it: PaddleOCR's recognition
// configs use heights of 32-64, widths up to a few thousand and
// max_text_length 25-512.
constexpr int kMaxRecImageSide = 4096;
constexpr int kMaxTextLength = 4096;

std::array<int, 3> parse_image_shape(const YAML::Node& params, const std::string& path, const std::string& example);
// KeepKeys: every listed key must be one of `allowed`.
void parse_keep_keys(const YAML::Node& params, const std::string& path, const std::vector<std::string>& allowed);

}  // namespace ocrforge
