#include "ocrforge/serve/base64.h"

#include <gtest/gtest.h>

using namespace ocrforge;

TEST(Base64, RoundTripsEveryByteAndLength) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (size_t n : {0u, 1u, 2u, 3u, 4u, 255u, 256u}) {
    const std::string s = bytes.substr(0, n);
    const auto back = base64_decode(base64_encode(s));
    ASSERT_TRUE(back) << n;
    EXPECT_EQ(*back, s) << n;
  }
  EXPECT_EQ(base64_encode("Man"), "TWFu");
  EXPECT_EQ(base64_encode("Ma"), "TWE=");
  EXPECT_EQ(base64_encode("M"), "TQ==");
}

TEST(Base64, AcceptsWhatPythonsB64decodeAccepts) {
  EXPECT_EQ(base64_decode("TWFu\nTWE=\r\n").value_or("?"), "ManMa");  // line breaks (base64.encodebytes)
  EXPECT_EQ(base64_decode("TWE").value_or("?"), "Ma");               // missing padding
  EXPECT_EQ(base64_decode("data:image/png;base64,TWFu").value_or("?"), "Man");  // a browser's data URL
}

TEST(Base64, RefusesOtherCharactersSayingWhere) {
  std::string why;
  EXPECT_FALSE(base64_decode("TW*u", &why));
  EXPECT_NE(why.find("'*' at offset 2"), std::string::npos) << why;
  EXPECT_FALSE(base64_decode("TWFuT", &why));  // 5 digits: no byte boundary fits
  EXPECT_NE(why.find("length"), std::string::npos) << why;
  EXPECT_FALSE(base64_decode("TQ==TQ==", &why));
  EXPECT_FALSE(base64_decode("data:text/plain,hello", &why));
}
