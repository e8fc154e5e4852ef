#include "ocrforge/serve/api_keys.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

TEST(ApiKeys, LoadsKeysSkippingCommentsAndBlankLines) {
  const std::string dir = test::fresh_dir("keys");
  test::write_text(dir + "/keys.txt", "# team A\n0123456789abcdef0123\n\n  fedcba9876543210fedc  \n");
  const ApiKeys keys = ApiKeys::load(dir + "/keys.txt");
  EXPECT_TRUE(keys.enabled());
  EXPECT_EQ(keys.size(), 2u);
  EXPECT_TRUE(keys.accepts("0123456789abcdef0123"));
  EXPECT_TRUE(keys.accepts("fedcba9876543210fedc"));
  EXPECT_FALSE(keys.accepts("0123456789abcdef012"));   // a prefix
  EXPECT_FALSE(keys.accepts("0123456789abcdef01234"));  // longer
  EXPECT_FALSE(keys.accepts(""));
  EXPECT_FALSE(ApiKeys().enabled());
}

TEST(ApiKeys, BadFilesAreUsageErrorsNamingThem) {
  const std::string dir = test::fresh_dir("keys_bad");
  test::write_text(dir + "/empty.txt", "# nothing\n\n");
  test::write_text(dir + "/short.txt", "abc\n");
  test::write_text(dir + "/space.txt", "0123456789 abcdef0123\n");
  for (const char* f : {"/empty.txt", "/short.txt", "/space.txt", "/missing.txt"}) {
    try {
      ApiKeys::load(dir + f);
      FAIL() << f;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
  }
}

TEST(ApiKeys, KeyComesFromBearerOrXApiKey) {
  EXPECT_EQ(presented_key("Bearer abc", ""), "abc");
  EXPECT_EQ(presented_key("bearer   abc  ", "zzz"), "abc");  // the scheme is case-insensitive
  EXPECT_EQ(presented_key("", "xyz"), "xyz");
  EXPECT_EQ(presented_key("Basic dXNlcjpwYXNz", "xyz"), "xyz");  // not a bearer token
  EXPECT_EQ(presented_key("", ""), "");
}

TEST(ApiKeys, ConstantTimeEqualIsEquality) {
  EXPECT_TRUE(constant_time_equal("", ""));
  EXPECT_TRUE(constant_time_equal("abc", "abc"));
  EXPECT_FALSE(constant_time_equal("abc", "abd"));
  EXPECT_FALSE(constant_time_equal("abc", "ab"));
  EXPECT_FALSE(constant_time_equal("ab", "abc"));
  EXPECT_FALSE(constant_time_equal(std::string("a\0b", 3), std::string("a\0c", 3)));
}
