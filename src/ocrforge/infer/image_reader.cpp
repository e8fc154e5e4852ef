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
#include "ocrforge/infer/image_header.h"
#include "ocrforge/infer/tiff_file.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

const char* const kReadFormats = "JPEG, PNG, TIFF, BMP, WebP, JPEG 2000, PNM / PAM / PFM, Sun raster";

// Why a path cannot be read, in the words of the system ("Permission
// denied", "Too many levels of symbolic links"); "" when it can.
std::string open_error(const std::string& path) {
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
cv::Size upright_size(cv::Size stored, cv::Size decoded, int factor) {
  if (stored.empty()) return decoded;
  const auto reduced = [factor](int v) { return static_cast<int>((static_cast<int64_t>(v) + factor - 1) / factor); };
  if (reduced(stored.width) == decoded.width && reduced(stored.height) == decoded.height) return stored;
  if (reduced(stored.height) == decoded.width && reduced(stored.width) == decoded.height)
    return {stored.height, stored.width};
  return {decoded.width * factor, decoded.height * factor};  // a header we misread: trust the pixels
}

int64_t pixels_over_budget(const ImageHeader& h, int factor, int64_t max_pixels) {
  if (max_pixels <= 0 || !h.has_size()) return 0;
  // What the decoder will allocate (the JPEG decoder rounds reduced sizes up).
  const int64_t w = (h.width + factor - 1) / factor, hh = (h.height + factor - 1) / factor;
  return w * hh > max_pixels ? w * hh : 0;
}

[[noreturn]] void refuse_size(const std::string& name, const ImageHeader& h, int factor, int64_t pixels,
                              int64_t max_pixels) {
  throw ImageTooLargeError("image '" + name + "' is " + std::to_string(h.width) + " x " + std::to_string(h.height) +
                           (factor > 1 ? " (decoded at 1/" + std::to_string(factor) + ")" : "") + " = " +
                           std::to_string(pixels) + " pixels, over --max_image_pixels=" + std::to_string(max_pixels) +
                           "; shrink it or raise --max_image_pixels");
}

// Says what the bytes are when they are not an image, so that a PDF or a GIF
// sent where an image belongs is named as such rather than lumped together.
std::string describe_non_image(std::string_view bytes) {
  const auto starts = [&](const char* magic) { return bytes.rfind(magic, 0) == 0; };
  if (starts("%PDF-"))
    return "a PDF document, not an image (ocrforge reads PDFs as documents: `ocrforge ocr --image_dir FILE.pdf`)";
  if (starts("GIF87a") || starts("GIF89a")) return "a GIF image, a format ocrforge does not read";
  if (bytes.empty()) return "an empty file, not an image";
  return "not an image, or a format ocrforge does not read";
}

ImageHeader checked_image_header(std::string_view bytes, const std::string& name, int64_t max_pixels) {
  const ImageHeader h = read_image_header(bytes.data(), bytes.size());
  if (h.format == ImageFormat::Unknown)
    throw Error("image '" + name + "' cannot be decoded: " + describe_non_image(bytes) + "; it reads " +
                kReadFormats);
  if (!h.error.empty())
    throw Error("image '" + name + "' cannot be decoded: a corrupt or truncated " + image_format_name(h.format) +
                " header (" + h.error + ")");
  if (const int64_t pixels = pixels_over_budget(h, 1, max_pixels)) refuse_size(name, h, 1, pixels, max_pixels);
  return h;
}

// A TIFF of several pages is a document: reading its first page as "the
// image" would drop the rest without a word.
void refuse_multipage_tiff(const std::string& bytes, const std::string& name, const ImageHeader& h) {
  if (h.format != ImageFormat::Tiff) return;
  TiffFile tiff = TiffFile::open_memory(bytes.data(), bytes.size());
  int pages = 1;
  while (pages < 1000 && tiff.next_directory()) ++pages;
  if (pages > 1)
    throw Error("image '" + name + "' is a TIFF of " + (pages >= 1000 ? std::string("1000 or more") : std::to_string(pages)) +
                " pages, where one image is read; read documents with `ocrforge ocr --image_dir FILE.tif` "
                "(every page), or send one page at a time");
}

// The decode shared by files and memory: the pixel budget from the
// decoder's own header (read_image_header), the reduced JPEG decode, and
// errors naming `name`.
LoadedImage decode_checked(const std::string& bytes, const std::string& name, int max_side, int64_t max_pixels) {
  const ImageHeader header = checked_image_header(bytes, name, 0);
  refuse_multipage_tiff(bytes, name, header);
  LoadedImage out;
  out.original = {static_cast<int>(std::min<int64_t>(header.width, INT32_MAX)),
                  static_cast<int>(std::min<int64_t>(header.height, INT32_MAX))};
  int flags = cv::IMREAD_COLOR;
  int factor = 1;
  const int64_t longest = std::max(header.width, header.height);
  if (header.format == ImageFormat::Jpeg && max_side > 0 && longest > 2 * max_side) {
    // The largest reduction that keeps the longer side >= max_side.
    factor = 2;
    while (factor < 8 && longest / (factor * 2) >= max_side) factor *= 2;
    flags = factor == 2 ? cv::IMREAD_REDUCED_COLOR_2 : factor == 4 ? cv::IMREAD_REDUCED_COLOR_4 : cv::IMREAD_REDUCED_COLOR_8;
  }
  if (const int64_t pixels = pixels_over_budget(header, factor, max_pixels))
    refuse_size(name, header, factor, pixels, max_pixels);
  try {
    // imdecode only reads the buffer; the Mat header does not copy it.
    const cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8UC1, const_cast<char*>(bytes.data()));
    out.bgr = cv::imdecode(raw, flags);
  } catch (const cv::Exception& e) {
    throw Error("image '" + name + "' cannot be decoded: " + e.what());
  }
  if (out.bgr.empty())
    throw Error("image '" + name + "' cannot be decoded: a corrupt or truncated " +
                image_format_name(header.format) + " file");
  out.original = upright_size(out.original, out.bgr.size(), factor);
  out.scale = static_cast<float>(out.original.width) / static_cast<float>(out.bgr.cols);
  if (out.bgr.depth() != CV_8U) out.bgr.convertTo(out.bgr, CV_8U, 1.0 / 256.0);
  return out;
}

// Whether a JPEG's marker segments and entropy-coded data run up to an
// end-of-image marker (FF D9). Segments with a length (APPn, where an EXIF
// thumbnail brings its own FF D9, DQT, SOF, ...) are skipped whole; in
// entropy-coded data FF 00 is a stuffed byte and FF D0-D7 restart markers.
// Bytes after the marker (camera trailers) do not matter.
bool jpeg_has_end_marker(const std::string& b) {
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

// A JPEG that stops before its end-of-image marker.
bool truncated_jpeg(const std::string& bytes) {
  return sniff_image_format(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()) == ImageFormat::Jpeg &&
         !jpeg_has_end_marker(bytes);
}

}  // namespace

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
  const uintmax_t size = fs::file_size(path, ec);
  if (size == 0) throw Error("image '" + path + "' is empty (0 bytes)");
  if (size > static_cast<uintmax_t>(INT32_MAX))
    throw ImageTooLargeError("image '" + path + "' is " + std::to_string(size) +
                             " bytes: over the 2 GiB a decoder call takes");
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error("image '" + path + "' cannot be read: an I/O error");
  }
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    throw ImageTooLargeError("image '" + path + "' is " + std::to_string(bytes.size()) +
                             " bytes: over the 2 GiB a decoder call takes");
  LoadedImage out = decode_checked(bytes, path, max_side, max_pixels);
  // Decoded from memory, libjpeg does not warn of a file that stops early;
  // the caller is told here, as a file read by path always told it.
  if (truncated_jpeg(bytes))
    out.warning = "truncated JPEG: its data stops before the end-of-image marker";
  return out;
}

LoadedImage decode_image(const std::string& bytes, const std::string& name, int max_side, int64_t max_pixels) {
  if (bytes.empty()) throw Error("image '" + name + "' is empty (0 bytes)");
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    throw ImageTooLargeError("image '" + name + "' is " + std::to_string(bytes.size()) +
                             " bytes: over the 2 GiB a decoder call takes");
  if (truncated_jpeg(bytes))
    throw Error("image '" + name + "' cannot be decoded: a truncated JPEG (its data stops before the end-of-image "
                "marker); send the whole file");
  return decode_checked(bytes, name, max_side, max_pixels);
}

ImageHeader check_image_budget(std::string_view bytes, const std::string& name, int64_t max_pixels) {
  return checked_image_header(bytes, name, max_pixels);
}

}  // namespace ocrforge
