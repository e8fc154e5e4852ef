// Where the text lines of a detection sample go. Two styles:
//   document: lines stacked top to bottom from a left margin (some indented),
//             nearly horizontal;
//   scene:    lines anywhere, at larger angles.
// Lines never overlap and keep ~0.6 line heights of space between them (so
// the detector sees separate lines, as the labels say), and every line lies
// inside the image with a margin.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/synth/random.h"

namespace ocrforge {

class DetLayout {
 public:
  DetLayout(cv::Size image_size, bool scene, SampleRng& rng);

  // Finds a place for a line whose ink occupies `ink` (in its mask's
  // coordinates), rotated by `angle_deg` about the ink centre. On success
  // returns true, sets `to_image` (mask -> image, affine) and reserves the
  // space. `line_h` is the font's line height (spacing is derived from it).
  bool place(const cv::Rect2d& ink, double line_h, double angle_deg, SampleRng& rng, cv::Matx33d* to_image);

  bool scene() const { return scene_; }

 private:
  bool try_at(const cv::Rect2d& ink, double line_h, const cv::Matx33d& m);

  cv::Size size_;
  bool scene_;
  cv::Mat occupied_;  // 8-bit, non-zero where a line (with its spacing) is
  double cursor_y_ = 0, left_x_ = 0;  // document style
};

// The four corners of `r`, clockwise from top-left.
std::vector<cv::Point2f> rect_corners(const cv::Rect2d& r);

}  // namespace ocrforge
