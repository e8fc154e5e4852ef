// DecodeImage, CTCLabelEncode and RecResizeImg (rec_transforms.h).
#include "ocrforge/train/tasks/rec/rec_transforms.h"

#include <fstream>
#include <iterator>
#include <limits>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/vision/rec_resize.h"

namespace ocrforge {

DecodeStatus decode_image(const std::string& path, cv::Mat* bgr) {
  // Bytes first, then imdecode (PaddleOCR's order): this tells a missing
  // file apart from one that is not an image, which cv::imread cannot.
  std::ifstream in(path, std::ios::binary);
  if (!in) return DecodeStatus::kMissing;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decode_image_bytes(bytes, bgr);
}

DecodeStatus decode_image_bytes(const std::string& bytes, cv::Mat* bgr) {
  if (bytes.empty() || bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
    return DecodeStatus::kUndecodable;
  const cv::Mat buf(1, static_cast<int>(bytes.size()), CV_8U, const_cast<char*>(bytes.data()));
  cv::Mat img = cv::imdecode(buf, cv::IMREAD_COLOR);
  if (img.empty()) return DecodeStatus::kUndecodable;
  *bgr = img;
  return DecodeStatus::kOk;
}

CtcLabel ctc_label_encode(const std::string& text, const Charset& charset, int max_text_length) {
  CtcLabel out;
  const std::vector<std::string> chars = utf8_chars(text);
  if (chars.empty()) {
    out.status = LabelStatus::kEmpty;
    return out;
  }
  if (static_cast<int>(chars.size()) > max_text_length) {
    out.status = LabelStatus::kTooLong;
    return out;
  }
  out.label.reserve(static_cast<size_t>(max_text_length));
  for (const auto& raw : chars) {
    // The built-in dictionary's rule (PaddleOCR's `lower`): A-Z read as a-z.
    std::string ch = raw;
    if (charset.lowercases_labels() && ch.size() == 1 && ch[0] >= 'A' && ch[0] <= 'Z')
      ch[0] = static_cast<char>(ch[0] - 'A' + 'a');
    const int idx = charset.index_of(ch);
    if (idx < 0) {
      ++out.dropped_chars;
      continue;
    }
    out.label.push_back(idx);
    out.text += ch;
  }
  if (out.label.empty()) {
    out.status = LabelStatus::kEmpty;
    return out;
  }
  out.length = static_cast<int64_t>(out.label.size());
  out.label.resize(static_cast<size_t>(max_text_length), 0);
  return out;
}

float rec_resize_img(const cv::Mat& bgr, const std::array<int, 3>& image_shape, float* dst) {
  if (image_shape[0] != 3)
    throw Error("RecResizeImg: image_shape must have 3 channels (got " + std::to_string(image_shape[0]) + ")");
  return rec_resize_normalize(bgr, image_shape[1], image_shape[2], dst);
}

int eval_mode_width(const cv::Mat& bgr, const std::array<int, 3>& image_shape) {
  const int h = image_shape[1], w = image_shape[2];
  if (bgr.rows <= 0) return w;
  const double ratio = std::max(static_cast<double>(w) / h, static_cast<double>(bgr.cols) / bgr.rows);
  return std::max(w, static_cast<int>(h * ratio));
}

}  // namespace ocrforge
