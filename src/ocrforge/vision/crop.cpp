// PaddleOCR's get_rotate_crop_image and the 180-degree flip of the angle
// classifier.
#include "ocrforge/vision/crop.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

// np.linalg.norm on float32 points is computed in float32.
float edge(const cv::Point2f& a, const cv::Point2f& b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

cv::Mat rotate_crop(const cv::Mat& image, const Quad& quad) {
  if (image.empty()) throw Error("rotate_crop: the image is empty");
  // PaddleOCR never gets here with a side below 4 (filter_det_boxes); a
  // 1-pixel floor keeps degenerate boxes from making OpenCV throw.
  const int w = std::max(1, static_cast<int>(std::max(edge(quad[0], quad[1]), edge(quad[2], quad[3]))));
  const int h = std::max(1, static_cast<int>(std::max(edge(quad[0], quad[3]), edge(quad[1], quad[2]))));
  const cv::Point2f dst[4] = {{0.f, 0.f},
                              {static_cast<float>(w), 0.f},
                              {static_cast<float>(w), static_cast<float>(h)},
                              {0.f, static_cast<float>(h)}};
  const cv::Mat m = cv::getPerspectiveTransform(quad.data(), dst);
  cv::Mat crop;
  cv::warpPerspective(image, crop, m, cv::Size(w, h), cv::INTER_CUBIC, cv::BORDER_REPLICATE);
  // Vertical text lines are turned to read horizontally (np.rot90 = CCW).
  if (crop.rows * 1.0 / crop.cols >= 1.5) cv::rotate(crop, crop, cv::ROTATE_90_COUNTERCLOCKWISE);
  return crop;
}

cv::Mat rotate_180(const cv::Mat& crop) {
  cv::Mat out;
  cv::rotate(crop, out, cv::ROTATE_180);
  return out;
}

}  // namespace ocrforge
