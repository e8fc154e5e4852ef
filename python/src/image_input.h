// Images as the Python module receives them (a path, encoded bytes, a NumPy
// array) turned into the 8-bit BGR image the pipeline reads, with
// PaddleOCR's preprocessing (paddleocr.py check_img / preprocess_image):
// grey images become BGR, transparent pixels are blended onto `alpha_color`,
// then optionally inverted and binarised.
#pragma once
#include <array>
#include <string>
#include <string_view>

#include <opencv2/core.hpp>

#include "ocrforge/infer/ocr_flags.h"

namespace ocrforge::python {

struct Preprocess {
  std::array<int, 3> alpha_rgb{255, 255, 255};  // PaddleOCR's alpha_color, R, G, B
  bool invert = false;                          // ocr(inv=True)
  bool binarize = false;                        // ocr(bin=True): Otsu on the grey image
};

struct InputImage {
  cv::Mat bgr;
  float scale = 1.f;  // file pixels per pixel of `bgr` (read_image's reduced JPEG decoding)
};

// The checks that say what is wrong with the path itself, before decoding:
// InputNotFound (a dangling symbolic link named so), InputIsFolder,
// InputUnreadable.
void check_image_path(const std::string& path);

// A file, decoded as `ocrforge ocr` decodes it (read_image: large JPEGs
// reduced, the pixel cap), except that a PNG with an alpha channel keeps it
// so that it can be blended onto alpha_color as PaddleOCR does. Throws
// InputNotFound, InputIsFolder, InputUnreadable, NotSupportedYet (a PDF:
// Document reads those, document_input.h) or BadInput (empty, too large,
// corrupt, not an image).
InputImage decode_file(const std::string& path, const ImageReadParams& read, const Preprocess& pre);

// Encoded image bytes (what open(path, "rb").read() gives), under the same
// pixel budget as a path; BadInput or NotSupportedYet as decode_file.
InputImage decode_bytes(std::string_view data, const ImageReadParams& read, const Preprocess& pre);

// An 8-bit image with 1, 3 or 4 channels (16-bit is scaled to 8) as BGR:
// grey is expanded, BGRA blended onto alpha_rgb with PaddleOCR's arithmetic
// (alpha = A / 255, channel = uint8(bg * (1 - alpha) + c * alpha)). Returns
// `img` itself (no copy) when it is already 8-bit BGR.
cv::Mat to_bgr(const cv::Mat& img, const std::array<int, 3>& alpha_rgb, const std::string& what);

// inv / bin of PaddleOCR's preprocess_image; `bgr` itself when neither is set.
cv::Mat apply_preprocess(const cv::Mat& bgr, const Preprocess& pre);

}  // namespace ocrforge::python
