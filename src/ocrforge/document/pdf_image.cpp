#include "ocrforge/document/pdf_image.h"

#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <sstream>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

uint32_t be32(const std::string& s, size_t at) {
  return (static_cast<uint32_t>(static_cast<unsigned char>(s[at])) << 24) |
         (static_cast<uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16) |
         (static_cast<uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8) |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

uint16_t be16(const std::string& s, size_t at) {
  return static_cast<uint16_t>((static_cast<unsigned char>(s[at]) << 8) | static_cast<unsigned char>(s[at + 1]));
}

// EXIF orientation (tag 0x0112) in an APP1 segment's payload; 1 when absent.
int exif_orientation(const std::string& seg) {
  if (seg.size() < 14 || seg.compare(0, 6, std::string("Exif\0\0", 6)) != 0) return 1;
  const size_t tiff = 6;
  const bool le = seg[tiff] == 'I';
  const auto u16 = [&](size_t at) -> uint32_t {
    if (at + 2 > seg.size()) return 0;
    const auto a = static_cast<unsigned char>(seg[at]), b = static_cast<unsigned char>(seg[at + 1]);
    return le ? (a | (b << 8)) : ((a << 8) | b);
  };
  const auto u32 = [&](size_t at) -> uint32_t { return le ? (u16(at) | (u16(at + 2) << 16)) : ((u16(at) << 16) | u16(at + 2)); };
  const size_t ifd = tiff + u32(tiff + 4);
  const uint32_t entries = u16(ifd);
  for (uint32_t e = 0; e < entries && ifd + 2 + 12 * (e + 1) <= seg.size(); ++e) {
    const size_t at = ifd + 2 + 12 * e;
    if (u16(at) == 0x0112) return static_cast<int>(u16(at + 8));
  }
  return 1;
}

std::optional<PdfImage> jpeg_as_is(const std::string& data) {
  size_t i = 2;
  int orientation = 1;
  bool adobe = false;
  while (i + 4 <= data.size()) {
    if (static_cast<unsigned char>(data[i]) != 0xFF) return std::nullopt;
    const auto marker = static_cast<unsigned char>(data[i + 1]);
    if (marker == 0xFF) {
      ++i;
      continue;
    }
    const size_t len = be16(data, i + 2);
    if (len < 2 || i + 2 + len > data.size()) return std::nullopt;
    const std::string seg = data.substr(i + 4, len - 2);
    if (marker == 0xE1) orientation = exif_orientation(seg);
    if (marker == 0xEE && seg.compare(0, 5, "Adobe") == 0) adobe = true;
    // SOF0-3, 5-7, 9-11, 13-15 (not DHT C4, JPG C8, DAC CC).
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
      if (seg.size() < 6) return std::nullopt;
      PdfImage img;
      const int precision = static_cast<unsigned char>(seg[0]);
      img.height = be16(seg, 1);
      img.width = be16(seg, 3);
      img.components = static_cast<unsigned char>(seg[5]);
      // Lossless and arithmetic-coded JPEGs are not for every PDF reader.
      const bool common = marker == 0xC0 || marker == 0xC1 || marker == 0xC2;
      if (!common || precision != 8 || (img.components != 1 && img.components != 3) || orientation != 1 ||
          (adobe && img.components != 3) || img.width == 0 || img.height == 0)
        return std::nullopt;
      img.filter = "/DCTDecode";
      img.data = data;
      return img;
    }
    if (marker == 0xDA) return std::nullopt;  // scan data before any frame header
    i += 2 + len;
  }
  return std::nullopt;
}

std::optional<PdfImage> png_as_is(const std::string& data) {
  size_t i = 8;
  PdfImage img;
  std::string idat;
  bool header = false;
  while (i + 12 <= data.size()) {
    const uint32_t len = be32(data, i);
    const std::string type = data.substr(i + 4, 4);
    if (i + 12 + len > data.size()) return std::nullopt;
    if (type == "IHDR") {
      if (len < 13) return std::nullopt;
      img.width = static_cast<int>(be32(data, i + 8));
      img.height = static_cast<int>(be32(data, i + 12));
      const int depth = static_cast<unsigned char>(data[i + 16]), colour = static_cast<unsigned char>(data[i + 17]);
      const int interlace = static_cast<unsigned char>(data[i + 20]);
      if (depth != 8 || (colour != 0 && colour != 2) || interlace != 0) return std::nullopt;
      img.components = colour == 0 ? 1 : 3;
      header = true;
    } else if (type == "IDAT") {
      idat.append(data, i + 8, len);
    } else if (type == "IEND") {
      break;
    }
    i += 12 + len;
  }
  if (!header || idat.empty() || img.width <= 0 || img.height <= 0) return std::nullopt;
  img.filter = "/FlateDecode";
  img.png_predictor_columns = img.width;
  img.data = std::move(idat);
  return img;
}

}  // namespace

std::optional<PdfImage> pdf_image_from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string data = ss.str();
  if (data.size() > 3 && static_cast<unsigned char>(data[0]) == 0xFF && static_cast<unsigned char>(data[1]) == 0xD8)
    return jpeg_as_is(data);
  if (data.size() > 8 && data.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) return png_as_is(data);
  return std::nullopt;
}

PdfImage pdf_image_from_pixels(const cv::Mat& bgr) {
  if (bgr.empty() || bgr.depth() != CV_8U) throw Error("pdf_image_from_pixels: an 8-bit image is needed");
  cv::Mat pixels;
  if (bgr.channels() == 1) {
    pixels = bgr;
  } else {
    cv::Mat bgr3 = bgr;
    if (bgr.channels() == 4) cv::cvtColor(bgr, bgr3, cv::COLOR_BGRA2BGR);
    std::vector<cv::Mat> ch;
    cv::split(bgr3, ch);
    const bool grey = cv::countNonZero(ch[0] != ch[1]) == 0 && cv::countNonZero(ch[1] != ch[2]) == 0;
    if (grey) pixels = ch[0];
    else cv::cvtColor(bgr3, pixels, cv::COLOR_BGR2RGB);
  }
  if (!pixels.isContinuous()) pixels = pixels.clone();
  PdfImage img;
  img.width = pixels.cols;
  img.height = pixels.rows;
  img.components = pixels.channels();
  img.filter = "/FlateDecode";
  const uLong raw = static_cast<uLong>(pixels.total() * pixels.elemSize());
  uLongf size = compressBound(raw);
  img.data.resize(size);
  if (compress2(reinterpret_cast<Bytef*>(img.data.data()), &size, pixels.data, raw, 6) != Z_OK)
    throw Error("cannot compress a page image for the PDF (out of memory?)");
  img.data.resize(size);
  return img;
}

}  // namespace ocrforge
