#include "ocrforge/serve/api_keys.h"

#include <gtest/gtest.h>

#include <filesystem>

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

// Round 3, defect 8: a folder or /dev/zero was read (586 MB) before "holds
// no key"; a keys file every user could read got no word.
TEST(ApiKeys, OnlyASmallRegularFileIsReadAndOpenPermissionsAreWarned) {
  const std::string dir = test::fresh_dir("keys_kinds");
  const auto refusal = [](const std::string& path) {
    return test::message_of<UsageError>([&] { ApiKeys::load(path); });
  };
  EXPECT_NE(refusal(dir).find("is a folder"), std::string::npos) << refusal(dir);
  EXPECT_NE(refusal("/dev/zero").find("not a regular file"), std::string::npos) << refusal("/dev/zero");
  test::write_text(dir + "/huge.txt", std::string(2 << 20, 'k'));
  EXPECT_NE(refusal(dir + "/huge.txt").find("more than a keys file's 1 MiB"), std::string::npos);
  const std::string keys = dir + "/keys.txt";
  test::write_text(keys, "0123456789abcdef0123\n");
  std::filesystem::permissions(keys, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_TRUE(ApiKeys::load(keys).warnings().empty());
  std::filesystem::permissions(keys, std::filesystem::perms::others_read, std::filesystem::perm_options::add);
  const ApiKeys open = ApiKeys::load(keys);
  ASSERT_EQ(open.warnings().size(), 1u);
  EXPECT_NE(open.warnings()[0].find("mode 604"), std::string::npos) << open.warnings()[0];
  EXPECT_TRUE(open.accepts("0123456789abcdef0123"));
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
