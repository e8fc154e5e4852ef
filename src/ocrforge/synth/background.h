// Backgrounds and colours of synthetic text: flat, gradient and noise
// textures generated from the sample's random numbers, or crops of real
// pictures from a user folder; text colours chosen against the luma of the
// background under them so that contrast never falls below min_contrast.
#pragma once
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/synth/params.h"
#include "ocrforge/synth/random.h"

namespace ocrforge {

// Rec. 601 luma of a BGR colour, 0..255.
inline double luma(const cv::Scalar& bgr) { return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]; }

class Backgrounds {
 public:
  // Decodes the pictures of p.bg_dir once (longer side capped at 1024 px).
  // A picture that cannot be decoded, or is too thin to crop a background
  // from (a 5000 x 1 strip), is left out and listed in skipped(); throws
  // Error only when bg_dir is given and no picture is usable.
  Backgrounds(const SynthBackgroundParams& p, const SynthColourParams& colour);

  // A BGR 8-bit background of `size`.
  cv::Mat make(cv::Size size, SampleRng& rng) const;
  size_t picture_count() const { return pictures_.size(); }
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  cv::Mat flat(cv::Size size, double base_luma, SampleRng& rng) const;
  cv::Mat gradient(cv::Size size, double base_luma, SampleRng& rng) const;
  cv::Mat noise(cv::Size size, double base_luma, SampleRng& rng) const;
  cv::Mat picture(cv::Size size, SampleRng& rng) const;

  SynthBackgroundParams p_;
  SynthColourParams colour_;
  std::vector<cv::Mat> pictures_;
  std::vector<std::string> skipped_;
};

// A colour of about `target_luma`; tinted (random hue) or grey.
cv::Scalar colour_with_luma(double target_luma, bool tinted, SampleRng& rng);
// Text colour for a background of mean luma `bg_luma`: darker text on light
// backgrounds, lighter on dark ones, at least min_contrast apart when possible.
cv::Scalar pick_text_colour(double bg_luma, const SynthColourParams& p, SampleRng& rng);
// Mean luma of a BGR region.
double mean_luma(const cv::Mat& bgr);

// dst = dst * (1 - a) + colour * a with a = alpha / 255 * opacity, in place.
// `alpha` is 8-bit, the size of `dst` (a BGR 8-bit image or ROI).
void composite(cv::Mat& dst, const cv::Mat& alpha, const cv::Scalar& colour, double opacity);

}  // namespace ocrforge
