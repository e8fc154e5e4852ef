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
// IaaAugment.augmenter_args is a list of {type, args} maps, which no schema
// Kind describes: its row is Kind::Any (a typo in the key is still caught)
// and det_transform_spec_from_yaml checks its contents fully.
std::vector<schema::Variant> det_transform_schema_variants();

}  // namespace ocrforge
