#include "ocrforge/infer/image_reader.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "exif_jpeg.h"
#include "test_support.h"

using namespace ocrforge;

static std::string error_of(const std::string& path) {
  return ocrforge::test::message_of<Error>([&] {
    read_image(path);
  });
}

TEST(ImageReader, ReadsRealJpegAsBgr) {
  LoadedImage img = read_image(test::data_dir() + "/samples/imgs_ger_1.jpg");
  ASSERT_FALSE(img.bgr.empty());
  EXPECT_EQ(img.bgr.channels(), 3);
  EXPECT_EQ(img.bgr.size(), img.original);
  EXPECT_FLOAT_EQ(img.scale, 1.f);
}

TEST(ImageReader, MissingFileErrorNamesIt) {
  EXPECT_NE(error_of("/nonexistent/pic.jpg").find("/nonexistent/pic.jpg"), std::string::npos);
}

TEST(ImageReader, ZeroByteFileIsReportedAsEmpty) {
  const std::string dir = test::fresh_dir("zero");
  test::write_text(dir + "/empty.jpg", "");
  const std::string msg = error_of(dir + "/empty.jpg");
  EXPECT_NE(msg.find("empty.jpg"), std::string::npos);
  EXPECT_NE(msg.find("0 bytes"), std::string::npos);
}

TEST(ImageReader, CorruptAndNonImageFilesAreErrors) {
  const std::string dir = test::fresh_dir("corrupt");
  test::write_text(dir + "/notes.png", "this is text, not a picture\n");
  std::string jpeg = test::read_text(test::data_dir() + "/samples/imgs_ger_1.jpg");
  test::write_text(dir + "/truncated.jpg", jpeg.substr(0, 40));
  EXPECT_NE(error_of(dir + "/notes.png").find("cannot be decoded"), std::string::npos);
  EXPECT_NE(error_of(dir + "/truncated.jpg").find("truncated.jpg"), std::string::npos);
}

TEST(ImageReader, ProbesSizeFromHeaders) {
  const std::string dir = test::fresh_dir("probe");
  cv::Mat m(37, 53, CV_8UC3, cv::Scalar(10, 20, 30));
  for (const char* ext : {".jpg", ".png", ".bmp"}) {
    const std::string p = dir + "/m" + ext;
    ASSERT_TRUE(cv::imwrite(p, m));
    const std::string bytes = test::read_text(p);
    const ImageHeader h = read_image_header(bytes.data(), bytes.size());
    EXPECT_EQ(h.width, 53) << ext;
    EXPECT_EQ(h.height, 37) << ext;
  }
}

TEST(ImageReader, HugeJpegIsDecodedReducedWithScale) {
  // 20000 x 20000 would be 1.2 GB decoded; the reader must not do that.
  const std::string dir = test::fresh_dir("huge");
  const std::string p = dir + "/huge.jpg";
  {
    cv::Mat big(20000, 20000, CV_8UC3, cv::Scalar(255, 255, 255));
    ASSERT_TRUE(cv::imwrite(p, big, {cv::IMWRITE_JPEG_QUALITY, 50}));
  }
  LoadedImage img = read_image(p, 4000);
  EXPECT_EQ(img.original, cv::Size(20000, 20000));
  EXPECT_EQ(img.bgr.cols, 5000);  // 1/4: the largest reduction keeping >= 4000
  EXPECT_FLOAT_EQ(img.scale, 4.f);
}

TEST(ImageReader, GreyPngBecomesThreeChannels) {
  const std::string dir = test::fresh_dir("grey");
  cv::Mat g(10, 12, CV_8UC1, cv::Scalar(7));
  ASSERT_TRUE(cv::imwrite(dir + "/g.png", g));
  LoadedImage img = read_image(dir + "/g.png");
  EXPECT_EQ(img.bgr.channels(), 3);
  EXPECT_EQ(img.bgr.at<cv::Vec3b>(0, 0)[0], 7);
}

// A real 8 x 8 image whose header is then edited to claim w x h: the file
// stays tiny, as a decompression bomb is.
static std::string image_claiming(const std::string& dir, const std::string& ext, int w, int h) {
  const std::string p = dir + "/claims" + ext;
  cv::Mat m(8, 8, CV_8UC3, cv::Scalar(200, 200, 200));
  EXPECT_TRUE(cv::imwrite(p, m));
  std::string bytes = test::read_text(p);
  if (ext == ".png") {
    for (int i = 0; i < 4; ++i) {
      bytes[16 + i] = static_cast<char>((w >> (24 - 8 * i)) & 0xFF);
      bytes[20 + i] = static_cast<char>((h >> (24 - 8 * i)) & 0xFF);
    }
  } else {  // JPEG: patch the start-of-frame segment
    const size_t sof = bytes.find("\xFF\xC0");
    EXPECT_NE(sof, std::string::npos);
    bytes[sof + 5] = static_cast<char>(h >> 8);
    bytes[sof + 6] = static_cast<char>(h & 0xFF);
    bytes[sof + 7] = static_cast<char>(w >> 8);
    bytes[sof + 8] = static_cast<char>(w & 0xFF);
  }
  test::write_text(p, bytes);
  return p;
}

TEST(ImageReader, PixelCapRefusesAHugePngBeforeDecoding) {
  const std::string dir = test::fresh_dir("bomb_png");
  const std::string p = image_claiming(dir, ".png", 20000, 20000);
  const std::string bytes = test::read_text(p);
  EXPECT_EQ(read_image_header(bytes.data(), bytes.size()).width, 20000);
  const std::string msg = error_of(p);
  EXPECT_NE(msg.find("claims.png"), std::string::npos) << msg;
  EXPECT_NE(msg.find("20000 x 20000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--max_image_pixels"), std::string::npos) << msg;
}

TEST(ImageReader, PixelCapCountsTheReducedJpegSize) {
  const std::string dir = test::fresh_dir("bomb_jpg");
  // 60000 x 60000 decodes at 1/8 = 7500 x 7500 = 56 MP: over the default 50 MP.
  const std::string p = image_claiming(dir, ".jpg", 60000, 60000);
  const std::string msg = error_of(p);
  EXPECT_NE(msg.find("decoded at 1/8"), std::string::npos) << msg;
  EXPECT_NE(msg.find("56250000 pixels"), std::string::npos) << msg;
  // A smaller cap refuses what the default lets through; <= 0 means no cap.
  cv::Mat m(100, 100, CV_8UC3, cv::Scalar(1, 2, 3));
  ASSERT_TRUE(cv::imwrite(dir + "/small.png", m));
  EXPECT_THROW(read_image(dir + "/small.png", 4000, 9999), Error);
  EXPECT_EQ(read_image(dir + "/small.png", 4000, 10000).bgr.cols, 100);
  EXPECT_EQ(read_image(dir + "/small.png", 4000, 0).bgr.cols, 100);
}

TEST(ImageReader, SymlinkLoopAndDanglingLinkAreNamed) {
  const std::string dir = test::fresh_dir("links");
  std::filesystem::create_symlink("l1.jpg", dir + "/l2.jpg");
  std::filesystem::create_symlink("l2.jpg", dir + "/l1.jpg");
  std::filesystem::create_symlink("gone.jpg", dir + "/dangling.jpg");
  const std::string loop = error_of(dir + "/l1.jpg");
  EXPECT_NE(loop.find("l1.jpg"), std::string::npos) << loop;
  EXPECT_NE(loop.find("symbolic links"), std::string::npos) << loop;
  const std::string dangling = error_of(dir + "/dangling.jpg");
  EXPECT_NE(dangling.find("link to a missing file"), std::string::npos) << dangling;
}

TEST(ImageReader, UnreadableIsNotCalledCorrupt) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files without read permission";
  const std::string dir = test::fresh_dir("unreadable");
  cv::Mat m(10, 10, CV_8UC3, cv::Scalar(1, 2, 3));
  ASSERT_TRUE(cv::imwrite(dir + "/locked.png", m));
  std::filesystem::permissions(dir + "/locked.png", std::filesystem::perms::none);
  const std::string msg = error_of(dir + "/locked.png");
  EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("corrupt"), std::string::npos) << msg;
}

TEST(ImageReader, CorruptImageIsToldFromNonImage) {
  const std::string dir = test::fresh_dir("kinds");
  test::write_text(dir + "/notes.png", "this is text, not a picture\n");
  std::string jpeg = test::read_text(test::data_dir() + "/samples/imgs_ger_1.jpg");
  test::write_text(dir + "/truncated.jpg", jpeg.substr(0, 40));
  EXPECT_NE(error_of(dir + "/notes.png").find("not an image"), std::string::npos) << error_of(dir + "/notes.png");
  EXPECT_NE(error_of(dir + "/truncated.jpg").find("corrupt or truncated JPEG"), std::string::npos)
      << error_of(dir + "/truncated.jpg");
}

static std::string decode_error(const std::string& bytes, int64_t max_pixels = kDefaultMaxImagePixels) {
  return ocrforge::test::message_of<Error>([&] {
    decode_image(bytes, "upload", 4000, max_pixels);
  });
}

TEST(ImageReader, DecodesBytesLikeTheFile) {
  const std::string path = test::data_dir() + "/samples/imgs_ger_1.jpg";
  const LoadedImage from_file = read_image(path);
  const LoadedImage from_bytes = decode_image(test::read_text(path), "upload");
  ASSERT_EQ(from_bytes.bgr.size(), from_file.bgr.size());
  EXPECT_EQ(cv::norm(from_bytes.bgr, from_file.bgr, cv::NORM_INF), 0.0);
  EXPECT_EQ(from_bytes.original, from_file.original);
}

TEST(ImageReader, BytesThatAreNotAnImageNameTheUpload) {
  const std::string msg = decode_error("{\"not\": \"an image\"}");
  EXPECT_NE(msg.find("'upload'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not an image"), std::string::npos) << msg;
  EXPECT_NE(decode_error("").find("empty"), std::string::npos);
}

TEST(ImageReader, TruncatedJpegBytesAreRefused) {
  const std::string jpeg = test::read_text(test::data_dir() + "/samples/imgs_ger_1.jpg");
  // Half the file: libjpeg would decode the top half with a warning only.
  const std::string msg = decode_error(jpeg.substr(0, jpeg.size() / 2));
  EXPECT_NE(msg.find("truncated JPEG"), std::string::npos) << msg;
  // Bytes after the end-of-image marker (camera trailers) are fine.
  EXPECT_EQ(decode_error(jpeg + "TRAILER-DATA"), "");
}

TEST(ImageReader, HugeHeaderInBytesIsRefusedBeforeDecoding) {
  // A PNG header claiming 60000 x 60000 (3.6 G pixels) and nothing else.
  cv::Mat tiny(1, 1, CV_8UC3, cv::Scalar(0, 0, 0));
  std::vector<uchar> png;
  ASSERT_TRUE(cv::imencode(".png", tiny, png));
  std::string bytes(png.begin(), png.end());
  for (int off : {16, 20}) {  // IHDR width, height (big-endian)
    const uint32_t v = 60000;
    bytes[off] = char(v >> 24), bytes[off + 1] = char(v >> 16), bytes[off + 2] = char(v >> 8), bytes[off + 3] = char(v);
  }
  try {
    decode_image(bytes, "upload");
    FAIL() << "expected ImageTooLargeError";
  } catch (const ImageTooLargeError& e) {
    EXPECT_NE(std::string(e.what()).find("60000 x 60000"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--max_image_pixels"), std::string::npos) << e.what();
  }
}

// A portrait picture no turn or mirror maps onto itself: a grey ramp, a
// black block near the top-left corner and a white one near the bottom.
static cv::Mat asymmetric_picture() {
  cv::Mat img(320, 240, CV_8UC3);
  for (int y = 0; y < img.rows; ++y)
    for (int x = 0; x < img.cols; ++x) img.at<cv::Vec3b>(y, x) = cv::Vec3b(80 + x / 4, 80 + y / 4, 120);
  cv::rectangle(img, cv::Rect(20, 30, 60, 40), cv::Scalar(0, 0, 0), cv::FILLED);
  cv::rectangle(img, cv::Rect(150, 250, 70, 50), cv::Scalar(255, 255, 255), cv::FILLED);
  return img;
}

static double mean_abs_diff(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat d;
  cv::absdiff(a, b, d);
  const cv::Scalar m = cv::mean(d);
  return (m[0] + m[1] + m[2]) / 3;
}

// PaddleOCR reads with cv2.imread, which turns a photo upright as its EXIF
// orientation says; every size and scale then refers to that upright image
// (before: the header's stored size was taken, so orientations 5-8 scaled
// every coordinate by short side / long side).
TEST(ImageReader, EveryExifOrientationReadsUprightWithTheUprightSize) {
  const std::string dir = test::fresh_dir("exif_orient");
  const cv::Mat upright = asymmetric_picture();
  cv::Mat half;
  cv::resize(upright, half, cv::Size(upright.cols / 2, upright.rows / 2), 0, 0, cv::INTER_AREA);
  for (int o = 1; o <= 8; ++o) {
    SCOPED_TRACE("orientation " + std::to_string(o));
    const std::string path = dir + "/o" + std::to_string(o) + ".jpg";
    const std::string bytes = test::jpeg_with_orientation(upright, o);
    test::write_text(path, bytes);
    for (const LoadedImage& img : {read_image(path), decode_image(bytes, "upload")}) {
      ASSERT_EQ(img.bgr.size(), upright.size());
      EXPECT_EQ(img.original, upright.size());
      EXPECT_FLOAT_EQ(img.scale, 1.f);
      EXPECT_LT(mean_abs_diff(img.bgr, upright), 6.0) << "not the upright picture";
    }
    // Decoded at 1/2 by the JPEG decoder (longer side > 2 x max_side): the
    // scale still maps the decoded pixels onto the upright picture.
    for (const LoadedImage& img : {read_image(path, 100), decode_image(bytes, "upload", 100)}) {
      ASSERT_EQ(img.bgr.size(), half.size());
      EXPECT_EQ(img.original, upright.size());
      EXPECT_FLOAT_EQ(img.scale, 2.f);
      EXPECT_LT(mean_abs_diff(img.bgr, half), 8.0) << "not the upright picture";
    }
  }
}
