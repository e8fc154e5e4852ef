#include "image_input.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "input_errors.h"
#include "ocrforge/infer/image_reader.h"

namespace fs = std::filesystem;

namespace ocrforge::python {

// PDFs are read page by page through Document (document_input.h); only a
// caller that skipped it gets here with one.
static const char* kPdfAdvice = "a document, not one image: ocr() and predict() read its pages";

static bool is_pdf_header(const unsigned char* h, size_t n) { return n >= 5 && std::memcmp(h, "%PDF-", 5) == 0; }

// PNG colour types 4 (grey + alpha) and 6 (RGBA), from the IHDR chunk that
// must come first: 8-byte signature, length, "IHDR", width, height, bit
// depth, then the colour type at byte 25.
static bool is_png_with_alpha(const unsigned char* h, size_t n) {
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (n < 26 || std::memcmp(h, sig, 8) != 0 || std::memcmp(h + 12, "IHDR", 4) != 0) return false;
  return h[25] == 4 || h[25] == 6;
}

void check_image_path(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) {
    if (fs::is_symlink(fs::symlink_status(path, ec)))
      throw InputNotFound("image '" + path + "' is a symbolic link to a missing file");
    throw InputNotFound("image '" + path + "' does not exist");
  }
  if (fs::is_directory(st))
    throw InputIsFolder("'" + path + "' is a folder, not an image (predict() reads the images of a folder; ocr() takes one image)");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    const int err = errno;
    throw InputUnreadable("image '" + path + "' cannot be read: " + std::strerror(err), err);
  }
  std::fclose(f);
}

cv::Mat to_bgr(const cv::Mat& img, const std::array<int, 3>& alpha_rgb, const std::string& what) {
  cv::Mat in = img;
  if (in.depth() == CV_16U) in.convertTo(in, CV_8U, 1.0 / 256.0);
  if (in.depth() != CV_8U) throw BadInput(what + ": expected 8-bit pixels, got OpenCV depth " + std::to_string(in.depth()));
  if (in.channels() == 3) return in;
  cv::Mat out;
  if (in.channels() == 1) {
    cv::cvtColor(in, out, cv::COLOR_GRAY2BGR);
    return out;
  }
  if (in.channels() != 4)
    throw BadInput(what + ": expected 1, 3 or 4 channels (grey, BGR, BGRA), got " + std::to_string(in.channels()));
  out.create(in.rows, in.cols, CV_8UC3);
  // BGR order of the background: alpha_rgb is (R, G, B).
  const double bg[3] = {double(alpha_rgb[2]), double(alpha_rgb[1]), double(alpha_rgb[0])};
  for (int y = 0; y < in.rows; ++y) {
    const cv::Vec4b* src = in.ptr<cv::Vec4b>(y);
    cv::Vec3b* dst = out.ptr<cv::Vec3b>(y);
    for (int x = 0; x < in.cols; ++x) {
      const double a = src[x][3] / 255.0;
      for (int c = 0; c < 3; ++c) dst[x][c] = static_cast<unsigned char>(bg[c] * (1.0 - a) + src[x][c] * a);
    }
  }
  return out;
}

cv::Mat apply_preprocess(const cv::Mat& bgr, const Preprocess& pre) {
  cv::Mat out = bgr;
  if (pre.invert) {
    cv::Mat inv;
    cv::bitwise_not(out, inv);
    out = inv;
  }
  if (pre.binarize) {
    cv::Mat grey, bin, back;
    cv::cvtColor(out, grey, cv::COLOR_BGR2GRAY);
    cv::threshold(grey, bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    cv::cvtColor(bin, back, cv::COLOR_GRAY2BGR);
    out = back;
  }
  return out;
}

InputImage decode_file(const std::string& path, const ImageReadParams& read, const Preprocess& pre) {
  check_image_path(path);
  unsigned char head[32] = {0};
  size_t n = 0;
  {
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(head), sizeof(head));
    n = static_cast<size_t>(in.gcount());
  }
  if (is_pdf_header(head, n)) throw NotSupportedYet("'" + path + "' is a PDF: " + kPdfAdvice);
  InputImage out;
  if (is_png_with_alpha(head, n)) {
    std::string bytes;
    {
      std::ifstream in(path, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (bytes.size() > static_cast<size_t>(INT32_MAX))
      throw BadInput("image '" + path + "' is over the 2 GiB a decoder call takes");
    try {
      check_image_budget(bytes, path, read.max_pixels);
    } catch (const Error& e) {
      throw BadInput(e.what());
    }
    cv::Mat raw;
    try {
      // The bytes the budget was checked on, not the file read again.
      const cv::Mat buf(1, static_cast<int>(bytes.size()), CV_8UC1, bytes.data());
      raw = cv::imdecode(buf, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
      throw BadInput("image '" + path + "' cannot be decoded: " + e.what());
    }
    if (raw.empty()) throw BadInput("image '" + path + "' cannot be decoded: a corrupt or truncated PNG file");
    out.bgr = to_bgr(raw, pre.alpha_rgb, "image '" + path + "'");
  } else {
    try {
      LoadedImage img = read_image(path, read.max_side, read.max_pixels);
      // As libjpeg itself says it when it reads a file that stops early.
      if (!img.warning.empty())
        std::fprintf(stderr, "ocrforge: warning: image '%s': %s (decoded what could be read)\n", path.c_str(),
                     img.warning.c_str());
      out.bgr = img.bgr;
      out.scale = img.scale;
    } catch (const Error& e) {
      // The path was checked above: what is left is about the content.
      throw BadInput(e.what());
    }
  }
  out.bgr = apply_preprocess(out.bgr, pre);
  return out;
}

InputImage decode_bytes(std::string_view data, const ImageReadParams& read, const Preprocess& pre) {
  const auto* h = reinterpret_cast<const unsigned char*>(data.data());
  if (data.empty()) throw BadInput("image bytes are empty (0 bytes)");
  if (data.size() > static_cast<size_t>(INT32_MAX)) throw BadInput("image bytes are over 2 GiB; pass the file's path instead");
  if (is_pdf_header(h, data.size())) throw NotSupportedYet(std::string("the bytes are a PDF: ") + kPdfAdvice);
  try {
    // The same budget as a path gets, from the decoder's reading of the
    // header, before the decode below allocates anything.
    check_image_budget(data, "bytes (" + std::to_string(data.size()) + " bytes)", read.max_pixels);
  } catch (const Error& e) {
    throw BadInput(e.what());
  }
  cv::Mat raw;
  try {
    const cv::Mat buf(1, static_cast<int>(data.size()), CV_8UC1, const_cast<char*>(data.data()));
    raw = cv::imdecode(buf, cv::IMREAD_UNCHANGED);
  } catch (const cv::Exception& e) {
    throw BadInput(std::string("image bytes cannot be decoded: ") + e.what());
  }
  if (raw.empty())
    throw BadInput("image bytes (" + std::to_string(data.size()) +
                   " bytes) cannot be decoded: corrupt or truncated");
  InputImage out;
  out.bgr = apply_preprocess(to_bgr(raw, pre.alpha_rgb, "image bytes"), pre);
  return out;
}

}  // namespace ocrforge::python
