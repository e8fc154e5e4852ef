// DB post-processing (PaddleOCR's DBPostProcess): shrink-probability map ->
// text boxes in original-image coordinates.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/vision/text_box.h"

namespace ocrforge {

enum class DbScoreMode { Fast, Slow };
enum class DetBoxType { Quad, Poly };

// The largest unclip ratio accepted (flags, requests). PaddleOCR's configs
// use 1.5 to 4; the offset distance grows with it, and with it the polygon
// Clipper makes (its round joins add vertices as the distance grows), so an
// unbounded ratio is a way to make one request take seconds and gigabytes.
constexpr float kMaxUnclipRatio = 10.f;

struct DbPostParams {
  float thresh = 0.3f;        // binarisation of the probability map
  float box_thresh = 0.6f;    // minimum box score
  float unclip_ratio = 1.5f;  // offset distance = area * ratio / perimeter
  int max_candidates = 1000;
  bool use_dilation = false;  // 2x2 dilation of the binary map
  DbScoreMode score_mode = DbScoreMode::Fast;
  DetBoxType box_type = DetBoxType::Quad;
};

// `prob`: CV_32F, H x W, the detector's shrink map for one image (input size).
// `src_size`: the original image size; boxes are scaled back to it and
// clipped to its bounds. Quad mode: binarise -> external contours ->
// min-area box (skip short side < 3) -> score (fast: mean inside the box,
// slow: mean inside the contour) -> skip < box_thresh -> unclip -> min-area
// box (skip short side < 5) -> scale + clip. Output points are the min-area
// box corners in PaddleOCR's get_mini_boxes order (top-left first, clockwise).
std::vector<TextBox> db_postprocess(const cv::Mat& prob, cv::Size src_size, const DbPostParams& p);

// Mean of `prob` inside the polygon (used by both score modes).
float polygon_score(const cv::Mat& prob, const std::vector<cv::Point2f>& polygon);

// PaddleOCR's get_mini_boxes: min-area rectangle of `points`, corners ordered
// top-left, top-right, bottom-right, bottom-left; `short_side` gets its
// shorter side length.
Quad mini_box(const std::vector<cv::Point2f>& points, float* short_side);

}  // namespace ocrforge
