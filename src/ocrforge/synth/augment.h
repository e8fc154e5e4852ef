// Augmentations of synthetic samples. Geometry is expressed as 3x3 matrices
// (homographies) so that label geometry is transformed by exactly the matrix
// applied to the pixels: label polygons stay tight around the drawn text.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/synth/params.h"
#include "ocrforge/synth/random.h"

namespace ocrforge {

// Maps `box` (a rectangle in some source image) to an output whose bounding
// box starts at (0, 0): horizontal shear (x += s * (y - cy), |s| <= max_shear),
// rotation by up to max_rotate_deg about the centre, then each corner moved
// by up to max_perspective of the box height (in x and y). `out_size` gets the bounding box
// size of the result (rounded up).
cv::Matx33d random_line_warp(const cv::Rect2d& box, double max_rotate_deg, double max_shear,
                             double max_perspective, SampleRng& rng, cv::Size* out_size);

// Applies a homography to points.
std::vector<cv::Point2f> transform_points(const cv::Matx33d& h, const std::vector<cv::Point2f>& pts);

// A whole-image perspective for `size`: each corner moved by up to
// `strength` of the image size. The caller transforms its labels with it.
cv::Matx33d random_image_perspective(cv::Size size, double strength, SampleRng& rng);

// Gaussian blur and additive Gaussian noise with the configured
// probabilities and strengths, in place (BGR 8-bit).
void photometric_augment(cv::Mat& bgr, const SynthAugmentParams& p, SampleRng& rng);

// JPEG quality for this sample (drawn even for PNG output, so the random
// stream, and thus every other choice, does not depend on the format).
int draw_jpeg_quality(const SynthAugmentParams& p, SampleRng& rng);

}  // namespace ocrforge
