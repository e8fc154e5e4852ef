// Reads an image for OCR with errors that name the file, and without
// decoding huge JPEGs at full size.
#pragma once
#include <string>

#include <opencv2/core.hpp>

namespace ocrforge {

struct LoadedImage {
  cv::Mat bgr;        // 8-bit, 3 channels
  cv::Size original;  // size of the image in the file
  // Multiply coordinates in `bgr` by this to get file coordinates (1 unless
  // the image was decoded reduced, see read_image).
  float scale = 1.f;
};

// Width and height from the file header (JPEG, PNG, BMP) without decoding;
// an empty size when the header is not recognised.
cv::Size probe_image_size(const std::string& path);

// Decodes `path` to 8-bit BGR (grey and alpha images are converted).
// A JPEG whose longer side exceeds 2 x max_side is decoded at 1/2, 1/4 or
// 1/8 scale by the JPEG decoder itself (the detector would shrink it anyway),
// so a 20000 x 20000 picture never takes 1.2 GB. Throws Error naming the file
// when it does not exist, is empty, or is not a decodable image.
LoadedImage read_image(const std::string& path, int max_side = 4000);

}  // namespace ocrforge
