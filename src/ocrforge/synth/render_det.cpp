#include "ocrforge/synth/render_det.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/synth/augment.h"
#include "ocrforge/synth/det_layout.h"
#include "ocrforge/synth/render_line.h"

namespace ocrforge {

namespace {

double edge(const cv::Point2f& a, const cv::Point2f& b) { return std::hypot(a.x - b.x, a.y - b.y); }

// Ink rectangle in continuous coordinates: pixel i covers [i - 0.5, i + 0.5]
// in OpenCV's warp convention.
cv::Rect2d ink_extent(const cv::Rect& ink) { return cv::Rect2d(ink.x - 0.5, ink.y - 0.5, ink.width, ink.height); }

// Draws `m` onto `image` through the affine `to_image` with `colour`.
void paint_line(cv::Mat& image, const LineMask& m, const cv::Matx33d& to_image, const cv::Scalar& colour,
                double opacity) {
  std::vector<cv::Point2f> q = transform_points(to_image, rect_corners(ink_extent(m.ink)));
  cv::Rect roi = cv::boundingRect(q);
  roi = cv::Rect(roi.x - 2, roi.y - 2, roi.width + 4, roi.height + 4) & cv::Rect(0, 0, image.cols, image.rows);
  if (roi.empty()) return;
  const cv::Matx33d shifted = cv::Matx33d(1, 0, -roi.x, 0, 1, -roi.y, 0, 0, 1) * to_image;
  const cv::Matx23d affine(shifted(0, 0), shifted(0, 1), shifted(0, 2), shifted(1, 0), shifted(1, 1), shifted(1, 2));
  cv::Mat alpha;
  cv::warpAffine(m.alpha, alpha, cv::Mat(affine), roi.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
  cv::Mat target = image(roi);
  composite(target, alpha, colour, opacity);
}

}  // namespace

SynthDetSample render_det_sample(const SynthDetParams& p, const SynthSources& src, FontRenderers& fonts,
                            uint64_t index) {
  const SynthCommonParams& c = p.common;
  SampleRng rng(c.seed, index, /*stream=*/2);
  SynthDetSample s;
  const cv::Size size{rng.uniform_int(p.width), rng.uniform_int(p.height)};  // braces: width drawn first
  s.image = src.backgrounds.make(size, rng);
  DetLayout layout(size, rng.chance(p.scene_prob), rng);
  const double max_angle = layout.scene() ? p.scene_max_angle : p.doc_max_angle;
  const int n_lines = rng.uniform_int(p.lines);
  const double usable_w = size.width - 20.0;

  for (int i = 0; i < n_lines; ++i) {
    const ChosenText chosen = choose_text(src.text, src.fonts, rng, rng.uniform_int(p.words_per_line));
    const bool small = rng.chance(p.small_text_prob);
    const Range& px_range = small ? p.small_px : p.font_px;
    int px = rng.uniform_int(px_range);
    const double angle = rng.uniform(-max_angle, max_angle);
    const double opacity = rng.uniform(c.colour.opacity);
    const FontInfo& font = src.fonts.info(chosen.font);
    const std::string text = encode_utf8(chosen.text);
    LineMask m = render_line(fonts.get(chosen.font), font, text, px);
    if (m.ink.empty()) continue;
    if (m.ink.width > usable_w) {  // too long for the picture: smaller, if still in range
      px = static_cast<int>(px * usable_w / m.ink.width);
      if (px < px_range.lo) continue;
      m = render_line(fonts.get(chosen.font), font, text, px);
      if (m.ink.empty() || m.ink.width > usable_w) continue;
    }
    cv::Matx33d to_image;
    if (!layout.place(ink_extent(m.ink), m.line_box.height, angle, rng, &to_image)) continue;

    DetLine line;
    line.text = text;
    line.font = chosen.font;
    line.ignore = small;
    line.quad = transform_points(to_image, rect_corners(ink_extent(m.ink)));
    cv::Rect area = cv::boundingRect(line.quad) & cv::Rect(0, 0, size.width, size.height);
    const cv::Scalar colour = pick_text_colour(mean_luma(s.image(area)), c.colour, rng);
    paint_line(s.image, m, to_image, colour, opacity);
    s.lines.push_back(std::move(line));
  }

  // Whole-image perspective, kept only when every line stays inside.
  const bool persp = rng.chance(p.perspective_prob);
  const cv::Matx33d h = random_image_perspective(size, p.perspective, rng);
  if (persp) {
    bool inside = true;
    std::vector<std::vector<cv::Point2f>> moved;
    for (const auto& l : s.lines) {
      moved.push_back(transform_points(h, l.quad));
      for (const auto& q : moved.back())
        inside = inside && q.x >= 0 && q.y >= 0 && q.x <= size.width - 1 && q.y <= size.height - 1;
    }
    if (inside) {
      // Replicated borders: lines keep a margin from the edges, so only
      // background is smeared into the corners (reflection would mirror text).
      cv::warpPerspective(s.image, s.image, cv::Mat(h), size, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
      for (size_t i = 0; i < s.lines.size(); ++i) s.lines[i].quad = moved[i];
    }
  }
  for (auto& l : s.lines) {
    const auto& q = l.quad;
    const double height = std::min(edge(q[0], q[3]), edge(q[1], q[2]));
    if (height < p.min_text_size) l.ignore = true;
  }
  photometric_augment(s.image, c.augment, rng);
  s.jpeg_quality = draw_jpeg_quality(c.augment, rng);
  return s;
}

}  // namespace ocrforge
