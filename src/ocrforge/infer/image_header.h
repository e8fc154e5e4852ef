// The size an image file will decode to, read before any pixel is decoded,
// so that one pixel budget holds for every way an image comes in (files,
// folders, HTTP bodies, Python bytes, PDF image streams, TIFF pages).
//
// The size is the decoder's own: JPEG headers are read by libjpeg and TIFF
// directories by libtiff, the libraries OpenCV decodes them with, so a file
// that lies to a simpler reader (fill bytes before a JPEG's frame header, a
// TIFF with two ImageWidth tags) cannot show one size here and decode to
// another. PNG, WebP, BMP, PNM / PAM / PFM, Sun raster and JPEG 2000 keep
// their size at fixed places, read here as their decoders read them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ocrforge {

enum class ImageFormat { Unknown, Jpeg, Png, Bmp, Pnm, Pam, Pfm, Webp, Tiff, SunRaster, Jpeg2000 };

// "JPEG", "PNG", ...; "" for Unknown.
const char* image_format_name(ImageFormat f);

// The format from the first bytes (`n` of them; 16 are enough).
ImageFormat sniff_image_format(const unsigned char* head, size_t n);

struct ImageHeader {
  ImageFormat format = ImageFormat::Unknown;
  int64_t width = 0, height = 0;  // of the first page / frame; 0 when unreadable
  // Why the size could not be read ("" when it could): the header is cut
  // short or malformed. Decoding such a file fails too.
  std::string error;
  bool has_size() const { return width > 0 && height > 0; }
};

// The header of the image in `data` (the whole file, or at least its
// header). Never throws; never allocates in proportion to what the header
// claims.
ImageHeader read_image_header(const char* data, size_t size);

}  // namespace ocrforge
