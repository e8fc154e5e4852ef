// Placing words on PDF pages.
#include "ocrforge/document/pdf_text_layer.h"

#include <gtest/gtest.h>

#include "document_test_support.h"

using namespace ocrforge;

TEST(PdfTextLayer, PixelsMapToUserSpaceForEveryRotation) {
  PdfPageFrame f;
  f.llx = 10;
  f.lly = 20;
  f.urx = 10 + 612;
  f.ury = 20 + 792;
  f.dpi_x = f.dpi_y = 144;  // 2 pixels per point
  const cv::Point2d px(200, 100);  // 100 pt right, 50 pt down, as shown
  f.rotate = 0;
  EXPECT_EQ(to_user_space(f, px), cv::Point2d(110, 20 + 792 - 50));
  f.rotate = 90;  // shown: the user space's left edge is the top
  EXPECT_EQ(to_user_space(f, px), cv::Point2d(10 + 50, 20 + 100));
  f.rotate = 180;
  EXPECT_EQ(to_user_space(f, px), cv::Point2d(10 + 612 - 100, 20 + 50));
  f.rotate = 270;
  EXPECT_EQ(to_user_space(f, px), cv::Point2d(10 + 612 - 50, 20 + 792 - 100));
}

TEST(PdfTextLayer, TextBecomesUtf16Codes) {
  EXPECT_EQ(to_cid_hex("Ab"), "00410062");
  EXPECT_EQ(to_cid_hex("中"), "4E2D");
  EXPECT_EQ(to_cid_hex("\xF0\x9F\x98\x80"), "FFFD");  // beyond the BMP
}

TEST(PdfTextLayer, WordsAreScaledToTheirBoxes) {
  DocPage page = test::sample_page();
  const PdfPageFrame f = image_page_frame(page.info.size, 200, 200);
  EXPECT_DOUBLE_EQ(f.urx, 360);
  const std::string ops = text_layer_operators(page, f, "/F");
  EXPECT_EQ(ops.substr(0, 9), "BT\n3 Tr\n/");
  // "Invoice": 200 x 40 px at 200 dpi = 72 x 14.4 pt; 7 glyphs of half an em
  // at 14.4 pt span 50.4 pt, so Tz = 142.857.
  EXPECT_NE(ops.find("/F 14.400 Tf 142.857 Tz 1.000 0.000 0.000 1.000 36.000 237.600 Tm <0049006E0076006F006900630065> Tj"),
            std::string::npos)
      << ops;
  // The space after it fills the 20 px gap up to "No.".
  EXPECT_NE(ops.find("1.000 0.000 0.000 1.000 108.000 237.600 Tm <0020> Tj"), std::string::npos);
  DocPage empty;
  EXPECT_EQ(text_layer_operators(empty, f, "/F"), "");
}
