// DB's training targets (PaddleOCR's MakeBorderMap and MakeShrinkMap).
// All maps are H x W CV_32F in the (augmented, cropped) image's pixels.
//
// MakeBorderMap: every cared-for polygon is grown by
//   D = area * (1 - shrink_ratio^2) / perimeter
// (Clipper, round joins); inside the grown polygon threshold_mask is 1, and
// threshold_map = thresh_min + (thresh_max - thresh_min) * (1 - min(1, dist / D)),
// dist being the distance to the nearest polygon edge, computed as PaddleOCR
// does (perpendicular distance when the pixel sees the edge under an obtuse
// angle, else the distance to the nearer end point); the maximum is kept
// where polygons overlap. Elsewhere threshold_map is thresh_min.
//
// MakeShrinkMap: polygons are clamped into the image; one with |area| < 1,
// marked ignore, or whose box is thinner than min_text_size is zeroed in
// shrink_mask (1 elsewhere); others are shrunk by D (same formula) and
// filled with 1 in shrink_map. If Clipper splits the polygon, the ratio is
// raised (shrink_ratio, 2*shrink_ratio, ... < 1) until it does not; if
// nothing is left, the polygon is masked out as ignored.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/train/tasks/det/det_data_stats.h"
#include "ocrforge/train/tasks/det/det_polygon.h"

namespace ocrforge {

struct DetBorderMapParams {
  double shrink_ratio = 0.4;
  double thresh_min = 0.3;
  double thresh_max = 0.7;
};

struct DetShrinkMapParams {
  double shrink_ratio = 0.4;
  int min_text_size = 8;  // pixels: a shorter box side than this is ignored
};

// `ignore[i]` true skips polygon i. Outputs are (re)allocated to `size`.
void make_border_map(cv::Size size, const std::vector<DetPolygon>& polys, const std::vector<bool>& ignore,
                     const DetBorderMapParams& p, cv::Mat* threshold_map, cv::Mat* threshold_mask);

// Works on copies of `polys` / `ignore` (clamping is local, as MakeBorderMap
// ran on the unclamped ones in PaddleOCR's order). Adds too_small and
// shrink_failed to *stats (may be null).
void make_shrink_map(cv::Size size, std::vector<DetPolygon> polys, std::vector<bool> ignore,
                     const DetShrinkMapParams& p, cv::Mat* shrink_map, cv::Mat* shrink_mask, DetDataStats* stats);

// PaddleOCR's point-to-edge distance used by the border map (see above).
double det_border_distance(double x, double y, cv::Point2d a, cv::Point2d b);

}  // namespace ocrforge
