// Geometry types shared by detection, cropping, drawing and metrics.
// Coordinates are pixels of the original image, x right, y down.
#pragma once
#include <array>
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

// Four corners, clockwise from top-left once ordered (order_points_clockwise).
using Quad = std::array<cv::Point2f, 4>;

struct TextBox {
  // Always 4 points for det_box_type "quad"; for "poly" the polygon outline
  // (>= 4 points) and `quad` holds its minimum-area rectangle for cropping.
  std::vector<cv::Point2f> polygon;
  Quad quad;
  float score = 0.f;  // mean shrink-map probability inside the box
};

}  // namespace ocrforge
