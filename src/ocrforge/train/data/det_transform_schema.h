// Config-schema rows (core/config_schema.h) for the detection transforms,
// kept beside the code that reads them (det_transform_config.cpp). The
// trainer's schema adds them to Train/Eval.dataset.transforms.
#pragma once
#include <vector>

#include "ocrforge/core/config_schema.h"

namespace ocrforge {

// One Variant per detection transform: DetLabelEncode, IaaAugment,
// EastRandomCropData, MakeBorderMap, MakeShrinkMap, DetResizeForTest,
// NormalizeImage, ToCHWImage. DecodeImage and KeepKeys are shared with
// recognition and already in the schema (KeepKeys' keep_keys is a string
// list there too).
//
// Not expressible yet: IaaAugment.augmenter_args is a list of
// {type, args} maps, and no schema Kind describes a list of maps. Its row
// is therefore absent, and check_config reports it as unknown until the
// schema gains such a kind; det_transform_spec_from_yaml checks it fully.
std::vector<schema::Variant> det_transform_schema_variants();

}  // namespace ocrforge
