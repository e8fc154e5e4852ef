// The recognition transforms of PaddleOCR's Train/Eval.dataset.transforms as
// typed steps: DecodeImage -> RecConAug -> RecAug -> CTCLabelEncode (or
// MultiLabelEncode: CTC + SAR or NRTR labels) -> RecResizeImg ->
// KeepKeys [image, label, length, valid_ratio (, label_sar | label_gtc)]. RecTransformSpec holds every parameter;
// rec_transform_config.h builds it from a config.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/rec/rec_aug.h"
#include "ocrforge/train/tasks/rec/rec_con_aug.h"

namespace ocrforge {

struct RecTransformSpec {
  bool use_con_aug = false;                     // RecConAug listed and training
  RecConAugParams con_aug;                      // RecConAug's parameters
  bool use_aug = false;                         // RecAug listed and training
  RecAugParams aug;                             // RecAug's probabilities
  std::array<int, 3> image_shape{3, 48, 320};   // RecResizeImg image_shape: C (must be 3), H, W
  // RecResizeImg eval_mode (PaddleOCR's resize_norm_img_chinese): a line
  // wider than H x W keeps its aspect ratio, its image is that much wider
  // than W, so each sample has its own width (batches of one).
  bool keep_wide_lines = false;
  int max_text_length = 25;                     // Global.max_text_length
  // Global.character_dict_path; Global.use_space_char is part of it (the
  // space is the last class when set), so it is not repeated here.
  Charset charset = Charset::from_chars({}, false);
  // The label step was MultiLabelEncode (PP-OCRv3 MultiHead configs): the
  // CTC label as CTCLabelEncode's plus SARLabelEncode's label_sar, and a text
  // too long for the SAR label (max_text_length - 1 or more characters) is
  // rejected, as PaddleOCR does.
  bool multi_label_encode = false;
  // MultiLabelEncode's gtc_encode was NRTRLabelEncode (PP-OCRv4 / v5): the
  // second label is NRTRLabelEncode's label_gtc (nrtr_label_encode.h), not
  // label_sar; the same length rule applies.
  bool nrtr_labels = false;
};

// DecodeImage (img_mode BGR, channel_first false).
enum class DecodeStatus { kOk, kMissing, kUndecodable };
// Reads the file's bytes and decodes them as 3-channel BGR (grey and BGRA
// files are converted, as cv2.imdecode(..., 1) does). kMissing: the file
// cannot be opened; kUndecodable: read, but not an image.
DecodeStatus decode_image(const std::string& path, cv::Mat* bgr);
// The same decode of bytes already read (LMDBDataSet's image records):
// kUndecodable when empty or not an image.
DecodeStatus decode_image_bytes(const std::string& bytes, cv::Mat* bgr);

// CTCLabelEncode (and MultiLabelEncode's CTC labels).
enum class LabelStatus { kOk, kEmpty, kTooLong };
struct CtcLabel {
  LabelStatus status = LabelStatus::kOk;
  std::vector<int64_t> label;  // class indices (blank = 0), padded with 0 to max_text_length
  int64_t length = 0;          // number of real indices in `label`
  std::string text;            // the label's text without the dropped characters
  long dropped_chars = 0;      // characters not in the dictionary
};
// As PaddleOCR: a text that is empty or has more than max_text_length
// characters (code points, counted before dropping) is kTooLong / kEmpty;
// characters not in the dictionary are dropped; nothing left -> kEmpty.
// `label` is only filled when the status is kOk.
CtcLabel ctc_label_encode(const std::string& text, const Charset& charset, int max_text_length);

// RecResizeImg: the inference rule (ocrforge::rec_resize_normalize), so
// training and inference cannot drift. Writes C x H x W floats in [-1, 1]
// (CHW, BGR, zero-padded on the right) into `dst`; returns valid_ratio.
float rec_resize_img(const cv::Mat& bgr, const std::array<int, 3>& image_shape, float* dst);

// The width RecResizeImg eval_mode gives `bgr` (w x h): int(H * max(W / H,
// w / h)), never less than W.
int eval_mode_width(const cv::Mat& bgr, const std::array<int, 3>& image_shape);

}  // namespace ocrforge
