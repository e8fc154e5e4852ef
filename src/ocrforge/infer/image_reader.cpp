#include "ocrforge/infer/image_reader.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace fs = std::filesystem;

namespace ocrforge {

static uint32_t be16(const unsigned char* p) { return (uint32_t(p[0]) << 8) | p[1]; }
static uint32_t be32(const unsigned char* p) { return (be16(p) << 16) | be16(p + 2); }
static uint32_t le16(const unsigned char* p) { return uint32_t(p[0]) | (uint32_t(p[1]) << 8); }
static uint32_t le32(const unsigned char* p) { return le16(p) | (le16(p + 2) << 16); }

enum class Format { Unknown, Jpeg, Png, Bmp, Pnm, Webp, Tiff };

static Format sniff(const unsigned char* h) {
  if (h[0] == 0xFF && h[1] == 0xD8) return Format::Jpeg;
  if (h[0] == 0x89 && h[1] == 'P' && h[2] == 'N' && h[3] == 'G') return Format::Png;
  if (h[0] == 'B' && h[1] == 'M') return Format::Bmp;
  if (h[0] == 'P' && h[1] >= '1' && h[1] <= '6') return Format::Pnm;
  if (!std::memcmp(h, "RIFF", 4) && !std::memcmp(h + 8, "WEBP", 4)) return Format::Webp;
  if (!std::memcmp(h, "II*\0", 4) || !std::memcmp(h, "MM\0*", 4)) return Format::Tiff;
  return Format::Unknown;
}

static const char* format_name(Format f) {
  switch (f) {
    case Format::Jpeg: return "JPEG";
    case Format::Png: return "PNG";
    case Format::Bmp: return "BMP";
    case Format::Pnm: return "PNM";
    case Format::Webp: return "WebP";
    case Format::Tiff: return "TIFF";
    default: return "";
  }
}

// Walks JPEG markers up to the first start-of-frame, which holds the size.
static cv::Size jpeg_size(std::istream& in) {
  unsigned char seg[8];
  in.clear();
  in.seekg(2);
  while (in.read(reinterpret_cast<char*>(seg), 4)) {
    if (seg[0] != 0xFF) return {};
    const unsigned marker = seg[1];
    const uint32_t len = be16(seg + 2);
    const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      if (!in.read(reinterpret_cast<char*>(seg), 5)) return {};
      return {static_cast<int>(be16(seg + 3)), static_cast<int>(be16(seg + 1))};
    }
    if (len < 2) return {};
    in.seekg(len - 2, std::ios::cur);
  }
  return {};
}

// "P6\n# comment\n640 480\n255\n": the two first numbers after the magic.
static cv::Size pnm_size(std::istream& in) {
  in.clear();
  in.seekg(2);
  long v[2] = {0, 0};
  for (long& x : v) {
    int c = in.get();
    while (c != EOF && (std::isspace(c) || c == '#')) {
      if (c == '#')
        while (c != EOF && c != '\n') c = in.get();
      c = in.get();
    }
    if (c == EOF || !std::isdigit(c)) return {};
    while (c != EOF && std::isdigit(c) && x < (1L << 31)) {
      x = x * 10 + (c - '0');
      c = in.get();
    }
  }
  if (v[0] >= (1L << 31) || v[1] >= (1L << 31)) return {INT32_MAX, INT32_MAX};
  return {static_cast<int>(v[0]), static_cast<int>(v[1])};
}

// RIFF....WEBP then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
static cv::Size webp_size(const unsigned char* h, size_t n) {
  if (n < 30) return {};
  const unsigned char* c = h + 12;
  if (!std::memcmp(c, "VP8 ", 4)) return {static_cast<int>(le16(c + 14) & 0x3FFF), static_cast<int>(le16(c + 16) & 0x3FFF)};
  if (!std::memcmp(c, "VP8L", 4)) {
    const uint32_t b = le32(c + 9);
    return {static_cast<int>((b & 0x3FFF) + 1), static_cast<int>(((b >> 14) & 0x3FFF) + 1)};
  }
  if (!std::memcmp(c, "VP8X", 4)) {
    const uint32_t w = 1 + (uint32_t(c[12]) | uint32_t(c[13]) << 8 | uint32_t(c[14]) << 16);
    const uint32_t hh = 1 + (uint32_t(c[15]) | uint32_t(c[16]) << 8 | uint32_t(c[17]) << 16);
    return {static_cast<int>(w), static_cast<int>(hh)};
  }
  return {};
}

// The size from the header of the image `in` holds (see probe_image_size).
static cv::Size probe_stream_size(std::istream& in) {
  unsigned char h[32] = {0};
  in.read(reinterpret_cast<char*>(h), sizeof(h));
  const size_t n = static_cast<size_t>(in.gcount());
  if (n < 4) return {};
  switch (sniff(h)) {
    case Format::Jpeg: return jpeg_size(in);
    case Format::Png:
      if (n < 24) return {};
      // PNG allows up to 2^31-1 per side; clamp so the pixel count stays honest.
      return {static_cast<int>(std::min<uint32_t>(be32(h + 16), INT32_MAX)),
              static_cast<int>(std::min<uint32_t>(be32(h + 20), INT32_MAX))};
    case Format::Bmp:
      if (n < 26) return {};
      return {static_cast<int>(le32(h + 18)), std::abs(static_cast<int>(le32(h + 22)))};
    case Format::Pnm: return pnm_size(in);
    case Format::Webp: return webp_size(h, n);
    default: return {};
  }
}

cv::Size probe_image_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return probe_stream_size(in);
}

// A read-only istream over bytes in memory (no copy), for the header probes.
class MemoryStreamBuf : public std::streambuf {
 public:
  MemoryStreamBuf(const char* data, size_t size) {
    char* p = const_cast<char*>(data);
    setg(p, p, p + size);
  }

 protected:
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    char* target = (dir == std::ios_base::beg ? eback() : dir == std::ios_base::cur ? gptr() : egptr()) + off;
    if (target < eback() || target > egptr()) return pos_type(off_type(-1));
    setg(eback(), target, egptr());
    return pos_type(target - eback());
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }
};

// Why a path cannot be read, in the words of the system ("Permission
// denied", "Too many levels of symbolic links"); "" when it can.
static std::string open_error(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::strerror(errno);
  std::fclose(f);
  return "";
}

// The size of the image as read. The decoders turn a photo upright as its
// EXIF orientation says (as cv2.imread does for PaddleOCR), while the header
// gives the stored size, which orientations 5-8 turn by 90 degrees. Every
// coordinate refers to the image as read, so the stored size is swapped
// when the decoded pixels (at 1/factor) came out turned.
static cv::Size upright_size(cv::Size stored, cv::Size decoded, int factor) {
  if (stored.empty()) return decoded;
  const auto reduced = [factor](int v) { return static_cast<int>((static_cast<int64_t>(v) + factor - 1) / factor); };
  if (reduced(stored.width) == decoded.width && reduced(stored.height) == decoded.height) return stored;
  if (reduced(stored.height) == decoded.width && reduced(stored.width) == decoded.height)
    return {stored.height, stored.width};
  return {decoded.width * factor, decoded.height * factor};  // a header we misread: trust the pixels
}

// The part of reading shared by files and memory: the pixel cap from the
// header's size, the reduced JPEG decode, and errors naming `name`.
template <typename Decode>
static LoadedImage decode_checked(const std::string& name, Format format, cv::Size original, int max_side,
                                  int64_t max_pixels, Decode decode) {
  LoadedImage out;
  out.original = original;
  int flags = cv::IMREAD_COLOR;
  int factor = 1;
  const int longest = std::max(out.original.width, out.original.height);
  if (format == Format::Jpeg && max_side > 0 && longest > 2 * max_side) {
    // The largest reduction that keeps the longer side >= max_side.
    factor = 2;
    while (factor < 8 && longest / (factor * 2) >= max_side) factor *= 2;
    flags = factor == 2 ? cv::IMREAD_REDUCED_COLOR_2 : factor == 4 ? cv::IMREAD_REDUCED_COLOR_4 : cv::IMREAD_REDUCED_COLOR_8;
  }
  if (max_pixels > 0 && !out.original.empty()) {
    // What the decoder will allocate (the JPEG decoder rounds reduced sizes up).
    const int64_t w = (static_cast<int64_t>(out.original.width) + factor - 1) / factor;
    const int64_t h = (static_cast<int64_t>(out.original.height) + factor - 1) / factor;
    if (w * h > max_pixels)
      throw ImageTooLargeError("image '" + name + "' is " + std::to_string(out.original.width) + " x " +
                               std::to_string(out.original.height) +
                               (factor > 1 ? " (decoded at 1/" + std::to_string(factor) + ")" : "") + " = " +
                               std::to_string(w * h) + " pixels, over --max_image_pixels=" +
                               std::to_string(max_pixels) + "; shrink it or raise --max_image_pixels");
  }
  try {
    out.bgr = decode(flags);
  } catch (const cv::Exception& e) {
    throw Error("image '" + name + "' cannot be decoded: " + e.what());
  }
  if (out.bgr.empty()) {
    if (format == Format::Unknown)
      throw Error("image '" + name + "' cannot be decoded: not an image, or a format OpenCV cannot read (GIF, ...)");
    throw Error("image '" + name + "' cannot be decoded: a corrupt or truncated " + format_name(format) + " file");
  }
  out.original = upright_size(out.original, out.bgr.size(), factor);
  out.scale = static_cast<float>(out.original.width) / static_cast<float>(out.bgr.cols);
  if (out.bgr.depth() != CV_8U) out.bgr.convertTo(out.bgr, CV_8U, 1.0 / 256.0);
  return out;
}

LoadedImage read_image(const std::string& path, int max_side, int64_t max_pixels) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw Error("image '" + path + "' cannot be read: " + ec.message());
  if (!fs::exists(st)) {
    // A dangling symlink "exists" as a link but not as a file.
    if (fs::is_symlink(fs::symlink_status(path, ec)))
      throw Error("image '" + path + "' is a symbolic link to a missing file");
    throw Error("image '" + path + "' does not exist");
  }
  if (fs::is_directory(st)) throw Error("'" + path + "' is a folder, not an image");
  const std::string why = open_error(path);
  if (!why.empty()) throw Error("image '" + path + "' cannot be read: " + why);
  if (fs::file_size(path, ec) == 0) throw Error("image '" + path + "' is empty (0 bytes)");

  unsigned char head[16] = {0};
  {
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(head), sizeof(head));
  }
  return decode_checked(path, sniff(head), probe_image_size(path), max_side, max_pixels,
                        [&path](int flags) { return cv::imread(path, flags); });
}

// Whether a JPEG's marker segments and entropy-coded data run up to an
// end-of-image marker (FF D9). Segments with a length (APPn, where an EXIF
// thumbnail brings its own FF D9, DQT, SOF, ...) are skipped whole; in
// entropy-coded data FF 00 is a stuffed byte and FF D0-D7 restart markers.
// Bytes after the marker (camera trailers) do not matter.
static bool jpeg_has_end_marker(const std::string& b) {
  size_t i = 2;
  const size_t n = b.size();
  while (i + 1 < n) {
    if (static_cast<unsigned char>(b[i]) != 0xFF) {
      ++i;  // entropy-coded data
      continue;
    }
    const unsigned m = static_cast<unsigned char>(b[i + 1]);
    if (m == 0xD9) return true;
    if (m == 0x00 || m == 0xFF || (m >= 0xD0 && m <= 0xD7) || m == 0x01) {
      i += (m == 0xFF) ? 1 : 2;  // stuffing, fill byte, restart marker, TEM
      continue;
    }
    if (i + 3 >= n) return false;
    const size_t len = (static_cast<size_t>(static_cast<unsigned char>(b[i + 2])) << 8) |
                       static_cast<unsigned char>(b[i + 3]);
    if (len < 2) return false;
    i += 2 + len;  // a segment; after SOS the scan's entropy-coded data follows
  }
  return false;
}

LoadedImage decode_image(const std::string& bytes, const std::string& name, int max_side, int64_t max_pixels) {
  if (bytes.empty()) throw Error("image '" + name + "' is empty (0 bytes)");
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    throw ImageTooLargeError("image '" + name + "' is " + std::to_string(bytes.size()) +
                             " bytes: over the 2 GiB a decoder call takes");
  unsigned char head[16] = {0};
  std::memcpy(head, bytes.data(), std::min(bytes.size(), sizeof(head)));
  if (sniff(head) == Format::Jpeg && !jpeg_has_end_marker(bytes))
    throw Error("image '" + name + "' cannot be decoded: a truncated JPEG (its data stops before the end-of-image "
                "marker); send the whole file");
  MemoryStreamBuf buf(bytes.data(), bytes.size());
  std::istream in(&buf);
  const cv::Size original = probe_stream_size(in);
  return decode_checked(name, sniff(head), original, max_side, max_pixels, [&bytes](int flags) {
    // imdecode only reads the buffer; the Mat header does not copy it.
    const cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8UC1, const_cast<char*>(bytes.data()));
    return cv::imdecode(raw, flags);
  });
}

}  // namespace ocrforge
