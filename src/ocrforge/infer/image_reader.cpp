#include "ocrforge/infer/image_reader.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

static uint32_t be16(const unsigned char* p) { return (uint32_t(p[0]) << 8) | p[1]; }
static uint32_t be32(const unsigned char* p) { return (be16(p) << 16) | be16(p + 2); }
static uint32_t le32(const unsigned char* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

// Walks JPEG markers up to the first start-of-frame, which holds the size.
static cv::Size jpeg_size(std::ifstream& in) {
  unsigned char seg[8];
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

cv::Size probe_image_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[26] = {0};
  if (!in.read(reinterpret_cast<char*>(h), sizeof(h))) return {};
  if (h[0] == 0xFF && h[1] == 0xD8) return jpeg_size(in);
  if (h[0] == 0x89 && h[1] == 'P' && h[2] == 'N' && h[3] == 'G')
    return {static_cast<int>(be32(h + 16)), static_cast<int>(be32(h + 20))};
  if (h[0] == 'B' && h[1] == 'M')
    return {static_cast<int>(le32(h + 18)), std::abs(static_cast<int>(le32(h + 22)))};
  return {};
}

static bool is_jpeg(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[2] = {0};
  return in.read(reinterpret_cast<char*>(h), 2) && h[0] == 0xFF && h[1] == 0xD8;
}

LoadedImage read_image(const std::string& path, int max_side) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error("image '" + path + "' does not exist");
  if (std::filesystem::is_directory(path, ec)) throw Error("'" + path + "' is a folder, not an image");
  if (std::filesystem::file_size(path, ec) == 0) throw Error("image '" + path + "' is empty (0 bytes)");

  LoadedImage out;
  out.original = probe_image_size(path);
  int flags = cv::IMREAD_COLOR;
  const int longest = std::max(out.original.width, out.original.height);
  if (is_jpeg(path) && max_side > 0 && longest > 2 * max_side) {
    // The largest reduction that keeps the longer side >= max_side.
    int factor = 2;
    while (factor < 8 && longest / (factor * 2) >= max_side) factor *= 2;
    flags = factor == 2 ? cv::IMREAD_REDUCED_COLOR_2 : factor == 4 ? cv::IMREAD_REDUCED_COLOR_4 : cv::IMREAD_REDUCED_COLOR_8;
  }
  try {
    out.bgr = cv::imread(path, flags);
  } catch (const cv::Exception& e) {
    throw Error("image '" + path + "' cannot be decoded: " + e.what());
  }
  if (out.bgr.empty())
    throw Error("image '" + path + "' cannot be decoded: not an image, corrupt, or an unsupported format");
  if (out.original.empty()) out.original = out.bgr.size();
  out.scale = static_cast<float>(out.original.width) / static_cast<float>(out.bgr.cols);
  if (out.bgr.depth() != CV_8U) out.bgr.convertTo(out.bgr, CV_8U, 1.0 / 256.0);
  return out;
}

}  // namespace ocrforge
