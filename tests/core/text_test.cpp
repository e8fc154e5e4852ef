// Tests for the string helpers in ocrforge/core/text.h.
#include "ocrforge/core/text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ocrforge/core/error.h"

using ocrforge::UsageError;
using Strings = std::vector<std::string>;

TEST(Text, TrimRemovesSurroundingWhitespaceOnly) {
  EXPECT_EQ(ocrforge::trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(ocrforge::trim("abc"), "abc");
  EXPECT_EQ(ocrforge::trim(""), "");
  EXPECT_EQ(ocrforge::trim(" \t\n "), "");
}

TEST(Text, ToLowerLowersAsciiAndKeepsUtf8) {
  EXPECT_EQ(ocrforge::to_lower("PNG.Jpg"), "png.jpg");
  EXPECT_EQ(ocrforge::to_lower("A中B"), "a中b");
}

TEST(Text, SplitKeepsEmptyFields) {
  EXPECT_EQ(ocrforge::split("a,b,c", ','), (Strings{"a", "b", "c"}));
  EXPECT_EQ(ocrforge::split("a,,c", ','), (Strings{"a", "", "c"}));
  EXPECT_EQ(ocrforge::split(",a,", ','), (Strings{"", "a", ""}));
  EXPECT_EQ(ocrforge::split("", ','), (Strings{""}));
  EXPECT_EQ(ocrforge::split("abc", ','), (Strings{"abc"}));
}

TEST(Text, SplitWhitespaceDropsEveryRunOfBlanks) {
  EXPECT_EQ(ocrforge::split_whitespace("  python3.7 tools/train.py\t-c  a.yml\n"),
            (Strings{"python3.7", "tools/train.py", "-c", "a.yml"}));
  EXPECT_EQ(ocrforge::split_whitespace(""), Strings{});
  EXPECT_EQ(ocrforge::split_whitespace(" \t "), Strings{});
  EXPECT_EQ(ocrforge::split_whitespace("one"), (Strings{"one"}));
}

TEST(Text, StartsWithAndEndsWith) {
  EXPECT_TRUE(ocrforge::starts_with("--use_gpu", "--"));
  EXPECT_FALSE(ocrforge::starts_with("-", "--"));
  EXPECT_TRUE(ocrforge::starts_with("x", ""));
  EXPECT_TRUE(ocrforge::ends_with("img.jpg", ".jpg"));
  EXPECT_FALSE(ocrforge::ends_with("jpg", ".jpg"));
}

TEST(ParseBool, AcceptsPaddleStyleSpellings) {
  EXPECT_TRUE(ocrforge::parse_bool("True", "--use_gpu"));
  EXPECT_TRUE(ocrforge::parse_bool("true", "--use_gpu"));
  EXPECT_TRUE(ocrforge::parse_bool("TRUE", "--use_gpu"));
  EXPECT_TRUE(ocrforge::parse_bool("1", "--use_gpu"));
  EXPECT_TRUE(ocrforge::parse_bool("yes", "--use_gpu"));
  EXPECT_TRUE(ocrforge::parse_bool("on", "--use_gpu"));
  EXPECT_TRUE(ocrforge::parse_bool(" True ", "--use_gpu"));
  EXPECT_FALSE(ocrforge::parse_bool("False", "--use_gpu"));
  EXPECT_FALSE(ocrforge::parse_bool("false", "--use_gpu"));
  EXPECT_FALSE(ocrforge::parse_bool("0", "--use_gpu"));
  EXPECT_FALSE(ocrforge::parse_bool("no", "--use_gpu"));
  EXPECT_FALSE(ocrforge::parse_bool("off", "--use_gpu"));
}

TEST(ParseBool, BadValueThrowsUsageErrorNamingTheFlag) {
  try {
    ocrforge::parse_bool("maybe", "--use_angle_cls");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("--use_angle_cls"), std::string::npos) << msg;
    EXPECT_NE(msg.find("maybe"), std::string::npos) << msg;
  }
  EXPECT_THROW(ocrforge::parse_bool("", "--use_gpu"), UsageError);
  EXPECT_THROW(ocrforge::parse_bool("2", "--use_gpu"), UsageError);
}

TEST(ParseInt, ParsesAndRejectsGarbage) {
  EXPECT_EQ(ocrforge::parse_int("960", "--det_limit_side_len"), 960);
  EXPECT_EQ(ocrforge::parse_int(" -3 ", "x"), -3);
  EXPECT_THROW(ocrforge::parse_int("", "x"), UsageError);
  EXPECT_THROW(ocrforge::parse_int("12px", "x"), UsageError);
  EXPECT_THROW(ocrforge::parse_int("1.5", "x"), UsageError);
  try {
    ocrforge::parse_int("abc", "--rec_batch_num");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--rec_batch_num"), std::string::npos) << e.what();
  }
}

TEST(ParseDouble, ParsesAndRejectsGarbage) {
  EXPECT_DOUBLE_EQ(ocrforge::parse_double("0.6", "--drop_score"), 0.6);
  EXPECT_DOUBLE_EQ(ocrforge::parse_double(" 1e-3 ", "x"), 1e-3);
  EXPECT_DOUBLE_EQ(ocrforge::parse_double("-2", "x"), -2.0);
  EXPECT_THROW(ocrforge::parse_double("", "x"), UsageError);
  EXPECT_THROW(ocrforge::parse_double("0.6.1", "x"), UsageError);
  EXPECT_THROW(ocrforge::parse_double("high", "--drop_score"), UsageError);
}

TEST(ParseIntList, AcceptsCommaSpaceAndBracketForms) {
  const std::vector<int> expected{3, 48, 320};
  EXPECT_EQ(ocrforge::parse_int_list("3, 48, 320", "--rec_image_shape"), expected);
  EXPECT_EQ(ocrforge::parse_int_list("[3,48,320]", "--rec_image_shape"), expected);
  EXPECT_EQ(ocrforge::parse_int_list(" [3, 48, 320] ", "--rec_image_shape"), expected);
  EXPECT_EQ(ocrforge::parse_int_list("(3,48,320)", "--rec_image_shape"), expected);
  EXPECT_EQ(ocrforge::parse_int_list("7", "x"), std::vector<int>{7});
}

TEST(ParseIntList, BadElementThrowsNamingTheFlag) {
  try {
    ocrforge::parse_int_list("3, x, 320", "--rec_image_shape");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--rec_image_shape"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ocrforge::parse_int_list("", "x"), UsageError);
  EXPECT_THROW(ocrforge::parse_int_list("3,,320", "x"), UsageError);
}

TEST(ParseStringList, StripsBracketsAndQuotes) {
  EXPECT_EQ(ocrforge::parse_string_list("['0', '180']"), (Strings{"0", "180"}));
  EXPECT_EQ(ocrforge::parse_string_list("0,180"), (Strings{"0", "180"}));
  EXPECT_EQ(ocrforge::parse_string_list("[\"a\", \"b c\"]"), (Strings{"a", "b c"}));
  // Mismatched quotes are left alone.
  EXPECT_EQ(ocrforge::parse_string_list("['0\"]"), (Strings{"'0\""}));
}

TEST(Utf8, SplitsMixedAsciiAndChinese) {
  const Strings chars = ocrforge::utf8_chars("a中b");
  ASSERT_EQ(chars.size(), 3u);
  EXPECT_EQ(chars[0], "a");
  EXPECT_EQ(chars[1], "中");
  EXPECT_EQ(chars[1].size(), 3u);
  EXPECT_EQ(chars[2], "b");
}

TEST(Utf8, HandlesTwoAndFourByteSequencesAndEmpty) {
  EXPECT_TRUE(ocrforge::utf8_chars("").empty());
  EXPECT_EQ(ocrforge::utf8_chars("é€😀"), (Strings{"é", "€", "😀"}));
}

TEST(Utf8, InvalidBytesAreReturnedOneByOne) {
  // A lone continuation byte, then a truncated 3-byte sequence at the end.
  const std::string s = std::string("x\x80y") + "\xE4\xB8";
  const Strings chars = ocrforge::utf8_chars(s);
  ASSERT_EQ(chars.size(), 5u);
  EXPECT_EQ(chars[0], "x");
  EXPECT_EQ(chars[1], "\x80");
  EXPECT_EQ(chars[2], "y");
  EXPECT_EQ(chars[3], "\xE4");
  EXPECT_EQ(chars[4], "\xB8");
  // A lead byte followed by ASCII is not swallowed.
  EXPECT_EQ(ocrforge::utf8_chars("\xE4" "ab"), (Strings{"\xE4", "a", "b"}));
}

TEST(EditDistance, ClassicLevenshtein) {
  using ocrforge::edit_distance;
  using ocrforge::utf8_chars;
  EXPECT_EQ(edit_distance(utf8_chars("kitten"), utf8_chars("sitting")), 3u);
  EXPECT_EQ(edit_distance(utf8_chars("abc"), utf8_chars("abc")), 0u);
  EXPECT_EQ(edit_distance(utf8_chars(""), utf8_chars("abc")), 3u);
  EXPECT_EQ(edit_distance(utf8_chars("abc"), utf8_chars("")), 3u);
  EXPECT_EQ(edit_distance(utf8_chars("det_db_tresh"), utf8_chars("det_db_thresh")), 1u);
}

TEST(EditDistance, CountsCodePointsNotBytes) {
  using ocrforge::edit_distance;
  using ocrforge::utf8_chars;
  EXPECT_EQ(edit_distance(utf8_chars("中文"), utf8_chars("中字")), 1u);
  EXPECT_EQ(edit_distance(utf8_chars("a中b"), utf8_chars("ab")), 1u);
}

TEST(ClosestMatch, SuggestsNearestFlagName) {
  const Strings names{"det_db_thresh", "det_db_box_thresh", "use_gpu", "rec_image_shape"};
  EXPECT_EQ(ocrforge::closest_match("det_db_tresh", names), "det_db_thresh");
  EXPECT_EQ(ocrforge::closest_match("use_gpus", names), "use_gpu");
  EXPECT_EQ(ocrforge::closest_match("USE_GPU", names), "use_gpu");
  EXPECT_EQ(ocrforge::closest_match("rec_img_shape", names), "rec_image_shape");
}

TEST(ClosestMatch, ReturnsEmptyForUnrelatedWordsOrNoCandidates) {
  const Strings names{"det_db_thresh", "det_db_box_thresh", "use_gpu", "rec_image_shape"};
  EXPECT_EQ(ocrforge::closest_match("completely_unrelated", names), "");
  EXPECT_EQ(ocrforge::closest_match("xyz", names), "");
  EXPECT_EQ(ocrforge::closest_match("use_gpu", Strings{}), "");
}
