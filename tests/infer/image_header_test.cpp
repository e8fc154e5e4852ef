// Image sizes read before decoding (infer/image_header.h) are the sizes the
// decoders will allocate: for every format OpenCV writes here, and for the
// files made to lie to a simpler reader (reliability round 3, defect 3).
#include "ocrforge/infer/image_header.h"

#include <gtest/gtest.h>

#include <cstring>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/infer/image_reader.h"
#include "test_support.h"

namespace ocrforge {
namespace {

std::string encoded(const std::string& ext, int w, int h, int type = CV_8UC3) {
  std::vector<uchar> buf;
  cv::Mat m(h, w, type, cv::Scalar::all(128));
  if (type == CV_32FC3) m = cv::Scalar::all(0.5);
  if (!cv::imencode(ext, m, buf)) return "";
  return std::string(buf.begin(), buf.end());
}

ImageHeader header_of(const std::string& bytes) { return read_image_header(bytes.data(), bytes.size()); }

TEST(ImageHeader, EveryFormatOpenCvWritesGivesItsSize) {
  const struct {
    const char* ext;
    int type;
    ImageFormat format;
  } cases[] = {
      {".jpg", CV_8UC3, ImageFormat::Jpeg},       {".png", CV_8UC3, ImageFormat::Png},
      {".bmp", CV_8UC3, ImageFormat::Bmp},        {".ppm", CV_8UC3, ImageFormat::Pnm},
      {".pgm", CV_8UC1, ImageFormat::Pnm},        {".pam", CV_8UC3, ImageFormat::Pam},
      {".pfm", CV_32FC3, ImageFormat::Pfm},       {".tif", CV_8UC3, ImageFormat::Tiff},
      {".webp", CV_8UC3, ImageFormat::Webp},      {".ras", CV_8UC3, ImageFormat::SunRaster},
      {".jp2", CV_8UC3, ImageFormat::Jpeg2000},
  };
  for (const auto& c : cases) {
    const std::string bytes = encoded(c.ext, 53, 37, c.type);
    if (bytes.empty()) {
      std::cout << c.ext << ": this OpenCV does not write it; skipped\n";
      continue;
    }
    const ImageHeader h = header_of(bytes);
    EXPECT_EQ(h.format, c.format) << c.ext;
    EXPECT_EQ(h.width, 53) << c.ext;
    EXPECT_EQ(h.height, 37) << c.ext << " " << h.error;
    // ... and the decoder agrees.
    const cv::Mat decoded = cv::imdecode(std::vector<uchar>(bytes.begin(), bytes.end()), cv::IMREAD_UNCHANGED);
    EXPECT_EQ(decoded.cols, h.width) << c.ext;
    EXPECT_EQ(decoded.rows, h.height) << c.ext;
  }
}

// A fill byte (FF) before the frame header hid a JPEG's size from the old
// marker walk: a 1 KB file claiming 27000 x 27000 decoded to 2 GB. libjpeg
// reads the header here, as it does when decoding.
TEST(ImageHeader, JpegFillBytesBeforeTheFrameHeaderDoNotHideItsSize) {
  std::string bytes = encoded(".jpg", 8, 8);
  const size_t sof = bytes.find("\xFF\xC0", 2);
  ASSERT_NE(sof, std::string::npos);
  bytes[sof + 5] = static_cast<char>(27000 >> 8), bytes[sof + 6] = static_cast<char>(27000 & 0xFF);
  bytes[sof + 7] = static_cast<char>(27000 >> 8), bytes[sof + 8] = static_cast<char>(27000 & 0xFF);
  bytes.insert(sof, "\xFF\xFF\xFF", 3);
  const ImageHeader h = header_of(bytes);
  EXPECT_EQ(h.width, 27000) << h.error;
  EXPECT_EQ(h.height, 27000);
  const std::string dir = test::fresh_dir("header_fill");
  test::write_text(dir + "/fill.jpg", bytes);
  EXPECT_THROW(read_image(dir + "/fill.jpg", 0), ImageTooLargeError) << "refused before decoding";
  EXPECT_THROW(decode_image(bytes + "\xFF\xD9", "upload", 0), ImageTooLargeError);
}

// A little-endian baseline TIFF of `w0` x `h0` grey pixels whose directory
// holds a second ImageWidth and ImageLength (w1 x h1) after the first ones.
std::string tiff_with_duplicate_size(uint32_t w0, uint32_t h0, uint32_t w1, uint32_t h1) {
  std::string b = std::string("II*\0", 4);
  auto u16 = [&](uint32_t v) { b += static_cast<char>(v & 0xFF), b += static_cast<char>(v >> 8); };
  auto u32 = [&](uint32_t v) { u16(v & 0xFFFF), u16(v >> 16); };
  const uint32_t pixels_at = 8, ifd_at = pixels_at + w0 * h0;
  u32(ifd_at);
  b += std::string(w0 * h0, '\x80');
  const uint32_t entries[][3] = {{256, 4, w0}, {256, 4, w1}, {257, 4, h0}, {257, 4, h1}, {258, 3, 8},
                                 {259, 3, 1},  {262, 3, 1},  {273, 4, pixels_at},         {277, 3, 1},
                                 {278, 4, h0}, {279, 4, w0 * h0}};
  u16(sizeof(entries) / sizeof(entries[0]));
  for (const auto& e : entries) {
    u16(e[0]), u16(e[1]), u32(1);
    if (e[1] == 3) u16(e[2]), u16(0);
    else u32(e[2]);
  }
  u32(0);
  return b;
}

TEST(ImageHeader, TiffSizeIsLibtiffsReadingEvenWithDuplicateTags) {
  const std::string bytes = tiff_with_duplicate_size(16, 16, 30000, 30000);
  const ImageHeader h = header_of(bytes);
  ASSERT_TRUE(h.error.empty()) << h.error;
  // Whichever tag libtiff keeps, the decoder allocates that size: either the
  // budget refuses it, or the image decodes to exactly the header's size.
  try {
    const LoadedImage img = decode_image(bytes, "dup.tif", 0);
    EXPECT_EQ(img.bgr.cols, h.width);
    EXPECT_EQ(img.bgr.rows, h.height);
  } catch (const ImageTooLargeError& e) {
    EXPECT_EQ(h.width * h.height, int64_t{30000} * 30000) << e.what();
  } catch (const Error& e) {
    // libtiff may also refuse the directory outright; never a silent size.
    EXPECT_NE(std::string(e.what()).find("dup.tif"), std::string::npos) << e.what();
  }
}

TEST(ImageHeader, TiffBytesAreUnderTheBudgetAndOnePageOnly) {
  const std::string big = tiff_with_duplicate_size(16, 16, 16, 16);
  EXPECT_THROW(decode_image(big, "tiny budget", 0, 100), ImageTooLargeError);
  EXPECT_EQ(decode_image(big, "fits", 0, 256).bgr.cols, 16);
  // Two pages: a document, not one image.
  const std::string dir = test::fresh_dir("header_pages");
  ASSERT_TRUE(cv::imwrite(dir + "/pages.tif", std::vector<cv::Mat>{cv::Mat(8, 8, CV_8UC1, cv::Scalar(1)),
                                                                  cv::Mat(8, 8, CV_8UC1, cv::Scalar(2))}));
  try {
    decode_image(test::read_text(dir + "/pages.tif"), "pages.tif");
    ADD_FAILURE() << "a two-page TIFF must not read as its first page";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("TIFF of 2 pages"), std::string::npos) << e.what();
  }
}

TEST(ImageHeader, UnknownOrCutHeadersSaySo) {
  EXPECT_EQ(header_of("GIF89a\x01\x00\x01\x00").format, ImageFormat::Unknown);
  EXPECT_THROW(decode_image("GIF89a\x01\x00\x01\x00", "anim.gif"), Error);
  const ImageHeader cut = header_of(encoded(".jpg", 8, 8).substr(0, 20));
  EXPECT_EQ(cut.format, ImageFormat::Jpeg);
  EXPECT_FALSE(cut.error.empty());
  const ImageHeader png = header_of(encoded(".png", 8, 8).substr(0, 12));
  EXPECT_FALSE(png.error.empty());
  EXPECT_FALSE(png.has_size());
}

}  // namespace
}  // namespace ocrforge
