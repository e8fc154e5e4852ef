#include "ocrforge/core/control_chars.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

using namespace ocrforge;

TEST(ControlChars, PrintableEscapesC0DelAndC1AndKeepsUtf8) {
  EXPECT_EQ(printable("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(printable("\x1b[31mred\x07"), "\\x1b[31mred\\x07");
  EXPECT_EQ(printable(std::string("nul\0", 4)), "nul\\x00");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  EXPECT_EQ(printable("csi\xc2\x9b" "2J"), "csi\\u009b2J");  // U+009B: a one-character CSI
  EXPECT_EQ(printable("中文 café ñ"), "中文 café ñ");
  EXPECT_EQ(printable("two\nlines\x1b", true), "two\nlines\\x1b");
}

TEST(ControlChars, HasControlChar) {
  EXPECT_FALSE(has_control_char("plain/path/a b.jpg"));
  EXPECT_FALSE(has_control_char("图片.jpg"));
  EXPECT_TRUE(has_control_char("a\nb.jpg"));
  EXPECT_TRUE(has_control_char("a\tb.jpg"));
  EXPECT_TRUE(has_control_char("\xc2\x85next-line.jpg"));
}

TEST(ControlChars, RequireLineSafeNamesTheFieldEscaped) {
  EXPECT_NO_THROW(require_line_safe("a.jpg", "image name", "system_results.txt"));
  try {
    require_line_safe("in/a\nb.jpg", "image name", "system_results.txt");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("image name 'in/a\\nb.jpg' holds a control character (\\n)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("system_results.txt"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}
