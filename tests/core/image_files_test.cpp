// Tests for --image_dir expansion in ocrforge/core/image_files.h.
#include "ocrforge/core/image_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

namespace {

// A fresh folder under TempDir(), unique per test and process, removed at the
// end of the test.
class TempFolder {
 public:
  TempFolder() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::path(::testing::TempDir()) /
            (std::string("ocrforge_images_") + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string touch(const std::string& name) const {
    const fs::path p = path_ / name;
    std::ofstream(p, std::ios::binary) << "x";
    return p.string();
  }
  std::string str() const { return path_.string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string error_of_list(const std::string& path) {
  return ocrforge::test::message_of<ocrforge::Error>([&] {
    ocrforge::list_images(path);
  });
}

}  // namespace

TEST(ImageFiles, ListsSortedImagesOnlyWithCaseInsensitiveExtensions) {
  TempFolder dir;
  const std::string a = dir.touch("a.jpg");
  const std::string b = dir.touch("B.PNG");
  dir.touch("c.txt");
  const std::string d = dir.touch("d.webp");
  fs::create_directories(dir.path() / "subfolder");
  dir.touch("subfolder/e.jpg");  // not recursed into
  fs::create_directories(dir.path() / "folder.jpg");  // a folder, not an image

  const Strings got = ocrforge::list_images(dir.str());
  Strings expected{a, b, d};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);
  // Byte-wise sort: upper-case "B.PNG" comes before "a.jpg".
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(ocrforge::path_filename(got[0]), "B.PNG");
  EXPECT_EQ(ocrforge::path_filename(got[1]), "a.jpg");
  EXPECT_EQ(ocrforge::path_filename(got[2]), "d.webp");
}

TEST(ImageFiles, AcceptsEveryListedExtension) {
  TempFolder dir;
  for (const auto& ext : ocrforge::image_extensions()) dir.touch("img" + ext);
  dir.touch("img.gif");
  dir.touch("img.JPEG");
  dir.touch("noext");
  const Strings got = ocrforge::list_images(dir.str());
  EXPECT_EQ(got.size(), ocrforge::image_extensions().size() + 1);
  for (const auto& p : got) {
    EXPECT_NE(ocrforge::path_filename(p), "img.gif");
    EXPECT_NE(ocrforge::path_filename(p), "noext");
  }
}

TEST(ImageFiles, ImageExtensionsAreLowerCaseWithDot) {
  const auto& exts = ocrforge::image_extensions();
  ASSERT_FALSE(exts.empty());
  for (const auto& e : exts) {
    ASSERT_GE(e.size(), 2u);
    EXPECT_EQ(e[0], '.');
    std::string lower = e;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    EXPECT_EQ(e, lower);
  }
  EXPECT_NE(std::find(exts.begin(), exts.end(), ".jpg"), exts.end());
  EXPECT_NE(std::find(exts.begin(), exts.end(), ".png"), exts.end());
  EXPECT_NE(std::find(exts.begin(), exts.end(), ".webp"), exts.end());
}

TEST(ImageFiles, SingleFileIsReturnedAsIs) {
  TempFolder dir;
  const std::string img = dir.touch("photo.jpg");
  EXPECT_EQ(ocrforge::list_images(img), Strings{img});
  // Any extension: the decoder decides.
  const std::string txt = dir.touch("notes.txt");
  EXPECT_EQ(ocrforge::list_images(txt), Strings{txt});
}

TEST(ImageFiles, MissingPathThrowsNamingIt) {
  TempFolder dir;
  const std::string missing = (dir.path() / "does_not_exist.jpg").string();
  const std::string msg = error_of_list(missing);
  ASSERT_FALSE(msg.empty()) << "expected ocrforge::Error";
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
}

TEST(ImageFiles, FolderWithoutImagesThrowsNamingIt) {
  TempFolder dir;
  dir.touch("readme.txt");
  fs::create_directories(dir.path() / "sub");
  dir.touch("sub/inside.jpg");
  const std::string msg = error_of_list(dir.str());
  ASSERT_FALSE(msg.empty()) << "expected ocrforge::Error";
  EXPECT_NE(msg.find(dir.str()), std::string::npos) << msg;
  EXPECT_NE(msg.find("no images"), std::string::npos) << msg;
}

TEST(ImageFiles, EmptyFolderThrows) {
  TempFolder dir;
  EXPECT_THROW(ocrforge::list_images(dir.str()), ocrforge::Error);
}

TEST(ImageFiles, PathStemDropsFolderAndExtension) {
  EXPECT_EQ(ocrforge::path_stem("a/b/img_1.jpg"), "img_1");
  EXPECT_EQ(ocrforge::path_stem("img_1.jpg"), "img_1");
  EXPECT_EQ(ocrforge::path_stem("/x/archive.tar.gz"), "archive.tar");
  EXPECT_EQ(ocrforge::path_stem("a/b/noext"), "noext");
  EXPECT_EQ(ocrforge::path_stem("a/中文.PNG"), "中文");
}

TEST(ImageFiles, PathFilenameDropsFolderOnly) {
  EXPECT_EQ(ocrforge::path_filename("a/b/img_1.jpg"), "img_1.jpg");
  EXPECT_EQ(ocrforge::path_filename("img_1.jpg"), "img_1.jpg");
  EXPECT_EQ(ocrforge::path_filename("/abs/B.PNG"), "B.PNG");
  EXPECT_EQ(ocrforge::path_filename("a/b/"), "");
}

TEST(ImageFiles, SymlinkLoopIsListedNotFatal) {
  // ln -s l1.jpg l2.jpg; ln -s l2.jpg l1.jpg: the old listing threw
  // filesystem_error here and ended the run before any image.
  TempFolder dir;
  dir.touch("a.jpg");
  fs::create_symlink("l1.jpg", dir.path() / "l2.jpg");
  fs::create_symlink("l2.jpg", dir.path() / "l1.jpg");
  fs::create_symlink("nowhere.jpg", dir.path() / "dangling.png");
  const Strings got = ocrforge::list_images(dir.str());
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(fs::path(got[0]).filename(), "a.jpg");
  EXPECT_EQ(fs::path(got[1]).filename(), "dangling.png");
  EXPECT_EQ(fs::path(got[2]).filename(), "l1.jpg");
  EXPECT_EQ(fs::path(got[3]).filename(), "l2.jpg");
}

TEST(ImageFiles, SymlinkToFolderIsNotAnImage) {
  TempFolder dir;
  dir.touch("a.jpg");
  fs::create_directories(dir.path() / "sub");
  fs::create_symlink("sub", dir.path() / "sub.jpg");
  const Strings got = ocrforge::list_images(dir.str());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(fs::path(got[0]).filename(), "a.jpg");
}
