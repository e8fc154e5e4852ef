// Result picture in the style of PaddleOCR's draw_ocr_box_txt: each box's text
// is drawn upright on a canvas of the box's size and warped into the box
// (draw_box_txt_fine), so rotated boxes get rotated text.
#include "ocrforge/vision/draw_ocr.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cmath>
#include <fstream>

#include <opencv2/freetype.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

// Draws text with FreeType when the font loads, else with Hershey (ASCII).
// Both paths use "baseline-left" origins and report height above / below it.
class TextPainter {
 public:
  explicit TextPainter(const std::string& font_path) {
    if (font_path.empty() || !file_exists(font_path)) return;
    try {
      auto ft = cv::freetype::createFreeType2();
      ft->loadFontData(font_path, 0);  // face 0 also works for .ttc collections
      ft_ = ft;
    } catch (const cv::Exception&) {
      ft_.release();  // unreadable font: fall back, the picture is still useful
    }
  }

  // Ink extent of `text` at pixel height `px`: width, ascent, descent.
  cv::Size measure(const std::string& text, int px, int* descent) const {
    if (ft_) return ft_->getTextSize(text, px, -1, descent);
    return cv::getTextSize(ascii(text), kHershey, hershey_scale(px), 1, descent);
  }

  void draw(cv::Mat& img, const std::string& text, cv::Point baseline_left, int px) const {
    if (ft_) ft_->putText(img, text, baseline_left, px, cv::Scalar::all(0), -1, cv::LINE_AA, true);
    else
      cv::putText(img, ascii(text), baseline_left, kHershey, hershey_scale(px), cv::Scalar::all(0), 1,
                  cv::LINE_AA);
  }

 private:
  static constexpr int kHershey = cv::FONT_HERSHEY_SIMPLEX;
  // Scale so that capital top to descender bottom spans `px`, roughly what
  // FreeType's pixel height means, so both paths lay text out alike.
  static double hershey_scale(int px) {
    int d = 0;
    const cv::Size s = cv::getTextSize("Hg", kHershey, 1.0, 1, &d);
    return std::max(0.1, px / static_cast<double>(s.height + d));
  }
  // Hershey fonts have no glyphs beyond ASCII; '?' keeps the width honest.
  static std::string ascii(const std::string& text) {
    std::string out;
    for (const auto& ch : utf8_chars(text)) out += (ch.size() == 1 && ch[0] >= 32 && ch[0] < 127) ? ch : "?";
    return out;
  }
  cv::Ptr<cv::freetype::FreeType2> ft_;
};

int length(const cv::Point2f& a, const cv::Point2f& b) {
  return static_cast<int>(std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)));
}

// Black text on a white box_w x box_h canvas. Tall boxes get one character
// per line, others one line at ~0.8 of the box height, shrunk to fit.
cv::Mat text_canvas(const TextPainter& painter, const std::string& text, int box_w, int box_h) {
  cv::Mat canvas(box_h, box_w, CV_8UC3, cv::Scalar::all(255));
  if (box_h > 2 * box_w && box_h > 30) {
    const auto chars = utf8_chars(text);
    const int line_h = box_h / static_cast<int>(chars.size());
    const int px = static_cast<int>(0.8 * std::min(box_w, line_h));
    if (px < 1) return canvas;
    for (size_t i = 0; i < chars.size(); ++i) {
      int descent = 0;
      const cv::Size s = painter.measure(chars[i], px, &descent);
      const int top = static_cast<int>(i) * line_h + (line_h - s.height - descent) / 2;
      painter.draw(canvas, chars[i], {(box_w - s.width) / 2, top + s.height}, px);
    }
    return canvas;
  }
  int px = static_cast<int>(0.8 * box_h);
  if (px < 1) return canvas;
  int descent = 0;
  cv::Size s = painter.measure(text, px, &descent);
  if (s.width > box_w) {
    px = std::max(1, static_cast<int>(px * static_cast<double>(box_w) / s.width));
    s = painter.measure(text, px, &descent);
    while (s.width > box_w && px > 1) s = painter.measure(text, --px, &descent);  // glyph hinting slack
  }
  painter.draw(canvas, text, {0, (box_h - s.height - descent) / 2 + s.height}, px);
  return canvas;
}

// One box on the right-hand picture: text warped into the quad, outline in
// `color`, combined with bitwise AND like PaddleOCR (overlaps stay visible).
// Work is limited to the box's bounding rectangle.
void draw_box_text(cv::Mat& right, const Quad& box, const std::string& text, const cv::Scalar& color,
                   const TextPainter& painter) {
  std::vector<cv::Point> outline;
  for (const auto& p : box) outline.emplace_back(static_cast<int>(p.x), static_cast<int>(p.y));  // np.int32
  const cv::Rect roi = (cv::boundingRect(outline) + cv::Size(1, 1)) & cv::Rect(0, 0, right.cols, right.rows);
  if (roi.empty()) return;
  cv::Mat tile(roi.size(), CV_8UC3, cv::Scalar::all(255));
  const int box_w = length(box[0], box[1]), box_h = length(box[0], box[3]);
  if (!text.empty() && box_w > 0 && box_h > 0) {
    const cv::Mat canvas = text_canvas(painter, text, box_w, box_h);
    const cv::Point2f src[4] = {{0.f, 0.f},
                                {static_cast<float>(box_w), 0.f},
                                {static_cast<float>(box_w), static_cast<float>(box_h)},
                                {0.f, static_cast<float>(box_h)}};
    const cv::Point2f off(static_cast<float>(roi.x), static_cast<float>(roi.y));
    const cv::Point2f dst[4] = {box[0] - off, box[1] - off, box[2] - off, box[3] - off};
    cv::warpPerspective(canvas, tile, cv::getPerspectiveTransform(src, dst), roi.size(), cv::INTER_NEAREST,
                        cv::BORDER_CONSTANT, cv::Scalar::all(255));
  }
  for (auto& p : outline) p -= roi.tl();
  cv::polylines(tile, std::vector<std::vector<cv::Point>>{outline}, true, color, 1);
  cv::Mat dst = right(roi);
  cv::bitwise_and(dst, tile, dst);
}

}  // namespace

std::string checked_font_path(const std::string& font_path, const std::string& who) {
  std::error_code ec;
  if (!font_path.empty() && !std::filesystem::is_regular_file(font_path, ec)) {
    std::fprintf(stderr, "%s: warning: --vis_font_path '%s' does not exist; using the default font\n", who.c_str(),
                 font_path.c_str());
    return checked_font_path("", who);
  }
  if (font_path.empty() && default_font_path().empty())
    std::fprintf(stderr,
                 "%s: warning: no CJK font found (install fonts-noto-cjk or pass --vis_font_path): the "
                 "visualisation draws non-Latin text as '?'\n",
                 who.c_str());
  return font_path;
}

std::string default_font_path() {
  static const char* const kFonts[] = {
      "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
      "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  };
  for (const char* f : kFonts)
    if (file_exists(f)) return f;
  return "";
}

cv::Mat draw_ocr_box_txt(const cv::Mat& image, const std::vector<Quad>& boxes,
                         const std::vector<std::string>& texts, const std::string& font_path) {
  if (image.empty()) throw Error("draw_ocr_box_txt: the image is empty");
  if (image.depth() != CV_8U) throw Error("draw_ocr_box_txt: the image must be 8-bit");
  cv::Mat img = image;
  if (image.channels() == 1) cv::cvtColor(image, img, cv::COLOR_GRAY2BGR);
  else if (image.channels() == 4) cv::cvtColor(image, img, cv::COLOR_BGRA2BGR);

  const TextPainter painter(font_path.empty() ? default_font_path() : font_path);
  cv::Mat filled = img.clone();
  cv::Mat right(img.size(), CV_8UC3, cv::Scalar::all(255));
  cv::RNG rng(0);  // fixed seed: identical input, identical picture
  // PaddleOCR ignores all texts when their count does not match the boxes.
  const bool with_text = texts.size() == boxes.size();
  for (size_t i = 0; i < boxes.size(); ++i) {
    const cv::Scalar color(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256));
    std::vector<cv::Point> poly;
    for (const auto& p : boxes[i]) poly.emplace_back(cvRound(p.x), cvRound(p.y));
    cv::fillPoly(filled, std::vector<std::vector<cv::Point>>{poly}, color);
    draw_box_text(right, boxes[i], with_text ? texts[i] : std::string(), color, painter);
  }
  cv::Mat left, out;
  cv::addWeighted(img, 0.5, filled, 0.5, 0.0, left);
  cv::hconcat(left, right, out);
  return out;
}

}  // namespace ocrforge
