#include "ocrforge/synth/augment.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace ocrforge {

std::vector<cv::Point2f> transform_points(const cv::Matx33d& h, const std::vector<cv::Point2f>& pts) {
  std::vector<cv::Point2f> out;
  out.reserve(pts.size());
  for (const auto& p : pts) {
    const cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1.0);
    out.emplace_back(static_cast<float>(v[0] / v[2]), static_cast<float>(v[1] / v[2]));
  }
  return out;
}

cv::Matx33d random_line_warp(const cv::Rect2d& box, double max_rotate_deg, double max_shear,
                             double max_perspective, SampleRng& rng, cv::Size* out_size) {
  const double cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const double shear = rng.uniform(-max_shear, max_shear);
  const double ang = rng.uniform(-max_rotate_deg, max_rotate_deg) * CV_PI / 180.0;
  const double c = std::cos(ang), s = std::sin(ang);
  // Shear and rotation about the centre: an affine map.
  const cv::Matx33d to_centre(1, 0, -cx, 0, 1, -cy, 0, 0, 1);
  const cv::Matx33d shear_m(1, shear, 0, 0, 1, 0, 0, 0, 1);
  const cv::Matx33d rot(c, -s, 0, s, c, 0, 0, 0, 1);
  const cv::Matx33d affine = rot * shear_m * to_centre;

  const std::vector<cv::Point2f> src{{static_cast<float>(box.x), static_cast<float>(box.y)},
                                     {static_cast<float>(box.x + box.width), static_cast<float>(box.y)},
                                     {static_cast<float>(box.x + box.width), static_cast<float>(box.y + box.height)},
                                     {static_cast<float>(box.x), static_cast<float>(box.y + box.height)}};
  std::vector<cv::Point2f> dst = transform_points(affine, src);
  // Perspective: jitter the corners by a fraction of the line height, in x
  // and y alike. (A fraction of the width would slant the far end of a long
  // line like italics while its start stays upright.)
  const double j = max_perspective * box.height;
  for (auto& p : dst) {
    p.x += static_cast<float>(rng.uniform(-j, j));
    p.y += static_cast<float>(rng.uniform(-j, j));
  }
  float min_x = dst[0].x, min_y = dst[0].y, max_x = dst[0].x, max_y = dst[0].y;
  for (const auto& p : dst) {
    min_x = std::min(min_x, p.x), min_y = std::min(min_y, p.y);
    max_x = std::max(max_x, p.x), max_y = std::max(max_y, p.y);
  }
  for (auto& p : dst) p -= cv::Point2f(min_x, min_y);
  *out_size = cv::Size(std::max(1, static_cast<int>(std::ceil(max_x - min_x))),
                       std::max(1, static_cast<int>(std::ceil(max_y - min_y))));
  return cv::Matx33d(cv::getPerspectiveTransform(src, dst));
}

cv::Matx33d random_image_perspective(cv::Size size, double strength, SampleRng& rng) {
  const float w = static_cast<float>(size.width), h = static_cast<float>(size.height);
  const std::vector<cv::Point2f> src{{0, 0}, {w, 0}, {w, h}, {0, h}};
  std::vector<cv::Point2f> dst = src;
  for (auto& p : dst) {
    p.x += static_cast<float>(rng.uniform(-strength, strength) * w);
    p.y += static_cast<float>(rng.uniform(-strength, strength) * h);
  }
  return cv::Matx33d(cv::getPerspectiveTransform(src, dst));
}

void photometric_augment(cv::Mat& bgr, const SynthAugmentParams& p, SampleRng& rng) {
  // Draw every number whether or not it is used: the stream stays aligned.
  const bool blur = rng.chance(p.blur_prob);
  const double sigma = rng.uniform(p.blur_sigma);
  const bool noise = rng.chance(p.noise_prob);
  const double noise_sigma = rng.uniform(p.noise_sigma);
  if (blur && sigma > 0) cv::GaussianBlur(bgr, bgr, cv::Size(0, 0), sigma, sigma, cv::BORDER_REPLICATE);
  if (noise && noise_sigma > 0) {
    cv::Mat n(bgr.size(), CV_16SC3);
    rng.cv_rng().fill(n, cv::RNG::NORMAL, 0.0, noise_sigma);
    cv::Mat wide;
    bgr.convertTo(wide, CV_16SC3);
    wide += n;
    wide.convertTo(bgr, CV_8UC3);  // saturating
  }
}

int draw_jpeg_quality(const SynthAugmentParams& p, SampleRng& rng) {
  return std::clamp(rng.uniform_int(p.jpeg_quality), 1, 100);
}

}  // namespace ocrforge
