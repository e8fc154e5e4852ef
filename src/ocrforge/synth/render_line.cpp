#include "ocrforge/synth/render_line.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

LineMask render_line(cv::freetype::FreeType2& ft, const FontInfo& font, const std::string& text, int px) {
  LineMask m;
  m.px = std::max(2, px);
  int base = 0;
  cv::Size size;
  cv::Mat canvas;
  const int origin_x = m.px + 2;
  m.baseline = 2 * m.px + 2;
  try {
    size = ft.getTextSize(text, m.px, -1, &base);
    // Generous canvas: OpenCV advances by whole pixels while getTextSize does
    // not, italics overhang, and accents rise above the ascender.
    canvas = cv::Mat(3 * m.px + 4, size.width + 2 * m.px + 4, CV_8UC3, cv::Scalar::all(0));
    ft.putText(canvas, text, cv::Point(origin_x, m.baseline), m.px, cv::Scalar::all(255), -1, cv::LINE_AA, true);
  } catch (const cv::Exception& e) {
    throw Error("FreeType failed to draw '" + text + "' with font '" + font.path + "': " + e.what());
  }
  cv::extractChannel(canvas, m.alpha, 0);
  m.ink = cv::boundingRect(m.alpha);
  const double top = m.baseline - font.ascent * m.px, bottom = m.baseline + font.descent * m.px;
  double x0 = origin_x, x1 = origin_x + size.width;
  double y0 = top, y1 = bottom;
  if (!m.ink.empty()) {
    x0 = m.ink.x, x1 = m.ink.x + m.ink.width;
    y0 = std::min(y0, static_cast<double>(m.ink.y));
    y1 = std::max(y1, static_cast<double>(m.ink.y + m.ink.height));
  }
  m.line_box = cv::Rect2d(x0, y0, x1 - x0, y1 - y0);
  return m;
}

void draw_underline(LineMask& m, SampleRng& rng) {
  if (m.ink.empty()) return;
  const int thick = std::max(1, static_cast<int>(std::lround(m.px * rng.uniform(0.04, 0.08))));
  const int y = static_cast<int>(std::lround(m.line_box.y + m.line_box.height)) + thick;
  if (y + thick >= m.alpha.rows) return;
  cv::rectangle(m.alpha, cv::Point(m.ink.x, y), cv::Point(m.ink.x + m.ink.width - 1, y + thick - 1),
                cv::Scalar(255), cv::FILLED);
  m.ink = cv::boundingRect(m.alpha);
  m.line_box.height = y + thick - m.line_box.y;
}

void draw_frame(LineMask& m, SampleRng& rng) {
  if (m.ink.empty()) return;
  const int thick = std::max(1, static_cast<int>(std::lround(m.px * rng.uniform(0.03, 0.06))));
  const double pad = m.line_box.height * rng.uniform(0.15, 0.3);
  const cv::Point a(static_cast<int>(m.line_box.x - pad), static_cast<int>(m.line_box.y - pad));
  const cv::Point b(static_cast<int>(m.line_box.x + m.line_box.width + pad),
                    static_cast<int>(m.line_box.y + m.line_box.height + pad));
  if (a.x < 0 || a.y < 0 || b.x >= m.alpha.cols || b.y >= m.alpha.rows) return;
  cv::rectangle(m.alpha, a, b, cv::Scalar(255), thick, cv::LINE_8);
  m.ink = cv::boundingRect(m.alpha);
  // The line box stays the text's: the crop margins then cut the frame at
  // some sides, as a detector's crop of a table cell does. (A whole frame
  // round a short word reads like a symbol: "[is]", "国".)
}

ChosenText choose_text(const TextSource& source, const FontSet& fonts, SampleRng& rng, int max_words) {
  for (int attempt = 0; attempt < 32; ++attempt) {
    ChosenText c;
    c.text = source.next(rng, max_words);
    size_t font = rng.index(fonts.size());
    if (!fonts.covers(font, c.text)) {
      const std::vector<size_t> ok = fonts.fonts_covering(c.text);
      if (ok.empty()) continue;  // no single font has all of its glyphs: never draw tofu
      font = ok[rng.index(ok.size())];
    }
    c.font = font;
    return c;
  }
  throw Error("no font covers the texts drawn (32 attempts); add fonts with --fonts (e.g. "
              "/usr/share/fonts/opentype/noto for Chinese) or restrict the dictionary");
}

}  // namespace ocrforge
