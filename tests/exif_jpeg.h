// JPEGs with an EXIF orientation tag, made in the test: a phone stores the
// sensor's pixels as they came and writes in the tag how to turn them
// upright. jpeg_with_orientation(upright, o) stores the pixels that
// orientation `o` turns into `upright`, so every one of the eight files
// shows the same picture when read as cv2.imread / cv::imread read it.
#pragma once
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace ocrforge::test {

// The stored pixels for orientation 1..8 (EXIF 2.3, tag 0x0112): the
// inverse of the turn the tag asks for. 1 upright, 2 mirrored, 3 turned
// 180, 4 flipped, 5 transposed, 6 to be turned 90 clockwise, 7 transversed,
// 8 to be turned 90 counter-clockwise.
inline cv::Mat stored_pixels(const cv::Mat& upright, int orientation) {
  cv::Mat out;
  switch (orientation) {
    case 2: cv::flip(upright, out, 1); break;
    case 3: cv::rotate(upright, out, cv::ROTATE_180); break;
    case 4: cv::flip(upright, out, 0); break;
    case 5: cv::transpose(upright, out); break;
    case 6: cv::rotate(upright, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
    case 7: {
      cv::Mat t;
      cv::transpose(upright, t);
      cv::rotate(t, out, cv::ROTATE_180);
      break;
    }
    case 8: cv::rotate(upright, out, cv::ROTATE_90_CLOCKWISE); break;
    default: out = upright.clone();
  }
  return out;
}

// A JPEG file's bytes: `stored_pixels(upright, orientation)` encoded, with
// an APP1 "Exif" segment right after the start-of-image marker holding one
// little-endian IFD entry: Orientation (0x0112), SHORT, 1 value.
inline std::string jpeg_with_orientation(const cv::Mat& upright, int orientation, int quality = 95) {
  std::vector<uchar> jpg;
  cv::imencode(".jpg", stored_pixels(upright, orientation), jpg, {cv::IMWRITE_JPEG_QUALITY, quality});
  const unsigned char tiff[] = {'I', 'I', 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // header, IFD at offset 8
                                0x01, 0x00,                                    // one entry
                                0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,  // Orientation, SHORT, count 1
                                static_cast<unsigned char>(orientation), 0x00, 0x00, 0x00,
                                0x00, 0x00, 0x00, 0x00};  // no next IFD
  std::string app1 = "Exif";
  app1 += std::string(2, '\0');
  app1.append(reinterpret_cast<const char*>(tiff), sizeof(tiff));
  const size_t len = app1.size() + 2;  // the length field counts itself
  std::string segment = "\xFF\xE1";
  segment += static_cast<char>(len >> 8);
  segment += static_cast<char>(len & 0xFF);
  segment += app1;
  std::string out(jpg.begin(), jpg.end());
  out.insert(2, segment);  // after FF D8
  return out;
}

}  // namespace ocrforge::test
