// Page images as PDF image streams. A JPEG is embedded as it is (DCTDecode)
// and a PNG's compressed data passes through (FlateDecode with its PNG
// predictors), so the PDF shows the very pixels of the input, not a re-encoded
// copy; other images are compressed losslessly here.
#pragma once
#include <optional>
#include <string>

#include <opencv2/core.hpp>

namespace ocrforge {

struct PdfImage {
  int width = 0, height = 0;
  int components = 3;            // 1: DeviceGray, 3: DeviceRGB
  std::string filter;            // "/DCTDecode" or "/FlateDecode"
  int png_predictor_columns = 0;  // > 0: /DecodeParms with PNG predictors (Predictor 15)
  std::string data;              // the stream's encoded bytes
};

// The file's own encoded data when it can go into a PDF unchanged: a
// baseline or progressive 8-bit JPEG with 1 or 3 components and no EXIF
// rotation, or a non-interlaced 8-bit grey or RGB PNG. Otherwise nullopt.
std::optional<PdfImage> pdf_image_from_file(const std::string& path);

// `bgr` (8-bit, 1 or 3 channels) compressed with Flate; a colour image whose
// three channels are equal is stored as grey.
PdfImage pdf_image_from_pixels(const cv::Mat& bgr);

}  // namespace ocrforge
