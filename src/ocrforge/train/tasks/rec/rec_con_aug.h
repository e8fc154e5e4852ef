// PaddleOCR's RecConAug (ppocr/data/imaug/rec_img_aug.py): with probability
// `prob`, short text crops are joined side by side with crops drawn at random
// from the same data set, and their labels are joined too, so a model sees
// long lines made of several words (PP-OCRv3's recognition configs).
//
// This file holds only the image / label rule, on plain cv::Mat and strings
// (OpenCV + std, no torch, no dataset): the rule can then be tested on known
// images without files or tensors, and the dataset (rec_dataset.cpp) only
// supplies the extra samples and the random stream.
#pragma once
#include <functional>
#include <string>

#include <opencv2/core.hpp>

#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

struct RecConAugParams {
  double prob = 0.5;          // chance that a sample is concatenated at all
  int ext_data_num = 1;       // extra samples tried, in order, per sample
  int height = 32;            // image_shape[0]: every part is resized to this height
  int width = 320;            // image_shape[1]: height * width / height caps the joined aspect ratio
  int max_text_length = 25;   // the joined text's limit in characters (code points)
};

// One decoded sample: 8-bit BGR image and its raw label text (before any
// label encoding, as PaddleOCR joins the texts, not the class indices).
struct RecConAugPart {
  cv::Mat image;
  std::string text;
};

// Whether `ext` may be appended to `cur`: false when the joined text would
// have more than max_text_length characters, or when the summed aspect
// ratios (w / h of each, as they are now) exceed width / height.
bool rec_con_aug_fits(const RecConAugPart& cur, const RecConAugPart& ext, const RecConAugParams& params);

// Resizes both images to `height` keeping their aspect ratio (width =
// round(w / h * height), half to even as Python's round, at least 1;
// bilinear as cv2.resize) and joins them left to right; `cur->text` becomes
// cur + ext. Both images must be 8-bit 3-channel.
void rec_con_aug_merge(RecConAugPart* cur, const RecConAugPart& ext, int height);

// The whole step. One draw of `rng` decides (uniform() < prob; prob 0
// never concatenates); then for k = 0 .. ext_data_num - 1, `next_ext` is
// asked for an extra sample (returning false ends the step: none could be
// loaded), and the step stops at the first one that does not fit
// (rec_con_aug_fits), else merges it. `next_ext` is only called after a
// successful draw, so skipped samples cost no decoding. Returns the number
// of samples merged into `cur`.
int rec_con_aug(RecConAugPart* cur, const RecConAugParams& params, DataRng& rng,
                const std::function<bool(RecConAugPart*)>& next_ext);

}  // namespace ocrforge
