#include "ocrforge/document/image_resolution.h"

#include <cstdint>
#include <fstream>

namespace ocrforge {

namespace {

uint32_t be(const unsigned char* p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

Resolution image_resolution(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const auto* d = reinterpret_cast<const unsigned char*>(head.data());
  const size_t n = head.size();
  Resolution r;
  if (n > 20 && d[0] == 0xFF && d[1] == 0xD8) {
    // Segments up to the first frame header; JFIF APP0 holds the density.
    for (size_t i = 2; i + 4 <= n && d[i] == 0xFF;) {
      const unsigned marker = d[i + 1];
      const size_t len = be(d + i + 2, 2);
      if (marker == 0xE0 && i + 4 + 12 <= n && head.compare(i + 4, 5, std::string("JFIF\0", 5)) == 0) {
        const unsigned units = d[i + 11];
        const double x = be(d + i + 12, 2), y = be(d + i + 14, 2);
        const double per_inch = units == 1 ? 1.0 : units == 2 ? 2.54 : 0.0;
        r.x = x * per_inch;
        r.y = y * per_inch;
        return r;
      }
      if (marker == 0xDA || len < 2) break;
      i += 2 + len;
    }
  } else if (n > 16 && head.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) {
    for (size_t i = 8; i + 12 <= n;) {
      const size_t len = be(d + i, 4);
      const std::string type = head.substr(i + 4, 4);
      if (type == "pHYs" && len >= 9 && i + 8 + 9 <= n) {
        if (d[i + 16] == 1) {  // unit: metre
          r.x = be(d + i + 8, 4) * 0.0254;
          r.y = be(d + i + 12, 4) * 0.0254;
        }
        return r;
      }
      if (type == "IDAT" || type == "IEND") break;
      i += 12 + len;
    }
  }
  return r;
}

}  // namespace ocrforge
