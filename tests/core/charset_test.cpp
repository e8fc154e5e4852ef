// Tests for the recognition dictionary in ocrforge/core/charset.h.
#include "ocrforge/core/charset.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "ocrforge/core/error.h"
#include "test_support.h"

using ocrforge::Charset;

namespace {

// Writes `content` byte for byte to a file under TempDir() whose name is
// unique per test and process, and returns its path.
std::string write_temp(const std::string& tag, const std::string& content) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = ::testing::TempDir();
  if (!path.empty() && path.back() != '/') path += '/';
  path += std::string("ocrforge_charset_") + info->name() + "_" + tag + "_" +
          std::to_string(::getpid()) + ".txt";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  return path;
}

std::string error_of_load(const std::string& path) {
  return ocrforge::test::message_of<ocrforge::Error>([&] {
    Charset::load(path, false);
  });
}

}  // namespace

TEST(Charset, LoadWithoutSpaceCharHasLinesPlusBlank) {
  const std::string path = write_temp("dict", "a\nb\n中\n");
  const Charset cs = Charset::load(path, false);
  EXPECT_EQ(cs.num_classes(), 4);  // blank + 3 lines
  EXPECT_EQ(cs.source(), path);
  EXPECT_EQ(cs.text_of(1), "a");
  EXPECT_EQ(cs.text_of(2), "b");
  EXPECT_EQ(cs.text_of(3), "中");
  EXPECT_EQ(cs.index_of(" "), -1);
  std::remove(path.c_str());
}

TEST(Charset, LoadWithSpaceCharAppendsSpaceLast) {
  const std::string path = write_temp("dict", "a\nb\n中\n");
  const Charset cs = Charset::load(path, true);
  EXPECT_EQ(cs.num_classes(), 5);  // blank + 3 lines + space
  EXPECT_EQ(cs.text_of(4), " ");
  EXPECT_EQ(cs.index_of(" "), 4);
  std::remove(path.c_str());
}

TEST(Charset, LastLineWithoutNewlineIsKept) {
  const std::string path = write_temp("dict", "x\ny");
  const Charset cs = Charset::load(path, false);
  EXPECT_EQ(cs.num_classes(), 3);
  EXPECT_EQ(cs.text_of(2), "y");
  std::remove(path.c_str());
}

TEST(Charset, IndexOfAndTextOfRoundTrip) {
  const std::string path = write_temp("dict", "0\n1\n2\nA\n中\n文\n");
  const Charset cs = Charset::load(path, true);
  ASSERT_EQ(cs.num_classes(), 8);
  for (int i = 1; i < cs.num_classes(); ++i) {
    EXPECT_EQ(cs.index_of(cs.text_of(i)), i) << "class " << i;
  }
  EXPECT_EQ(cs.index_of("中"), 5);
  EXPECT_EQ(cs.text_of(cs.index_of("文")), "文");
  EXPECT_EQ(cs.index_of("Z"), -1);
  EXPECT_EQ(cs.index_of("中文"), -1);
  std::remove(path.c_str());
}

TEST(Charset, BlankIsIndexZeroWithEmptyText) {
  const std::string path = write_temp("dict", "a\nb\n");
  const Charset cs = Charset::load(path, false);
  EXPECT_EQ(cs.text_of(0), "");
  // The blank is not a character: looking up "" does not find it.
  EXPECT_EQ(cs.index_of(""), -1);
  EXPECT_THROW(cs.text_of(cs.num_classes()), std::out_of_range);
  std::remove(path.c_str());
}

TEST(Charset, LineHoldingSingleSpaceIsACharacter) {
  const std::string path = write_temp("dict", "a\n \nb\n");
  const Charset cs = Charset::load(path, false);
  EXPECT_EQ(cs.num_classes(), 4);
  EXPECT_EQ(cs.text_of(2), " ");
  EXPECT_EQ(cs.index_of(" "), 2);
  EXPECT_EQ(cs.index_of("b"), 3);
  std::remove(path.c_str());
}

TEST(Charset, ADuplicateEncodesToItsLastIndexLikePaddleOCR) {
  // PaddleOCR's en_dict.txt ends with " ", and use_space_char adds another.
  const std::string path = write_temp("dict", "a\nb\n \n");
  const Charset cs = Charset::load(path, true);
  EXPECT_EQ(cs.num_classes(), 5);  // blank a b " " " "
  EXPECT_EQ(cs.text_of(3), " ");
  EXPECT_EQ(cs.text_of(4), " ");
  EXPECT_EQ(cs.index_of(" "), 4);
  EXPECT_EQ(cs.index_of("b"), 2);
  std::remove(path.c_str());
}

TEST(Charset, EmptyLinesAreSkipped) {
  const std::string path = write_temp("dict", "a\n\nb\n\n");
  const Charset cs = Charset::load(path, false);
  EXPECT_EQ(cs.num_classes(), 3);
  EXPECT_EQ(cs.index_of("b"), 2);
  std::remove(path.c_str());
}

TEST(Charset, CrlfLineEndingsAreStripped) {
  const std::string path = write_temp("dict", "a\r\nb\r\n中\r\n \r\n");
  const Charset cs = Charset::load(path, false);
  ASSERT_EQ(cs.num_classes(), 5);
  EXPECT_EQ(cs.text_of(1), "a");
  EXPECT_EQ(cs.text_of(2), "b");
  EXPECT_EQ(cs.text_of(3), "中");
  EXPECT_EQ(cs.text_of(4), " ");
  EXPECT_EQ(cs.index_of("a"), 1);
  EXPECT_EQ(cs.index_of("a\r"), -1);
  std::remove(path.c_str());
}

// An empty Global.character_dict_path in PaddleOCR: the digits and a-z, in
// that order after the blank, no space class, labels lower-cased.
TEST(Charset, BuiltInIsPaddleOcrsDigitsAndLowerCaseLetters) {
  const Charset cs = Charset::builtin_lowercase();
  ASSERT_EQ(cs.num_classes(), 37);
  EXPECT_EQ(cs.text_of(1), "0");
  EXPECT_EQ(cs.text_of(10), "9");
  EXPECT_EQ(cs.text_of(11), "a");
  EXPECT_EQ(cs.text_of(36), "z");
  EXPECT_EQ(cs.index_of(" "), -1);
  EXPECT_EQ(cs.index_of("A"), -1);
  EXPECT_TRUE(cs.lowercases_labels());
  EXPECT_FALSE(Charset::from_chars({"a"}, true).lowercases_labels());
}

TEST(Charset, MissingFileThrowsNamingThePath) {
  std::string path = ::testing::TempDir();
  if (!path.empty() && path.back() != '/') path += '/';
  path += "ocrforge_no_such_dict_" + std::to_string(::getpid()) + ".txt";
  const std::string msg = error_of_load(path);
  ASSERT_FALSE(msg.empty()) << "expected ocrforge::Error";
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

TEST(Charset, EmptyFileThrowsNamingThePath) {
  const std::string path = write_temp("empty", "");
  const std::string msg = error_of_load(path);
  ASSERT_FALSE(msg.empty()) << "expected ocrforge::Error";
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("no characters"), std::string::npos) << msg;
  std::remove(path.c_str());
}

TEST(Charset, FileWithOnlyLineEndingsThrows) {
  const std::string path = write_temp("blank_lines", "\n\r\n\n");
  EXPECT_THROW(Charset::load(path, true), ocrforge::Error);
  std::remove(path.c_str());
}

TEST(Charset, FromCharsBuildsTheSameLayout) {
  const Charset cs = Charset::from_chars({"x", "y"}, true);
  EXPECT_EQ(cs.num_classes(), 4);
  EXPECT_EQ(cs.text_of(0), "");
  EXPECT_EQ(cs.text_of(1), "x");
  EXPECT_EQ(cs.text_of(2), "y");
  EXPECT_EQ(cs.text_of(3), " ");
  EXPECT_EQ(cs.index_of("y"), 2);
  EXPECT_EQ(cs.source(), "<memory>");

  const Charset no_space = Charset::from_chars({"x", "y"}, false);
  EXPECT_EQ(no_space.num_classes(), 3);
  EXPECT_EQ(no_space.index_of(" "), -1);
}
