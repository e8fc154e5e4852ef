// Label polygon -> recognition crop (region_crop.h).
#include "ocrforge/vision/region_crop.h"

#include <algorithm>
#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/vision/box_order.h"
#include "ocrforge/vision/crop.h"
#include "ocrforge/vision/db_postprocess.h"

namespace ocrforge {

cv::Mat crop_label_region(const cv::Mat& image, const std::vector<std::array<float, 2>>& points, int min_side) {
  if (points.size() < 3 || image.empty()) return {};
  Quad quad;
  if (points.size() == 4) {
    for (size_t i = 0; i < 4; ++i) quad[i] = {points[i][0], points[i][1]};
    quad = order_points_clockwise(quad);
  } else {
    std::vector<cv::Point2f> pts;
    for (const auto& p : points) pts.emplace_back(p[0], p[1]);
    float short_side = 0;
    quad = mini_box(pts, &short_side);
  }
  // rotate_crop's own size rule: the longer of each pair of opposite edges.
  const auto len = [](cv::Point2f a, cv::Point2f b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const float w = std::max(len(quad[0], quad[1]), len(quad[2], quad[3]));
  const float h = std::max(len(quad[0], quad[3]), len(quad[1], quad[2]));
  if (!(w >= static_cast<float>(min_side)) || !(h >= static_cast<float>(min_side))) return {};
  // A label's text lies on its image: a region far larger than the image
  // has points far outside it, and its crop could take gigabytes.
  const double pixels = static_cast<double>(w) * h;
  const double limit = kMaxRegionImageRatio * static_cast<double>(image.total());
  if (!(pixels <= limit))
    throw Error("the region is " + std::to_string(std::lround(std::min<double>(w, 1e15))) + " x " +
                std::to_string(std::lround(std::min<double>(h, 1e15))) + " pixels, over " +
                std::to_string(static_cast<int>(kMaxRegionImageRatio)) + " times its image (" +
                std::to_string(image.cols) + " x " + std::to_string(image.rows) +
                "): its points lie far outside the image");
  return rotate_crop(image, quad);
}

}  // namespace ocrforge
