#include "ocrforge/train/data/rand_augment.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_yaml.h"

namespace ocrforge {
namespace {

constexpr double kFill = 128;  // PaddleOCR's fillcolor (128, 128, 128)

// PIL's affine transform: output pixel (x, y) reads the input at
// (a (x + .5) + b (y + .5) + c, ...) with pixel centres at +.5; OpenCV's
// inverse map puts centres at integers, hence the half-pixel shifts.
cv::Mat pil_affine(const cv::Mat& img, double a, double b, double c, double d, double e, double f, int interp) {
  const cv::Matx23d m(a, b, c + 0.5 * (a + b) - 0.5, d, e, f + 0.5 * (d + e) - 0.5);
  cv::Mat out;
  cv::warpAffine(img, out, m, img.size(), interp | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT,
                 cv::Scalar::all(kFill));
  return out;
}

// PIL's Image.rotate(degrees): counter-clockwise about the centre, nearest
// pixel, same size; the corners it uncovers become grey (PaddleOCR's
// rotate_with_fill composites them over 128).
cv::Mat pil_rotate(const cv::Mat& img, double degrees) {
  const double t = -degrees * CV_PI / 180.0;
  const double a = std::cos(t), b = std::sin(t), d = -std::sin(t), e = std::cos(t);
  const double cx = img.cols / 2.0, cy = img.rows / 2.0;
  const double c = a * -cx + b * -cy + cx, f = d * -cx + e * -cy + cy;
  return pil_affine(img, a, b, c, d, e, f, cv::INTER_NEAREST);
}

// PIL's L conversion of three 8-bit channels (ITU-R 601-2 weights, rounded).
cv::Mat pil_grey(const cv::Mat& img) {
  cv::Mat grey(img.size(), CV_8UC1);
  for (int y = 0; y < img.rows; ++y) {
    const auto* p = img.ptr<cv::Vec3b>(y);
    auto* q = grey.ptr<uchar>(y);
    for (int x = 0; x < img.cols; ++x)
      q[x] = static_cast<uchar>((p[x][0] * 19595 + p[x][1] * 38470 + p[x][2] * 7471 + 0x8000) >> 16);
  }
  return grey;
}

// PIL's Image.blend(degenerate, img, factor): degenerate + factor (img -
// degenerate), truncated to an integer, then clipped to 0..255.
cv::Mat pil_blend(const cv::Mat& degenerate, const cv::Mat& img, double factor) {
  cv::Mat out(img.size(), img.type());
  const int n = img.rows * img.cols * img.channels();
  const uchar* d = degenerate.ptr<uchar>();
  const uchar* s = img.ptr<uchar>();
  uchar* o = out.ptr<uchar>();
  for (int i = 0; i < n; ++i) {
    const int v = static_cast<int>(d[i] + factor * (static_cast<double>(s[i]) - d[i]));
    o[i] = static_cast<uchar>(std::clamp(v, 0, 255));
  }
  return out;
}

cv::Mat apply_lut(const cv::Mat& img, const std::array<std::array<uchar, 256>, 3>& luts) {
  cv::Mat out = img.clone();
  for (int y = 0; y < out.rows; ++y) {
    auto* p = out.ptr<cv::Vec3b>(y);
    for (int x = 0; x < out.cols; ++x)
      for (int c = 0; c < 3; ++c) p[x][c] = luts[c][p[x][c]];
  }
  return out;
}

std::array<std::array<int, 256>, 3> histograms(const cv::Mat& img) {
  std::array<std::array<int, 256>, 3> h{};
  for (int y = 0; y < img.rows; ++y) {
    const auto* p = img.ptr<cv::Vec3b>(y);
    for (int x = 0; x < img.cols; ++x)
      for (int c = 0; c < 3; ++c) ++h[c][p[x][c]];
  }
  return h;
}

// ImageOps.autocontrast (cutoff 0): each channel's used range stretched to 0..255.
cv::Mat autocontrast(const cv::Mat& img) {
  const auto h = histograms(img);
  std::array<std::array<uchar, 256>, 3> luts{};
  for (int c = 0; c < 3; ++c) {
    int lo = 0, hi = 255;
    while (lo < 256 && h[c][lo] == 0) ++lo;
    while (hi >= 0 && h[c][hi] == 0) --hi;
    for (int i = 0; i < 256; ++i) {
      if (hi <= lo) {
        luts[c][i] = static_cast<uchar>(i);
        continue;
      }
      const double scale = 255.0 / (hi - lo), offset = -lo * scale;
      luts[c][i] = static_cast<uchar>(std::clamp(static_cast<int>(i * scale + offset), 0, 255));
    }
  }
  return apply_lut(img, luts);
}

// ImageOps.equalize: PIL's per-channel lookup (step from the histogram
// without its last used bin), not OpenCV's equalizeHist.
cv::Mat equalize(const cv::Mat& img) {
  const auto h = histograms(img);
  std::array<std::array<uchar, 256>, 3> luts{};
  for (int c = 0; c < 3; ++c) {
    long total = 0, last = 0, used = 0;
    for (int i = 0; i < 256; ++i)
      if (h[c][i]) {
        total += h[c][i];
        last = h[c][i];
        ++used;
      }
    const long step = used <= 1 ? 0 : (total - last) / 255;
    long n = step / 2;
    for (int i = 0; i < 256; ++i) {
      luts[c][i] = step ? static_cast<uchar>(std::min<long>(n / step, 255)) : static_cast<uchar>(i);
      n += h[c][i];
    }
  }
  return apply_lut(img, luts);
}

cv::Mat point(const cv::Mat& img, uchar (*f)(int, double), double arg) {
  std::array<std::array<uchar, 256>, 3> luts{};
  for (auto& lut : luts)
    for (int i = 0; i < 256; ++i) lut[i] = f(i, arg);
  return apply_lut(img, luts);
}

// ImageFilter.SMOOTH (3x3, centre 5, the rest 1, divided by 13), with the
// one-pixel border kept as it is, as PIL's 3x3 filters do.
cv::Mat pil_smooth(const cv::Mat& img) {
  if (img.rows < 3 || img.cols < 3) return img.clone();
  cv::Mat k = (cv::Mat_<float>(3, 3) << 1, 1, 1, 1, 5, 1, 1, 1, 1) / 13.0f;
  cv::Mat filtered;
  cv::filter2D(img, filtered, -1, k, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
  cv::Mat out = img.clone();
  filtered(cv::Rect(1, 1, img.cols - 2, img.rows - 2)).copyTo(out(cv::Rect(1, 1, img.cols - 2, img.rows - 2)));
  return out;
}

}  // namespace

const std::vector<std::string>& rand_augment_ops() {
  static const std::vector<std::string> ops = {"shearX",   "shearY",    "translateX", "translateY", "rotate",
                                               "color",    "posterize", "solarize",   "contrast",   "sharpness",
                                               "brightness", "autocontrast", "equalize", "invert"};
  return ops;
}

cv::Mat rand_augment_op(const cv::Mat& img, const std::string& op, double magnitude, int sign) {
  if (img.type() != CV_8UC3) throw Error("RandAugment: expected an 8-bit 3-channel image");
  const double abso = magnitude / 10.0;
  const double s = sign < 0 ? -1.0 : 1.0;
  if (op == "shearX") return pil_affine(img, 1, 0.3 * abso * s, 0, 0, 1, 0, cv::INTER_CUBIC);
  if (op == "shearY") return pil_affine(img, 1, 0, 0, 0.3 * abso * s, 1, 0, cv::INTER_CUBIC);
  if (op == "translateX") return pil_affine(img, 1, 0, 150.0 / 331 * abso * img.cols * s, 0, 1, 0, cv::INTER_NEAREST);
  if (op == "translateY") return pil_affine(img, 1, 0, 0, 0, 1, 150.0 / 331 * abso * img.rows * s, cv::INTER_NEAREST);
  if (op == "rotate") return pil_rotate(img, 30 * abso);  // PaddleOCR turns one way only
  if (op == "color") {
    cv::Mat grey3;
    cv::cvtColor(pil_grey(img), grey3, cv::COLOR_GRAY2BGR);
    return pil_blend(grey3, img, 1 + 0.9 * abso * s);
  }
  if (op == "contrast") {
    const int mean = static_cast<int>(cv::mean(pil_grey(img))[0] + 0.5);
    return pil_blend(cv::Mat(img.size(), img.type(), cv::Scalar::all(mean)), img, 1 + 0.9 * abso * s);
  }
  if (op == "sharpness") return pil_blend(pil_smooth(img), img, 1 + 0.9 * abso * s);
  if (op == "brightness") return pil_blend(cv::Mat::zeros(img.size(), img.type()), img, 1 + 0.9 * abso * s);
  if (op == "posterize")
    return point(img, [](int i, double bits) {
      const int keep = std::clamp(static_cast<int>(bits), 0, 8);
      return static_cast<uchar>(i & ~((1 << (8 - keep)) - 1) & 0xff);
    }, static_cast<int>(4.0 * abso));
  if (op == "solarize")
    return point(img, [](int i, double t) { return static_cast<uchar>(i < t ? i : 255 - i); }, 256.0 * abso);
  if (op == "autocontrast") return autocontrast(img);
  if (op == "equalize") return equalize(img);
  if (op == "invert") return point(img, [](int i, double) { return static_cast<uchar>(255 - i); }, 0);
  throw Error("RandAugment: unknown operation '" + op + "'");
}

cv::Mat rand_augment(const cv::Mat& img, const RandAugmentParams& p, DataRng& rng) {
  if (img.type() != CV_8UC3 || img.empty()) return img;
  if (rng.uniform() > p.prob) return img;
  const auto& ops = rand_augment_ops();
  cv::Mat out = img;
  for (int i = 0; i < p.num_layers; ++i) {
    const std::string& op = ops[rng.index(ops.size())];
    out = rand_augment_op(out, op, p.magnitude, rng.chance(0.5) ? 1 : -1);
  }
  return out;
}

RandAugmentParams rand_augment_from_yaml(const YAML::Node& params, const std::string& path) {
  namespace y = data_yaml;
  RandAugmentParams p;
  if (!params || params.IsNull()) return p;
  if (const YAML::Node v = y::at(params, path, "prob"); v && !v.IsNull()) p.prob = y::number(v, path + ".prob");
  if (const YAML::Node v = y::at(params, path, "num_layers"); v && !v.IsNull())
    p.num_layers = y::integer(v, path + ".num_layers");
  if (const YAML::Node v = y::at(params, path, "magnitude"); v && !v.IsNull())
    p.magnitude = y::number(v, path + ".magnitude");
  if (const YAML::Node v = y::at(params, path, "fillcolor"); v && !v.IsNull()) {
    const std::vector<double> fill = v.as<std::vector<double>>(std::vector<double>{});
    if (fill != std::vector<double>{kFill, kFill, kFill})
      throw UsageError("config key '" + path + ".fillcolor': only PaddleOCR's default [128, 128, 128] is supported");
  }
  if (p.prob < 0.0 || p.prob > 1.0) throw UsageError("config key '" + path + ".prob': a probability in [0, 1]");
  if (p.num_layers < 0) throw UsageError("config key '" + path + ".num_layers': must be >= 0");
  if (p.magnitude < 0.0 || p.magnitude > 10.0)
    throw UsageError("config key '" + path + ".magnitude': a level in [0, 10] (PaddleOCR's max_level)");
  return p;
}

}  // namespace ocrforge
