#include "ocrforge/synth/render_rec.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/synth/augment.h"
#include "ocrforge/synth/render_line.h"

namespace ocrforge {

SynthRecSample render_rec_sample(const SynthRecParams& p, const SynthSources& src, FontRenderers& fonts,
                            uint64_t index) {
  const SynthCommonParams& c = p.common;
  SampleRng rng(c.seed, index, /*stream=*/1);
  SynthRecSample s;
  // Font size such that the line box is `ratio` of the output height.
  const double ratio = std::clamp(rng.uniform(p.text_height), 0.2, 1.0);
  LineMask m;
  for (int attempt = 0; m.ink.empty(); ++attempt) {
    // A text that leaves no ink (say "." in a font whose dot vanishes at this
    // size) would get a label with nothing to read: draw another.
    if (attempt == 8) throw Error("no ink drawn for 8 texts in a row (sample " + std::to_string(index) + ")");
    const ChosenText chosen = choose_text(src.text, src.fonts, rng, 3);
    s.text = encode_utf8(chosen.text);
    s.font = chosen.font;
    const FontInfo& font = src.fonts.info(s.font);
    const int px = std::max(4, static_cast<int>(std::lround(p.height * ratio / (font.ascent + font.descent))));
    m = render_line(fonts.get(s.font), font, s.text, px);
  }
  if (rng.chance(c.augment.underline_prob)) draw_underline(m, rng);
  if (rng.chance(c.augment.border_prob)) draw_frame(m, rng);

  // Crop = line box + margins; vertical margins make the line box `ratio`
  // of the crop, split unevenly between top and bottom.
  const double lh = m.line_box.height;
  const double extra_y = lh * (1.0 / ratio - 1.0), top_share = rng.uniform(0.35, 0.65);
  const double left = rng.uniform(p.margin_x) * lh, right = rng.uniform(p.margin_x) * lh;
  const cv::Rect2d crop(m.line_box.x - left, m.line_box.y - extra_y * top_share,
                        m.line_box.width + left + right, lh + extra_y);

  cv::Size warped;
  const cv::Matx33d warp = random_line_warp(crop, c.augment.max_rotate_deg, c.augment.max_shear,
                                            c.augment.max_perspective, rng, &warped);
  // Scale the warped crop to the output height in the same transform.
  const double scale = static_cast<double>(p.height) / warped.height;
  const cv::Size out(std::max(1, static_cast<int>(std::lround(warped.width * scale))), p.height);
  const cv::Matx33d to_out = cv::Matx33d(scale, 0, 0, 0, scale, 0, 0, 0, 1) * warp;
  cv::Mat alpha;
  cv::warpPerspective(m.alpha, alpha, cv::Mat(to_out), out, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));

  s.image = src.backgrounds.make(out, rng);
  const cv::Scalar colour = pick_text_colour(mean_luma(s.image), c.colour, rng);
  composite(s.image, alpha, colour, rng.uniform(c.colour.opacity));
  photometric_augment(s.image, c.augment, rng);
  s.jpeg_quality = draw_jpeg_quality(c.augment, rng);
  return s;
}

}  // namespace ocrforge
