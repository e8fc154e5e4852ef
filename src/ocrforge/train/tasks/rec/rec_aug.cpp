// RecAug steps, following PaddleOCR's rec_img_aug.py behaviour (including
// its integer truncations, which make HSV and noise very mild on purpose).
#include "ocrforge/train/tasks/rec/rec_aug.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/tia.h"

namespace ocrforge {

namespace {

cv::Mat random_crop(const cv::Mat& img, DataRng& rng) {
  const int h = img.rows;
  const int top_crop = std::min(rng.randint(1, 8), h - 1);
  const bool from_top = rng.randint(0, 1) == 1;
  const cv::Rect keep = from_top ? cv::Rect(0, top_crop, img.cols, h - top_crop)
                                 : cv::Rect(0, 0, img.cols, h - top_crop);
  return img(keep).clone();
}

cv::Mat blur(const cv::Mat& img) {
  if (img.rows <= 10 || img.cols <= 10) return img;
  cv::Mat out;
  cv::GaussianBlur(img, out, cv::Size(5, 5), 1.0);
  return out;
}

// V *= 1 + delta with |delta| < 0.001, truncated to uint8 as NumPy's
// in-place assignment does: a value drop of at most one step.
cv::Mat hsv_aug(const cv::Mat& img, DataRng& rng) {
  cv::Mat hsv;
  cv::cvtColor(img, hsv, cv::COLOR_BGR2HSV);
  const double magnitude = 0.001 * rng.uniform();
  const double delta = rng.uniform() > 0.5000001 ? magnitude : -magnitude;
  for (int y = 0; y < hsv.rows; ++y) {
    uchar* row = hsv.ptr<uchar>(y);
    for (int x = 0; x < hsv.cols; ++x) {
      const double v = row[3 * x + 2] * (1.0 + delta);
      row[3 * x + 2] = static_cast<uchar>(std::min(255.0, v));
    }
  }
  cv::Mat out;
  cv::cvtColor(hsv, out, cv::COLOR_HSV2BGR);
  return out;
}

// PaddleOCR copies the image onto itself shifted by i = 0..s-1 pixels
// diagonally; the last copy wins, so pixel (y, x) ends up showing the
// source at (y - k, x - k) with k = min(s - 1, y, x).
cv::Mat jitter(const cv::Mat& img, DataRng& rng) {
  if (img.rows <= 10 || img.cols <= 10) return img;
  const int s = static_cast<int>(rng.uniform() * std::min(img.rows, img.cols) * 0.01);
  if (s <= 1) return img;
  cv::Mat out = img.clone();
  for (int y = 0; y < img.rows; ++y) {
    for (int x = 0; x < img.cols; ++x) {
      const int k = std::min({s - 1, y, x});
      out.at<cv::Vec3b>(y, x) = img.at<cv::Vec3b>(y - k, x - k);
    }
  }
  return out;
}

// image + 0.5 * N(0, sqrt(0.1)), clipped to [0, 255], truncated to uint8.
cv::Mat gaussian_noise(const cv::Mat& img, DataRng& rng) {
  const double sigma = std::sqrt(0.1);
  CV_Assert(img.isContinuous());
  cv::Mat out(img.size(), img.type());
  const size_t n = img.total() * 3;
  const uchar* in = img.ptr<uchar>(0);
  uchar* o = out.ptr<uchar>(0);
  for (size_t i = 0; i < n; ++i) {
    const double v = in[i] + 0.5 * rng.cv().gaussian(sigma);
    o[i] = static_cast<uchar>(std::clamp(v, 0.0, 255.0));
  }
  return out;
}

}  // namespace

cv::Mat rec_aug(const cv::Mat& bgr, const RecAugParams& p, DataRng& rng) {
  if (bgr.empty() || bgr.type() != CV_8UC3) throw Error("RecAug: expected a non-empty 8-bit BGR image");
  cv::Mat img = bgr.isContinuous() ? bgr : bgr.clone();

  // TIA. PaddleOCR applies perspective even to small crops.
  if (rng.chance(p.tia_prob)) {
    if (img.rows >= 20 && img.cols >= 20) {
      img = tia_distort(img, rng.randint(3, 6), rng);
      img = tia_stretch(img, rng.randint(3, 6), rng);
    }
    img = tia_perspective(img, rng);
  }

  // BaseDataAugmentation: each draw happens whether or not the size allows the step.
  if (rng.chance(p.crop_prob) && img.rows >= 20 && img.cols >= 20) img = random_crop(img, rng);
  if (rng.chance(p.blur_prob)) img = blur(img);
  if (rng.chance(p.hsv_aug_prob)) img = hsv_aug(img, rng);
  if (rng.chance(p.jitter_prob)) img = jitter(img, rng);
  if (rng.chance(p.noise_prob)) img = gaussian_noise(img, rng);
  if (rng.chance(p.reverse_prob)) {
    cv::Mat inv;
    cv::bitwise_not(img, inv);  // 255 - x for uint8
    img = inv;
  }
  return img.data == bgr.data ? bgr.clone() : img;
}

}  // namespace ocrforge
