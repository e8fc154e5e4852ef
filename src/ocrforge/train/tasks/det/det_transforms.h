// The detection transforms of PaddleOCR's Train/Eval.dataset.transforms as
// typed parameters. Training:
//   DecodeImage -> DetLabelEncode -> [CopyPaste] -> IaaAugment -> EastRandomCropData ->
//   MakeBorderMap -> MakeShrinkMap -> NormalizeImage -> ToCHWImage -> KeepKeys
//   [image, threshold_map, threshold_mask, shrink_map, shrink_mask]
// Evaluation:
//   DecodeImage -> DetLabelEncode -> DetResizeForTest -> NormalizeImage ->
//   ToCHWImage -> KeepKeys [image, shape, polys, ignore_tags]
// det_transform_config.h builds a DetTransformSpec from a config.
#pragma once
#include <array>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/train/tasks/det/det_augment.h"
#include "ocrforge/train/tasks/det/det_copy_paste.h"
#include "ocrforge/train/tasks/det/det_maps.h"
#include "ocrforge/train/tasks/det/det_polygon.h"
#include "ocrforge/vision/det_resize.h"

namespace ocrforge {

struct DetNormalizeParams {
  double scale = 1.0 / 255.0;                      // NormalizeImage scale ("1./255." in configs)
  std::array<double, 3> mean{0.485, 0.456, 0.406};  // per channel in the image's order (BGR)
  std::array<double, 3> std{0.229, 0.224, 0.225};
};

struct DetTransformSpec {
  bool training = true;  // training: maps; evaluation: resize for test + ground truth
  // Training only:
  // CopyPaste listed: text regions of another training image pasted into
  // this one (det_copy_paste.h), before IaaAugment.
  bool use_copy_paste = false;
  DetCopyPasteParams copy_paste;
  bool use_iaa = false;  // IaaAugment listed
  std::vector<DetIaaStep> iaa = default_iaa_steps();
  bool use_crop = false;  // EastRandomCropData listed
  DetCropParams crop;
  // Resize listed (PaddleOCR's operators.py Resize, e.g. the DB ResNet50
  // TIPC config): the image stretched to `resize_size` (size: [h, w],
  // default [640, 640]; bilinear) and the polygons scaled with it, after
  // the crop and before the maps.
  bool use_resize = false;
  cv::Size resize_size{640, 640};  // width x height
  DetBorderMapParams border;  // MakeBorderMap (required for training)
  DetShrinkMapParams shrink;  // MakeShrinkMap (required for training)
  // Evaluation only: DetResizeForTest (required for evaluation), the
  // inference rule (vision/det_resize.h) so train-time eval equals `infer det`.
  DetResizeParams eval_resize{736, DetLimitType::Min, 4000};
  // DetResizeForTest image_shape [h, w] (PaddleOCR's resize_type 1, e.g.
  // det_mv3_db.yml's [736, 1280]): every image resized to exactly that size,
  // or, with keep_ratio, to height h and the width that keeps the aspect
  // ratio rounded up to a multiple of 32. Empty (0 x 0): eval_resize's limit rule.
  cv::Size eval_fixed_size{0, 0};
  bool eval_keep_ratio = false;
  // DetResizeForTest resize_long (PaddleOCR's resize_type 2, the seal
  // detection configs' 736): the longer side scaled to it (the width when
  // square), each side truncated and then rounded up to a multiple of 128.
  // 0: not used.
  int eval_resize_long = 0;
  DetNormalizeParams normalize;
  std::vector<std::string> keep_keys;  // as listed (informational: DetSample carries every key)
};

// The network input size of an evaluation image of size `src` under `spec`
// (image_shape when set, else resize_long when set, else the inference limit
// rule).
cv::Size det_eval_target_size(cv::Size src, const DetTransformSpec& spec);

// PaddleOCR's Resize: `img` stretched to `size` (bilinear), every polygon
// point scaled by the same factors per axis.
void det_resize_with_polygons(cv::Size size, cv::Mat* img, std::vector<DetPolygon>* polys);

// NormalizeImage (order hwc) + ToCHWImage: 8-bit 3-channel image ->
// 3 x H x W floats, (x * scale - mean[c]) / std[c] in float32 as NumPy does.
std::vector<float> det_normalize_to_chw(const cv::Mat& bgr, const DetNormalizeParams& p);

}  // namespace ocrforge
