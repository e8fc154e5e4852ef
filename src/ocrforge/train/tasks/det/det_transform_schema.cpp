// Schema rows of the detection transforms (det_transform_schema.h). Keys
// and kinds mirror what det_transform_config.cpp accepts.
#include "ocrforge/train/tasks/det/det_transform_schema.h"

namespace ocrforge {

std::vector<schema::Variant> det_transform_schema_variants() {
  using schema::Kind;
  const Kind B = Kind::Bool, I = Kind::Int, N = Kind::Number, S = Kind::String, IL = Kind::IntList,
             NL = Kind::NumberList, IOL = Kind::IntOrList;
  return {
      {"DetLabelEncode", {}},
      {"CopyPaste", {{"objects_paste_ratio", N}, {"limit_paste", B}}},
      // augmenter_args is a list of {type, args} maps; det_transform_config.cpp
      // checks every entry with its full key path.
      {"IaaAugment", {{"augmenter_args", Kind::Any}}},
      {"EastRandomCropData", {{"size", IL, {}, 2}, {"max_tries", I}, {"keep_ratio", B}, {"min_crop_side_ratio", N}}},
      {"MakeBorderMap", {{"shrink_ratio", N}, {"thresh_min", N}, {"thresh_max", N}}},
      {"MakeShrinkMap", {{"shrink_ratio", N}, {"min_text_size", I}}},
      {"DetResizeForTest", {{"limit_side_len", I}, {"limit_type", S, {"max", "min"}},
                            // Rejected with a clear message by the reader (not supported yet).
                            {"image_shape", IOL}, {"resize_long", I}, {"keep_ratio", B}}},
      // scale is a String: PaddleOCR configs write it as "1./255.".
      {"NormalizeImage", {{"scale", S}, {"mean", NL, {}, 3}, {"std", NL, {}, 3}, {"order", S, {"hwc"}}}},
      {"ToCHWImage", {}},
  };
}

}  // namespace ocrforge
