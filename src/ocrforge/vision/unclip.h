// DB's box expansion: offsets a polygon outward by
// distance = area * unclip_ratio / perimeter, with Clipper's round joins on a
// closed polygon (the same library and settings as PaddleOCR's pyclipper).
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

// Returns the expanded polygon (the largest one if Clipper yields several;
// empty when the input is degenerate).
std::vector<cv::Point2f> unclip(const std::vector<cv::Point2f>& polygon, float unclip_ratio);

// All polygons Clipper returns, in its order (PaddleOCR's poly mode drops a
// box unless there is exactly one); empty when the input is degenerate.
std::vector<std::vector<cv::Point2f>> unclip_paths(const std::vector<cv::Point2f>& polygon,
                                                   float unclip_ratio);

}  // namespace ocrforge
