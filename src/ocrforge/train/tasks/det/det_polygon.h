// Polygon helpers of the detection data pipeline (image pixels, x right,
// y down; any number of points, implicitly closed).
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

using DetPolygon = std::vector<cv::Point2f>;

// Unsigned shoelace area and closed perimeter, in double (Shapely's area and length).
double det_polygon_area(const DetPolygon& poly);
double det_polygon_perimeter(const DetPolygon& poly);

// Clipper offset with round joins on the closed polygon, as PaddleOCR's
// pyclipper calls: coordinates truncated to integers, positive `distance`
// grows, negative shrinks. Every resulting path, in Clipper's order (empty
// when the polygon vanishes).
std::vector<DetPolygon> det_offset_polygon(const DetPolygon& poly, double distance);

// Clamps every point into [0, w-1] x [0, h-1]; true when a point moved.
bool det_clip_polygon(DetPolygon* poly, cv::Size image);

// Drops points equal to their predecessor (also last == first), so clipping
// a corner away does not leave zero-length edges.
void det_drop_repeated_points(DetPolygon* poly);

// Integer points for cv::fillPoly, truncated toward zero as NumPy's astype(int32).
std::vector<cv::Point> det_int_points(const DetPolygon& poly);

}  // namespace ocrforge
