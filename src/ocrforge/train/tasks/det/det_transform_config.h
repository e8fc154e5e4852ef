// DetTransformSpec from a PaddleOCR config's transform list
// (Train.dataset.transforms / Eval.dataset.transforms), e.g.
//   - DecodeImage: {img_mode: BGR, channel_first: false}
//   - DetLabelEncode:
//   - IaaAugment: {augmenter_args: [{type: Fliplr, args: {p: 0.5}}, ...]}
//   - EastRandomCropData: {size: [640, 640], max_tries: 50, keep_ratio: true}
//   - MakeBorderMap: {shrink_ratio: 0.4, thresh_min: 0.3, thresh_max: 0.7}
//   - MakeShrinkMap: {shrink_ratio: 0.4, min_text_size: 8}
//   - NormalizeImage: {scale: 1./255., mean: [...], std: [...], order: hwc}
//   - ToCHWImage:
//   - KeepKeys: {keep_keys: [image, threshold_map, threshold_mask, shrink_map, shrink_mask]}
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/train/tasks/det/det_transforms.h"

namespace ocrforge {

// The transform names this pipeline implements, in pipeline order.
const std::vector<std::string>& known_det_transforms();

// `where` is the list's config path ("Train.dataset.transforms") for errors;
// a parameter's error names e.g. "Train.dataset.transforms.EastRandomCropData.size".
// `training` selects the pipeline: IaaAugment, EastRandomCropData,
// MakeBorderMap and MakeShrinkMap belong to training (the map makers are
// required there), DetResizeForTest to evaluation (required there).
// Throws UsageError on unknown transforms (with the closest name), unknown
// or invalid parameters, missing required transforms, duplicates, a
// transform of the other pipeline, or an order the pipeline cannot honour.
// `paddle_epoch`: the `epoch` PaddleOCR hands the map makers (Global.seed for
// data built once; none when it would change every epoch), which a
// MakeBorderMap / MakeShrinkMap `total_epoch` turns into a larger shrink_ratio.
DetTransformSpec det_transform_spec_from_yaml(const YAML::Node& transforms, const std::string& where, bool training,
                                              std::optional<double> paddle_epoch = std::nullopt);

}  // namespace ocrforge
