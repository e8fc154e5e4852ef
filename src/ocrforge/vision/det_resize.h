// PaddleOCR's DetResizeForTest (limit_type "max" / "min") plus PaddleOCR 3.x's
// max_side_limit cap, and ImageNet normalisation into an NCHW float buffer.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

enum class DetLimitType { Max, Min };

struct DetResizeParams {
  int limit_side_len = 960;
  DetLimitType limit_type = DetLimitType::Max;
  int max_side_limit = 4000;  // no side of the network input exceeds this
};

// Target size for the detector: "max" shrinks so the longer side <= limit,
// "min" enlarges so the shorter side >= limit; then the cap; then each side
// rounded to a multiple of 32 (round half to even like Python's round), at least 32.
cv::Size det_target_size(cv::Size src, const DetResizeParams& p);

struct DetInput {
  std::vector<float> chw;  // 3 x H x W, BGR channel order as PaddleOCR feeds it
  cv::Size size;           // W x H of the network input
  float ratio_h = 1.f;     // input_h / src_h
  float ratio_w = 1.f;     // input_w / src_w
};

// Resize (bilinear) + (x/255 - mean) / std with mean (0.485, 0.456, 0.406),
// std (0.229, 0.224, 0.225) applied to channels in B, G, R order (PaddleOCR
// does not swap to RGB). `bgr` is 8-bit, 3 channels.
DetInput det_preprocess(const cv::Mat& bgr, const DetResizeParams& p);

// The same, into buffers the caller keeps between calls: `out.chw` and
// `resized_bytes` (the resized 8-bit image) are resized, never shrunk, so a
// detector that reuses them touches no fresh pages per image (a fresh input
// buffer served by mmap faults in every page again, which dominated det
// preprocessing). Results are identical to det_preprocess's.
void det_preprocess_into(const cv::Mat& bgr, const DetResizeParams& p, DetInput& out,
                         std::vector<unsigned char>& resized_bytes);

}  // namespace ocrforge
