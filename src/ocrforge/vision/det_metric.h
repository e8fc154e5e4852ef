// Detection metric (PaddleOCR's DetMetric / DetectionIoUEvaluator):
//   - invalid polygons (fewer than 3 points, zero area, self-intersecting)
//     are skipped, ground truth and detections alike;
//   - a detection whose area lies more than `area_precision` (0.5) inside an
//     ignored ground-truth region ("###") is dropped (neither right nor wrong);
//   - greedy one-to-one matching in ground-truth order, then detection order:
//     a pair matches when IoU > `iou` (0.5) and neither is taken or ignored;
//   - precision, recall and hmean are summed over the data set (matched /
//     cared-for counts), not averaged per image.
// Polygon areas and intersections use Clipper (the library behind pyclipper).
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

// The most points a polygon may have here: the validity check compares
// every pair of edges (quadratic), and no text region needs more (labels
// have 4 to a few dozen). Callers reading polygons from files refuse
// longer ones by name; evaluate_det_image counts them as invalid.
constexpr size_t kMaxMetricPolygonPoints = 4096;

struct DetGtPolygon {
  std::vector<cv::Point2f> points;
  bool ignore = false;  // "###" / "*" transcription
};

struct DetImageCounts {
  long gt_care = 0;   // valid ground-truth polygons not ignored
  long det_care = 0;  // valid detections not dropped as inside an ignored region
  long matched = 0;
};

struct DetMetricParams {
  double iou = 0.5;             // a match needs IoU strictly above this
  double area_precision = 0.5;  // a detection more inside an ignored region than this is dropped
};

DetImageCounts evaluate_det_image(const std::vector<DetGtPolygon>& gt,
                                  const std::vector<std::vector<cv::Point2f>>& det,
                                  const DetMetricParams& p = {});

class DetMetric {
 public:
  explicit DetMetric(DetMetricParams p = {}) : params_(p) {}
  // Adds one image; returns its counts.
  DetImageCounts add(const std::vector<DetGtPolygon>& gt, const std::vector<std::vector<cv::Point2f>>& det);
  // 0 when there is nothing to divide by (as PaddleOCR's combine_results).
  double precision() const;
  double recall() const;
  double hmean() const;
  const DetImageCounts& totals() const { return totals_; }
  void reset() { totals_ = {}; }

 private:
  DetMetricParams params_;
  DetImageCounts totals_;
};

// Geometry helpers (pixels). Area is unsigned; intersection of two simple polygons.
double polygon_area(const std::vector<cv::Point2f>& poly);
double polygon_intersection_area(const std::vector<cv::Point2f>& a, const std::vector<cv::Point2f>& b);
// Shapely's is_valid for a ring: >= 3 points, non-zero area, no two
// non-adjacent edges touching; false for more than kMaxMetricPolygonPoints.
bool polygon_is_valid(const std::vector<cv::Point2f>& poly);

}  // namespace ocrforge
