#include "ocrforge/synth/background.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"

namespace ocrforge {

namespace {

// A picture's shorter side must keep this many pixels (after the 1024 cap)
// for crops of any aspect to be cut from it.
constexpr int kMinPictureSide = 8;

uchar clamp_u8(double v) { return static_cast<uchar>(std::clamp(std::lround(v), 0L, 255L)); }

// Background luma for the sample's polarity: light for dark text, dark for
// light text, leaving room for min_contrast between the two.
double base_luma(const SynthColourParams& c, SampleRng& rng) {
  const double gap = std::clamp(c.min_contrast, 0.0, 200.0);
  return rng.chance(c.dark_text_prob) ? rng.uniform(std::min(255.0, gap + 60), 255.0)
                                      : rng.uniform(0.0, std::max(0.0, 195.0 - gap));
}

}  // namespace

double mean_luma(const cv::Mat& bgr) { return bgr.empty() ? 0.0 : luma(cv::mean(bgr)); }

cv::Scalar colour_with_luma(double target_luma, bool tinted, SampleRng& rng) {
  cv::Scalar c(0, 0, 0);
  if (tinted)
    for (int i = 0; i < 3; ++i) c[i] = rng.uniform(-70.0, 70.0);
  const double shift = target_luma - luma(c);
  for (int i = 0; i < 3; ++i) c[i] = std::clamp(c[i] + shift, 0.0, 255.0);
  return c;
}

cv::Scalar pick_text_colour(double bg_luma, const SynthColourParams& p, SampleRng& rng) {
  const bool dark = bg_luma >= 128;
  const double target = dark ? rng.uniform(0.0, std::max(0.0, bg_luma - p.min_contrast))
                             : rng.uniform(std::min(255.0, bg_luma + p.min_contrast), 255.0);
  cv::Scalar c = colour_with_luma(target, rng.chance(p.colour_prob), rng);
  // Clamping a tinted colour can eat contrast: fall back to grey then.
  if (std::fabs(luma(c) - bg_luma) < p.min_contrast) c = colour_with_luma(target, false, rng);
  return c;
}

void composite(cv::Mat& dst, const cv::Mat& alpha, const cv::Scalar& colour, double opacity) {
  CV_Assert(dst.type() == CV_8UC3 && alpha.type() == CV_8UC1 && dst.size() == alpha.size());
  const float k = static_cast<float>(opacity / 255.0);
  const float cb = static_cast<float>(colour[0]), cg = static_cast<float>(colour[1]);
  const float cr = static_cast<float>(colour[2]);
  for (int y = 0; y < dst.rows; ++y) {
    auto* d = dst.ptr<uchar>(y);
    const uchar* a = alpha.ptr<uchar>(y);
    for (int x = 0; x < dst.cols; ++x, d += 3) {
      if (!a[x]) continue;
      const float w = a[x] * k;
      d[0] = static_cast<uchar>(d[0] + (cb - d[0]) * w + 0.5f);
      d[1] = static_cast<uchar>(d[1] + (cg - d[1]) * w + 0.5f);
      d[2] = static_cast<uchar>(d[2] + (cr - d[2]) * w + 0.5f);
    }
  }
}

Backgrounds::Backgrounds(const SynthBackgroundParams& p, const SynthColourParams& colour) : p_(p), colour_(colour) {
  if (p_.bg_dir.empty()) return;
  for (const std::string& path : list_images(p_.bg_dir)) {
    // One bad picture is left out alone, named; the run goes on.
    try {
      cv::Mat img = cv::imread(path, cv::IMREAD_COLOR);
      if (img.empty()) {
        skipped_.push_back("'" + path + "': not a readable image");
        continue;
      }
      const double s = 1024.0 / std::max(img.cols, img.rows);
      if (std::min(img.cols, img.rows) * std::min(s, 1.0) < kMinPictureSide) {
        skipped_.push_back("'" + path + "': " + std::to_string(img.cols) + " x " + std::to_string(img.rows) +
                           " is too thin to crop a background from (under " + std::to_string(kMinPictureSide) +
                           " px once its longer side is at most 1024)");
        continue;
      }
      if (s < 1) cv::resize(img, img, cv::Size(), s, s, cv::INTER_AREA);
      pictures_.push_back(img);
    } catch (const std::exception& e) {
      skipped_.push_back("'" + path + "': " + e.what());
    }
  }
  if (pictures_.empty())
    throw Error("background folder '" + p_.bg_dir + "' holds no usable image (--bg_dir)" +
                (skipped_.empty() ? std::string() : "; " + skipped_[0]));
}

cv::Mat Backgrounds::make(cv::Size size, SampleRng& rng) const {
  const size_t kind = rng.weighted({p_.flat, p_.gradient, p_.noise, pictures_.empty() ? 0.0 : p_.image});
  if (kind == 3) return picture(size, rng);
  const double base = base_luma(colour_, rng);
  if (kind == 1) return gradient(size, base, rng);
  if (kind == 2) return noise(size, base, rng);
  return flat(size, base, rng);
}

cv::Mat Backgrounds::flat(cv::Size size, double base, SampleRng& rng) const {
  return cv::Mat(size, CV_8UC3, colour_with_luma(base, rng.chance(colour_.colour_prob), rng));
}

cv::Mat Backgrounds::gradient(cv::Size size, double base, SampleRng& rng) const {
  // Two colours whose lumas stay within +-30 of the base, ramped along a random direction.
  const bool tint = rng.chance(colour_.colour_prob);
  const cv::Scalar a = colour_with_luma(std::clamp(base + rng.uniform(-30, 30), 0.0, 255.0), tint, rng);
  const cv::Scalar b = colour_with_luma(std::clamp(base + rng.uniform(-30, 30), 0.0, 255.0), tint, rng);
  const double ang = rng.uniform(0, 2 * CV_PI), dx = std::cos(ang), dy = std::sin(ang);
  const double span = std::fabs(dx) * size.width + std::fabs(dy) * size.height + 1e-6;
  const double off = (dx < 0 ? -dx * size.width : 0) + (dy < 0 ? -dy * size.height : 0);
  cv::Mat out(size, CV_8UC3);
  for (int y = 0; y < size.height; ++y) {
    auto* d = out.ptr<uchar>(y);
    for (int x = 0; x < size.width; ++x, d += 3) {
      const double t = (x * dx + y * dy + off) / span;
      for (int c = 0; c < 3; ++c) d[c] = clamp_u8(a[c] + (b[c] - a[c]) * t);
    }
  }
  return out;
}

cv::Mat Backgrounds::noise(cv::Size size, double base, SampleRng& rng) const {
  // Low-frequency blotches (paper, plaster): a coarse random grid, smoothly upsampled.
  cv::Mat out = flat(size, base, rng);
  const int cell = rng.uniform_int(12, 40);
  cv::Mat grid(size.height / cell + 2, size.width / cell + 2, CV_32F);
  rng.cv_rng().fill(grid, cv::RNG::NORMAL, 0.0, rng.uniform(6.0, 16.0));
  cv::Mat smooth;
  cv::resize(grid, smooth, size, 0, 0, cv::INTER_CUBIC);
  for (int y = 0; y < size.height; ++y) {
    auto* d = out.ptr<uchar>(y);
    const float* n = smooth.ptr<float>(y);
    for (int x = 0; x < size.width; ++x, d += 3)
      for (int c = 0; c < 3; ++c) d[c] = clamp_u8(d[c] + n[x]);
  }
  return out;
}

cv::Mat Backgrounds::picture(cv::Size size, SampleRng& rng) const {
  const cv::Mat& src = pictures_[rng.index(pictures_.size())];
  // Crop a region with the target's aspect ratio, as large as 30..100% of
  // what fits, then resize it to the target size.
  const double aspect = static_cast<double>(size.width) / size.height;
  int cw = src.cols, ch = static_cast<int>(cw / aspect);
  if (ch > src.rows) {
    ch = src.rows;
    cw = std::max(1, static_cast<int>(ch * aspect));
  }
  const double f = rng.uniform(0.3, 1.0);
  cw = std::max(1, static_cast<int>(cw * f));
  ch = std::max(1, static_cast<int>(ch * f));
  const int x = rng.uniform_int(0, src.cols - cw), y = rng.uniform_int(0, src.rows - ch);
  cv::Mat out;
  cv::resize(src(cv::Rect(x, y, cw, ch)), out, size, 0, 0, cv::INTER_AREA);
  // Wash toward the mean colour: texture stays, but text on top stays legible.
  const double wash = rng.uniform(p_.image_wash);
  const cv::Scalar m = cv::mean(out);
  cv::addWeighted(out, 1.0 - wash, cv::Mat(size, CV_8UC3, m), wash, 0.0, out);
  return out;
}

}  // namespace ocrforge
