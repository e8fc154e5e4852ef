#include "ocrforge/document/pdf_text_layer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "ocrforge/document/glyphless_font.h"

namespace ocrforge {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", std::abs(v) < 5e-4 ? 0.0 : v);
  return buf;
}

std::vector<uint32_t> code_points(const std::string& s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += n;
  }
  return out;
}

// Draws `cids` (hex) from `origin` along unit vector `dir` (user space),
// `height` tall, stretched to `length`.
std::string draw(const std::string& cids, size_t chars, cv::Point2d origin, cv::Point2d dir, double height,
                 double length, const std::string& font) {
  if (chars == 0 || height <= 0) return "";
  const cv::Point2d up(-dir.y, dir.x);
  const double natural = chars * height * kGlyphlessAdvance / 1000.0;
  const double scale = std::max(1.0, 100.0 * std::max(length, 0.0) / natural);
  return font + " " + num(height) + " Tf " + num(scale) + " Tz " + num(dir.x) + " " + num(dir.y) + " " + num(up.x) +
         " " + num(up.y) + " " + num(origin.x) + " " + num(origin.y) + " Tm <" + cids + "> Tj\n";
}

}  // namespace

PdfPageFrame image_page_frame(cv::Size size, double dpi_x, double dpi_y) {
  PdfPageFrame f;
  f.llx = 0;
  f.lly = 0;
  f.urx = size.width * 72.0 / dpi_x;
  f.ury = size.height * 72.0 / dpi_y;
  f.rotate = 0;
  f.dpi_x = dpi_x;
  f.dpi_y = dpi_y;
  return f;
}

cv::Point2d to_user_space(const PdfPageFrame& f, cv::Point2d px) {
  const double vx = px.x * 72.0 / f.dpi_x, vy = px.y * 72.0 / f.dpi_y;  // points, y down, as shown
  switch (((f.rotate % 360) + 360) % 360) {
    case 90: return {f.llx + vy, f.lly + vx};
    case 180: return {f.urx - vx, f.lly + vy};
    case 270: return {f.urx - vy, f.ury - vx};
    default: return {f.llx + vx, f.ury - vy};
  }
}

std::string to_cid_hex(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (uint32_t cp : code_points(text)) {
    if (cp > 0xFFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
  }
  return out;
}

std::string text_layer_operators(const DocPage& page, const PdfPageFrame& frame, const std::string& font) {
  std::string ops;
  for (const auto& block : page.blocks)
    for (const auto& para : block.paragraphs)
      for (const auto& line : para.lines)
        for (size_t i = 0; i < line.words.size(); ++i) {
          const DocWord& w = line.words[i];
          // The word's bottom edge is its baseline; its left edge its height.
          const cv::Point2d bl = to_user_space(frame, w.quad[3]), br = to_user_space(frame, w.quad[2]);
          const cv::Point2d tl = to_user_space(frame, w.quad[0]);
          const cv::Point2d along = br - bl;
          const double length = std::hypot(along.x, along.y);
          if (length <= 0) continue;
          const cv::Point2d dir = along / length;
          const cv::Point2d rise = tl - bl;
          const double height = std::abs(-dir.y * rise.x + dir.x * rise.y);
          ops += draw(to_cid_hex(w.text), code_points(w.text).size(), bl, dir, height, length, font);
          if (i + 1 < line.words.size()) {
            // The space fills the gap up to the next word (at least a tenth
            // of the height), so extraction breaks the words there.
            const cv::Point2d next = to_user_space(frame, line.words[i + 1].quad[3]);
            const double gap = (next - br).dot(dir);
            ops += draw("0020", 1, br, dir, height, std::max(gap, height / 10), font);
          }
        }
  if (ops.empty()) return ops;
  return "BT\n3 Tr\n" + ops + "ET\n";
}

}  // namespace ocrforge
