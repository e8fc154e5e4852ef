#include "ocrforge/document/page_layout.h"

#include <algorithm>
#include <cmath>

namespace ocrforge {

namespace {

PixelBox box_of(const Quad& q, cv::Size page) {
  float x0 = q[0].x, y0 = q[0].y, x1 = q[0].x, y1 = q[0].y;
  for (const auto& p : q) {
    x0 = std::min(x0, p.x);
    y0 = std::min(y0, p.y);
    x1 = std::max(x1, p.x);
    y1 = std::max(y1, p.y);
  }
  PixelBox b;
  b.x0 = std::clamp(static_cast<int>(std::floor(x0)), 0, std::max(0, page.width - 1));
  b.y0 = std::clamp(static_cast<int>(std::floor(y0)), 0, std::max(0, page.height - 1));
  b.x1 = std::clamp(static_cast<int>(std::ceil(x1)), b.x0 + 1, std::max(b.x0 + 1, page.width));
  b.y1 = std::clamp(static_cast<int>(std::ceil(y1)), b.y0 + 1, std::max(b.y0 + 1, page.height));
  return b;
}

PixelBox unite(const PixelBox& a, const PixelBox& b) {
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

template <typename T>
PixelBox union_of(const std::vector<T>& parts) {
  PixelBox b = parts.front().box;
  for (const auto& p : parts) b = unite(b, p.box);
  return b;
}

DocWord doc_word(const std::string& text, const Quad& quad, float score, cv::Size page) {
  DocWord w;
  w.text = text;
  w.quad = quad;
  w.box = box_of(quad, page);
  w.conf = std::clamp(score * 100.f, 0.f, 100.f);
  return w;
}

}  // namespace

DocPage build_page(const OcrResult& result, const PageInfo& info, const ReadingOrderParams& order) {
  DocPage page;
  page.info = info;
  const cv::Size size = info.size;
  std::vector<Quad> boxes;
  for (const auto& l : result.lines) boxes.push_back(l.box);
  for (const LayoutBlock& lb : reading_order(boxes, order)) {
    DocBlock block;
    for (const LayoutParagraph& lp : lb.paragraphs) {
      DocParagraph par;
      for (const LayoutRow& row : lp.rows) {
        DocLine line;
        for (size_t i : row) {
          const OcrLine& src = result.lines[i];
          if (!src.words.empty()) {
            for (const auto& w : src.words) line.words.push_back(doc_word(w.text, w.box, w.score, size));
          } else if (src.text.find_first_not_of(' ') != std::string::npos) {
            line.words.push_back(doc_word(src.text, src.box, src.score, size));
          }
        }
        if (line.words.empty()) continue;
        line.box = union_of(line.words);
        // The baseline follows the bottom edge of the row's first line.
        const Quad& q = result.lines[row.front()].box;
        const double dx = q[2].x - q[3].x;
        line.baseline_slope = std::abs(dx) > 1e-3 ? (q[2].y - q[3].y) / dx : 0.0;
        const double at_left = q[3].y + line.baseline_slope * (line.box.x0 - q[3].x);
        line.baseline_offset = static_cast<int>(std::lround(std::min<double>(at_left, line.box.y1) - line.box.y1));
        par.lines.push_back(std::move(line));
      }
      if (par.lines.empty()) continue;
      par.box = union_of(par.lines);
      block.paragraphs.push_back(std::move(par));
    }
    if (block.paragraphs.empty()) continue;
    block.box = union_of(block.paragraphs);
    page.blocks.push_back(std::move(block));
  }
  return page;
}

std::string page_text(const DocPage& page) {
  std::string text;
  for (const auto& b : page.blocks)
    for (const auto& p : b.paragraphs) {
      for (const auto& l : p.lines) {
        for (size_t i = 0; i < l.words.size(); ++i) text += (i ? " " : "") + l.words[i].text;
        text += "\n";
      }
      text += "\n";
    }
  return text;
}

}  // namespace ocrforge
