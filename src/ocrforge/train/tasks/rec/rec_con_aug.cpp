// RecConAug's image / label rule (rec_con_aug.h).
#include "ocrforge/train/tasks/rec/rec_con_aug.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

double aspect(const cv::Mat& img) { return static_cast<double>(img.cols) / img.rows; }

// round(w / h * height) in PaddleOCR's operation order; std::nearbyint in the
// default rounding mode is half to even, like Python's round(). A very thin
// crop would round to 0 columns, which cv::resize refuses: keep 1.
int resized_width(const cv::Mat& img, int height) {
  return std::max(1, static_cast<int>(std::nearbyint(aspect(img) * height)));
}

cv::Mat to_height(const cv::Mat& img, int height) {
  const cv::Size size(resized_width(img, height), height);
  if (img.size() == size) return img;
  cv::Mat out;
  cv::resize(img, out, size, 0, 0, cv::INTER_LINEAR);
  return out;
}

}  // namespace

bool rec_con_aug_fits(const RecConAugPart& cur, const RecConAugPart& ext, const RecConAugParams& p) {
  // Python's len() of the label strings: code points.
  const size_t chars = utf8_chars(cur.text).size() + utf8_chars(ext.text).size();
  if (chars > static_cast<size_t>(std::max(p.max_text_length, 0))) return false;
  if (cur.image.empty() || ext.image.empty()) return false;
  const double max_ratio = static_cast<double>(p.width) / p.height;
  return aspect(cur.image) + aspect(ext.image) <= max_ratio;
}

void rec_con_aug_merge(RecConAugPart* cur, const RecConAugPart& ext, int height) {
  if (height <= 0) throw Error("RecConAug: the target height must be positive");
  if (cur->image.type() != CV_8UC3 || ext.image.type() != CV_8UC3)
    throw Error("RecConAug: images must be 8-bit BGR (DecodeImage's output)");
  cv::Mat joined;
  cv::hconcat(to_height(cur->image, height), to_height(ext.image, height), joined);
  cur->image = joined;
  cur->text += ext.text;
}

int rec_con_aug(RecConAugPart* cur, const RecConAugParams& p, DataRng& rng,
                const std::function<bool(RecConAugPart*)>& next_ext) {
  if (!rng.chance(p.prob)) return 0;
  int merged = 0;
  for (int k = 0; k < p.ext_data_num; ++k) {
    RecConAugPart ext;
    if (!next_ext(&ext)) break;
    if (!rec_con_aug_fits(*cur, ext, p)) break;
    rec_con_aug_merge(cur, ext, p.height);
    ++merged;
  }
  return merged;
}

}  // namespace ocrforge
