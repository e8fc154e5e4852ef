// Reads an image for OCR with errors that name the file, without decoding
// huge JPEGs at full size, and refusing images that would decode to more
// pixels than a budget (checked from the header as the decoder reads it,
// before any pixel is decoded).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <opencv2/core.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/image_header.h"

namespace ocrforge {

// Default --max_image_pixels: 50 million decoded pixels (150 MB as 8-bit
// BGR). Every camera photo fits (large JPEGs are decoded reduced, see
// read_image), so does an A4 page scanned at 600 dpi (35 MP); a 20000 x 20000
// PNG (400 MP, "a 1 MB file that takes 1.2 GB") does not.
constexpr int64_t kDefaultMaxImagePixels = 50'000'000;

struct LoadedImage {
  cv::Mat bgr;        // 8-bit, 3 channels
  // Size of the image as read: upright, as its EXIF orientation says (the
  // decoder turns the pixels so, as cv2.imread does); for orientations 5-8
  // the header's stored width and height swapped.
  cv::Size original;
  // Multiply coordinates in `bgr` by this to get coordinates in the image as
  // read (1 unless the image was decoded reduced, see read_image).
  float scale = 1.f;
  // What the decoder read past, for the caller to report with the file named
  // (a file that stops early is decoded as far as it goes); empty when whole.
  std::string warning;
};


// The header of an image's bytes (`name` stands for it in messages), checked
// against the pixel budget before anything is decoded, for callers that
// decode themselves (IMREAD_UNCHANGED for alpha, a PDF's image streams).
// Throws ImageTooLargeError over `max_pixels` (<= 0: no cap), Error for a
// format ocrforge does not read or a header that cannot be read.
ImageHeader check_image_budget(std::string_view bytes, const std::string& name, int64_t max_pixels);

// Decodes `path` to 8-bit BGR (grey and alpha images are converted).
// A JPEG whose longer side exceeds 2 x max_side is decoded at 1/2, 1/4 or
// 1/8 scale by the JPEG decoder itself (the detector would shrink it anyway),
// so a 20000 x 20000 JPEG never takes 1.2 GB. An image that would decode to
// more than `max_pixels` pixels, by its decoder's own reading of its header
// (image_header.h), is refused before decoding (max_pixels <= 0: no cap of
// ours; OpenCV's 2^30 remains). A format whose size is not read first (GIF,
// HDR, ...) is refused as not an image, and a TIFF of several pages as a
// document (read those with `ocrforge ocr`, which reads every page).
// Throws Error naming the file when it does not exist, cannot be read (no
// permission, a symlink loop), is empty, is too large, or is not a decodable
// image (telling "corrupt <format> file" from "not an image").
LoadedImage read_image(const std::string& path, int max_side = 4000, int64_t max_pixels = kDefaultMaxImagePixels);

// As read_image, for an image file's bytes in memory (an upload); `name`
// stands for the file in messages ("request body", "images[2]"). Where a
// file is decoded as far as it goes, a JPEG that stops before its
// end-of-image marker is refused here ("truncated JPEG"): a service cannot
// tell its caller about the decoder's stderr warning, and half an image
// reads as half the text.
LoadedImage decode_image(const std::string& bytes, const std::string& name, int max_side = 4000,
                         int64_t max_pixels = kDefaultMaxImagePixels);

}  // namespace ocrforge
