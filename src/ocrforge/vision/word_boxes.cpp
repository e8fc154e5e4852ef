#include "ocrforge/vision/word_boxes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <opencv2/imgproc.hpp>

namespace ocrforge {

namespace {

// The first code point of a UTF-8 sequence (0 for an empty or invalid one).
uint32_t code_point(const std::string& s, int offset, int length) {
  if (length <= 0) return 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data() + offset);
  if (p[0] < 0x80) return p[0];
  int extra = p[0] >= 0xF0 ? 3 : p[0] >= 0xE0 ? 2 : p[0] >= 0xC0 ? 1 : -1;
  if (extra < 0 || extra >= length) return 0;
  uint32_t cp = p[0] & (0x3F >> extra);
  for (int i = 1; i <= extra; ++i) cp = (cp << 6) | (p[i] & 0x3F);
  return cp;
}

bool is_ideograph(uint32_t cp) {
  return (cp >= 0x3400 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

bool is_space(uint32_t cp) { return cp == ' ' || cp == '\t' || cp == 0x3000; }

}  // namespace

std::vector<WordSpan> split_words(const RecText& rec) {
  std::vector<WordSpan> words;
  if (rec.symbols.empty() || rec.steps <= 0) return words;
  // Step t covers [t, t + 1) / steps of the input; the crop fills
  // content_ratio of it.
  const double per_step = 1.0 / (rec.steps * std::max(1e-6f, rec.content_ratio));
  size_t begin = 0;
  const auto flush = [&](size_t end) {  // symbols [begin, end) form a word
    if (end <= begin) return;
    const CtcSymbol& first = rec.symbols[begin];
    const CtcSymbol& last = rec.symbols[end - 1];
    WordSpan w;
    w.text = rec.text.substr(first.offset, last.offset + last.length - first.offset);
    double sum = 0;
    for (size_t i = begin; i < end; ++i) sum += rec.symbols[i].prob;
    w.score = static_cast<float>(sum / (end - begin));
    w.x0 = static_cast<float>(std::clamp(first.first_step * per_step, 0.0, 1.0));
    w.x1 = static_cast<float>(std::clamp((last.last_step + 1) * per_step, 0.0, 1.0));
    words.push_back(std::move(w));
  };
  for (size_t i = 0; i < rec.symbols.size(); ++i) {
    const CtcSymbol& s = rec.symbols[i];
    const uint32_t cp = code_point(rec.text, s.offset, s.length);
    if (is_space(cp)) {
      flush(i);
      begin = i + 1;
    } else if (is_ideograph(cp)) {
      flush(i);
      begin = i;
      flush(i + 1);
      begin = i + 1;
    }
  }
  flush(rec.symbols.size());
  // Each step is a sample inside a glyph; half a step more on each side
  // reaches the glyph's edges, never past a neighbour's middle.
  const float half = static_cast<float>(0.5 * per_step);
  for (size_t i = 0; i < words.size(); ++i) {
    const float lo = i == 0 ? 0.f : (words[i - 1].x1 + words[i].x0) / 2;
    const float hi = i + 1 == words.size() ? 1.f : (words[i].x1 + words[i + 1].x0) / 2;
    words[i].x0 = std::max(lo, words[i].x0 - half);
    words[i].x1 = std::min(hi, words[i].x1 + half);
  }
  return words;
}

Quad crop_span_to_image(const Quad& box, float x0, float x1, bool flipped) {
  // rotate_crop warps `box` onto a w x h rectangle, and turns it by 90
  // degrees counter-clockwise when h / w >= 1.5 (vertical text).
  const auto len = [](const cv::Point2f& a, const cv::Point2f& b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const float w = std::max(1.f, std::floor(std::max(len(box[0], box[1]), len(box[2], box[3]))));
  const float h = std::max(1.f, std::floor(std::max(len(box[0], box[3]), len(box[1], box[2]))));
  const bool turned = h / w >= 1.5f;
  // (u, v): fractions across / down the crop as recognised.
  const auto to_warped = [&](float u, float v) {
    if (flipped) {
      u = 1.f - u;
      v = 1.f - v;
    }
    // np.rot90 maps warped (x, y) to (y, w - x): invert it.
    return turned ? cv::Point2f(w * (1.f - v), h * u) : cv::Point2f(w * u, h * v);
  };
  const cv::Point2f rect[4] = {{0.f, 0.f}, {w, 0.f}, {w, h}, {0.f, h}};
  const cv::Mat back = cv::getPerspectiveTransform(rect, box.data());  // warped -> image
  std::vector<cv::Point2f> pts = {to_warped(x0, 0.f), to_warped(x1, 0.f), to_warped(x1, 1.f), to_warped(x0, 1.f)};
  std::vector<cv::Point2f> out;
  cv::perspectiveTransform(pts, out, back);
  return {out[0], out[1], out[2], out[3]};
}

}  // namespace ocrforge
