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

namespace {

// Where a word is drawn: its baseline start, direction, height and length.
struct Placement {
  cv::Point2d origin, dir;
  double height = 0, length = 0;
  double start = 0, end = 0;  // along dir, from the user-space origin
};

// Poppler (pdftotext) reads text at angles off the four axes as "diagonal"
// and breaks a word wherever its baseline has drifted a tenth of the font
// size: a word tilted by a degree or two is then cut in pieces. Words within
// kSnapDegrees of an axis are drawn along that axis instead, over the span
// of the tilted box, at its height; steeper ones at their own angle.
constexpr double kSnapDegrees = 10.0;

Placement place(const Quad& q, const PdfPageFrame& frame) {
  cv::Point2d p[4];
  for (int k = 0; k < 4; ++k) p[k] = to_user_space(frame, q[k]);
  const cv::Point2d along = p[2] - p[3];
  Placement pl;
  const double len = std::hypot(along.x, along.y);
  if (len <= 0) return pl;
  const double angle = std::atan2(along.y, along.x);
  const double quarter = std::round(angle / (M_PI / 2)) * (M_PI / 2);
  const bool snap = std::abs(angle - quarter) <= kSnapDegrees * M_PI / 180;
  pl.dir = snap ? cv::Point2d(std::round(std::cos(quarter)), std::round(std::sin(quarter))) : along / len;
  const cv::Point2d up(-pl.dir.y, pl.dir.x);
  // The word's height across its own baseline (not the taller upright box).
  const cv::Point2d rise = p[0] - p[3];
  pl.height = std::abs(-along.y / len * rise.x + along.x / len * rise.y);
  double u0 = 1e300, u1 = -1e300, v0 = 1e300, v1 = -1e300;
  for (const auto& pt : p) {
    u0 = std::min(u0, pt.dot(pl.dir));
    u1 = std::max(u1, pt.dot(pl.dir));
    v0 = std::min(v0, pt.dot(up));
    v1 = std::max(v1, pt.dot(up));
  }
  if (!snap) {  // exact: along the bottom edge
    pl.origin = p[3];
    pl.length = len;
    pl.start = p[3].dot(pl.dir);
    pl.end = pl.start + len;
    return pl;
  }
  const double base = (v0 + v1) / 2 - pl.height / 2;
  pl.origin = pl.dir * u0 + up * base;
  pl.length = u1 - u0;
  pl.start = u0;
  pl.end = u1;
  return pl;
}

}  // namespace

std::string text_layer_operators(const DocPage& page, const PdfPageFrame& frame, const std::string& font) {
  std::string ops;
  for (const auto& block : page.blocks)
    for (const auto& para : block.paragraphs)
      for (const auto& line : para.lines)
        for (size_t i = 0; i < line.words.size(); ++i) {
          const DocWord& w = line.words[i];
          const Placement pl = place(w.quad, frame);
          if (pl.length <= 0 || pl.height <= 0) continue;
          ops += draw(to_cid_hex(w.text), code_points(w.text).size(), pl.origin, pl.dir, pl.height, pl.length, font);
          if (i + 1 < line.words.size()) {
            // The space fills the gap up to the next word (at least a tenth
            // of the height), so extraction breaks the words there.
            const double next = place(line.words[i + 1].quad, frame).start;
            const cv::Point2d at = pl.origin + pl.dir * pl.length;
            ops += draw("0020", 1, at, pl.dir, pl.height, std::max(next - pl.end, pl.height / 10), font);
          }
        }
  if (ops.empty()) return ops;
  return "BT\n3 Tr\n" + ops + "ET\n";
}

}  // namespace ocrforge
