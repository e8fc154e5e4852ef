// Image sizes before decoding (image_header.h). JPEG and TIFF go through the
// decoders' own libraries; the other formats are read at the fixed places
// their decoders (OpenCV's BMP, PxM, PAM, PFM, Sun raster; libpng; libwebp;
// OpenJPEG) take them from.
#include "ocrforge/infer/image_header.h"

#include <jpeglib.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/tiff_file.h"

namespace ocrforge {

namespace {

uint32_t be16(const unsigned char* p) { return (uint32_t(p[0]) << 8) | p[1]; }
uint32_t be32(const unsigned char* p) { return (be16(p) << 16) | be16(p + 2); }
uint32_t le16(const unsigned char* p) { return uint32_t(p[0]) | (uint32_t(p[1]) << 8); }
uint32_t le32(const unsigned char* p) { return le16(p) | (le16(p + 2) << 16); }
int32_t le32s(const unsigned char* p) { return static_cast<int32_t>(le32(p)); }

// ---- JPEG: libjpeg reads the markers up to the frame header, as it will
// when decoding (fill bytes, unknown segments and all).
struct JpegError {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void jpeg_fail(j_common_ptr c) {
  auto* e = reinterpret_cast<JpegError*>(c->err);
  (*c->err->format_message)(c, e->message);
  std::longjmp(e->jump, 1);
}
void jpeg_quiet(j_common_ptr, int) {}

// Only plain data lives between setjmp and longjmp here.
bool jpeg_dimensions(const unsigned char* data, size_t size, int64_t* w, int64_t* h, char* why, size_t why_size) {
  jpeg_decompress_struct info;
  JpegError err;
  info.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = jpeg_fail;
  err.mgr.emit_message = jpeg_quiet;
  err.message[0] = '\0';
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&info);
    std::snprintf(why, why_size, "%s", err.message);
    return false;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, static_cast<unsigned long>(size));
  jpeg_read_header(&info, TRUE);
  *w = info.image_width;
  *h = info.image_height;
  jpeg_destroy_decompress(&info);
  return true;
}

// ---- The "P" formats: whitespace-separated decimal numbers after the
// magic, with '#' comments running to the end of the line (OpenCV's PxM
// and PFM readers).
class Numbers {
 public:
  Numbers(const unsigned char* d, size_t n, size_t from) : d_(d), n_(n), i_(from) {}
  bool next(int64_t* v) {
    while (i_ < n_ && (std::isspace(d_[i_]) || d_[i_] == '#')) {
      if (d_[i_] == '#')
        while (i_ < n_ && d_[i_] != '\n' && d_[i_] != '\r') ++i_;
      else
        ++i_;
    }
    if (i_ >= n_ || !std::isdigit(d_[i_])) return false;
    int64_t x = 0;
    while (i_ < n_ && std::isdigit(d_[i_])) {
      x = std::min<int64_t>(x * 10 + (d_[i_] - '0'), INT64_C(1) << 40);  // saturate: no overflow
      ++i_;
    }
    *v = x;
    return true;
  }

 private:
  const unsigned char* d_;
  size_t n_, i_;
};

// PAM: "P7\nWIDTH 640\nHEIGHT 480\n...ENDHDR\n".
void pam_size(const unsigned char* d, size_t n, ImageHeader* h) {
  const std::string text(reinterpret_cast<const char*>(d), std::min<size_t>(n, 4096));
  for (const char* key : {"WIDTH", "HEIGHT"}) {
    const size_t at = text.find(key);
    int64_t v = 0;
    if (at == std::string::npos || !Numbers(d, n, at + std::strlen(key)).next(&v)) return;
    (key[0] == 'W' ? h->width : h->height) = v;
  }
}

// RIFF....WEBP then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
void webp_size(const unsigned char* d, size_t n, ImageHeader* h) {
  if (n < 30) return;
  const unsigned char* c = d + 12;
  if (!std::memcmp(c, "VP8 ", 4)) {
    h->width = le16(c + 14) & 0x3FFF;
    h->height = le16(c + 16) & 0x3FFF;
  } else if (!std::memcmp(c, "VP8L", 4)) {
    const uint32_t b = le32(c + 9);
    h->width = (b & 0x3FFF) + 1;
    h->height = ((b >> 14) & 0x3FFF) + 1;
  } else if (!std::memcmp(c, "VP8X", 4)) {
    h->width = 1 + (uint32_t(c[12]) | uint32_t(c[13]) << 8 | uint32_t(c[14]) << 16);
    h->height = 1 + (uint32_t(c[15]) | uint32_t(c[16]) << 8 | uint32_t(c[17]) << 16);
  }
}

// BMP: a 12-byte OS/2 core header keeps 16-bit sizes, the later ones 32-bit
// (a negative height is a top-down image).
void bmp_size(const unsigned char* d, size_t n, ImageHeader* h) {
  if (n < 26) return;
  const uint32_t info = le32(d + 14);
  if (info == 12) {
    h->width = le16(d + 18);
    h->height = le16(d + 20);
  } else if (info >= 36) {
    h->width = le32s(d + 18);
    h->height = std::abs(static_cast<int64_t>(le32s(d + 22)));
  }
}

// A JPEG 2000 codestream's SIZ segment (FF4F FF51): the image area is
// Xsiz - XOsiz by Ysiz - YOsiz.
void j2k_size(const unsigned char* d, size_t n, ImageHeader* h) {
  if (n < 4 + 2 + 2 + 16 || be16(d) != 0xFF4F || be16(d + 2) != 0xFF51) return;
  const unsigned char* s = d + 8;  // after the marker, Lsiz and Rsiz
  const int64_t x = be32(s), y = be32(s + 4), x0 = be32(s + 8), y0 = be32(s + 12);
  if (x > x0 && y > y0) {
    h->width = x - x0;
    h->height = y - y0;
  }
}

// A JP2 file: boxes (length, type); the codestream is in the "jp2c" box.
void jp2_size(const unsigned char* d, size_t n, ImageHeader* h) {
  size_t at = 0;
  while (at + 8 <= n) {
    uint64_t len = be32(d + at);
    size_t header = 8;
    if (len == 1) {
      if (at + 16 > n) return;
      len = (uint64_t(be32(d + at + 8)) << 32) | be32(d + at + 12);
      header = 16;
    } else if (len == 0) {
      len = n - at;
    }
    if (!std::memcmp(d + at + 4, "jp2c", 4)) return j2k_size(d + at + header, n - at - header, h);
    if (len < header || len > n - at) return;
    at += static_cast<size_t>(len);
  }
}

}  // namespace

const char* image_format_name(ImageFormat f) {
  switch (f) {
    case ImageFormat::Jpeg: return "JPEG";
    case ImageFormat::Png: return "PNG";
    case ImageFormat::Bmp: return "BMP";
    case ImageFormat::Pnm: return "PNM";
    case ImageFormat::Pam: return "PAM";
    case ImageFormat::Pfm: return "PFM";
    case ImageFormat::Webp: return "WebP";
    case ImageFormat::Tiff: return "TIFF";
    case ImageFormat::SunRaster: return "Sun raster";
    case ImageFormat::Jpeg2000: return "JPEG 2000";
    default: return "";
  }
}

ImageFormat sniff_image_format(const unsigned char* h, size_t n) {
  if (n < 4) return ImageFormat::Unknown;
  if (h[0] == 0xFF && h[1] == 0xD8) return ImageFormat::Jpeg;
  if (h[0] == 0x89 && h[1] == 'P' && h[2] == 'N' && h[3] == 'G') return ImageFormat::Png;
  if (h[0] == 'B' && h[1] == 'M') return ImageFormat::Bmp;
  if (h[0] == 'P' && h[1] >= '1' && h[1] <= '6') return ImageFormat::Pnm;
  if (h[0] == 'P' && h[1] == '7') return ImageFormat::Pam;
  if (h[0] == 'P' && (h[1] == 'F' || h[1] == 'f')) return ImageFormat::Pfm;
  if (n >= 12 && !std::memcmp(h, "RIFF", 4) && !std::memcmp(h + 8, "WEBP", 4)) return ImageFormat::Webp;
  if (!std::memcmp(h, "II*\0", 4) || !std::memcmp(h, "MM\0*", 4) || !std::memcmp(h, "II+\0", 4) ||
      !std::memcmp(h, "MM\0+", 4))
    return ImageFormat::Tiff;
  if (be32(h) == 0x59A66A95) return ImageFormat::SunRaster;
  if (be16(h) == 0xFF4F || (n >= 12 && be32(h) == 12 && !std::memcmp(h + 4, "jP  ", 4))) return ImageFormat::Jpeg2000;
  return ImageFormat::Unknown;
}

ImageHeader read_image_header(const char* data, size_t size) {
  const auto* d = reinterpret_cast<const unsigned char*>(data);
  ImageHeader h;
  h.format = sniff_image_format(d, size);
  switch (h.format) {
    case ImageFormat::Jpeg: {
      char why[JMSG_LENGTH_MAX] = {0};
      if (!jpeg_dimensions(d, size, &h.width, &h.height, why, sizeof(why))) h.error = why;
      break;
    }
    case ImageFormat::Png:
      // libpng requires IHDR as the first chunk; its width and height are
      // 31-bit by the format's rules.
      if (size >= 24 && !std::memcmp(d + 12, "IHDR", 4)) {
        h.width = std::min<uint32_t>(be32(d + 16), INT32_MAX);
        h.height = std::min<uint32_t>(be32(d + 20), INT32_MAX);
      }
      break;
    case ImageFormat::Bmp: bmp_size(d, size, &h); break;
    case ImageFormat::Pnm:
    case ImageFormat::Pfm: {
      Numbers numbers(d, size, 2);
      if (!numbers.next(&h.width) || !numbers.next(&h.height)) h.width = h.height = 0;
      break;
    }
    case ImageFormat::Pam: pam_size(d, size, &h); break;
    case ImageFormat::Webp: webp_size(d, size, &h); break;
    case ImageFormat::Tiff:
      try {
        const TiffDirectory first = TiffFile::open_memory(data, size).directory();
        h.width = first.width;
        h.height = first.height;
      } catch (const Error& e) {
        h.error = e.what();
      }
      break;
    case ImageFormat::SunRaster:
      if (size >= 12) {
        h.width = be32(d + 4);
        h.height = be32(d + 8);
      }
      break;
    case ImageFormat::Jpeg2000:
      if (be16(d) == 0xFF4F) j2k_size(d, size, &h);
      else jp2_size(d, size, &h);
      break;
    default: break;
  }
  if (h.error.empty() && h.format != ImageFormat::Unknown && !h.has_size())
    h.error = std::string("no readable size in its ") + image_format_name(h.format) + " header";
  return h;
}

}  // namespace ocrforge
