#include "ocrforge/core/output_paths.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;
namespace fs = std::filesystem;

TEST(OutputPaths, SameFileSeesThroughSpellingsLinksAndHardLinks) {
  const std::string dir = test::fresh_dir("out_paths_same");
  test::write_text(dir + "/a.txt", "x");
  EXPECT_TRUE(same_file(dir + "/a.txt", dir + "/./sub/../a.txt"));
  fs::create_symlink(dir + "/a.txt", dir + "/link.txt");
  EXPECT_TRUE(same_file(dir + "/link.txt", dir + "/a.txt"));
  fs::create_hard_link(dir + "/a.txt", dir + "/hard.txt");
  EXPECT_TRUE(same_file(dir + "/hard.txt", dir + "/a.txt"));
  EXPECT_FALSE(same_file(dir + "/b.txt", dir + "/a.txt"));
  EXPECT_TRUE(same_file(dir + "/new.txt", dir + "/new.txt"));  // neither exists yet
}

TEST(OutputPaths, RefusalsNameTheFlagAndTheInput) {
  const std::string dir = test::fresh_dir("out_paths_refuse");
  test::write_text(dir + "/label.txt", "x");
  try {
    refuse_overwriting_input(dir + "/./label.txt", "--out", dir + "/label.txt", "the --label file");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--out: '" + dir + "/./label.txt' is the --label file"), std::string::npos);
  }
  EXPECT_NO_THROW(refuse_overwriting_input(dir + "/other.txt", "--out", dir + "/label.txt", "the --label file"));
  fs::create_directories(dir + "/in/sub");
  EXPECT_THROW(refuse_output_in_input(dir + "/in", dir + "/in/sub/out", "--draw_img_save_dir"), UsageError);
  EXPECT_THROW(refuse_output_in_input(dir + "/label.txt", dir, "--draw_img_save_dir"), UsageError);
  EXPECT_NO_THROW(refuse_output_in_input(dir + "/in", dir + "/out", "--draw_img_save_dir"));
  EXPECT_TRUE(is_within(dir + "/in/sub", dir + "/in"));
  EXPECT_FALSE(is_within(dir + "/inside", dir + "/in"));  // a prefix of the name is not a parent
}

TEST(OutputPaths, InputFilesFindsAnInputByAnyName) {
  const std::string dir = test::fresh_dir("out_paths_inputs");
  test::write_text(dir + "/a.jpg", "x");
  fs::create_hard_link(dir + "/a.jpg", dir + "/a_hard.jpg");
  InputFiles in;
  in.add(dir + "/a.jpg");
  in.add(dir + "/missing.jpg");
  EXPECT_EQ(in.find(dir + "/sub/../a.jpg"), dir + "/a.jpg");
  EXPECT_EQ(in.find(dir + "/a_hard.jpg"), dir + "/a.jpg");
  EXPECT_EQ(in.find(dir + "/missing.jpg"), dir + "/missing.jpg");
  EXPECT_EQ(in.find(dir + "/b.jpg"), "");
}

TEST(OutputStems, TheStemUnlessAnotherInputSharesIt) {
  const auto stems = ocrforge::output_stems({"a/scan.jpg", "b/Scan.PNG", "c/receipt.pdf", "d/x.tar.gz"});
  EXPECT_EQ(stems.at("a/scan.jpg"), "scan.jpg");  // "scan" and "Scan" collide, case-insensitively
  EXPECT_EQ(stems.at("b/Scan.PNG"), "Scan.PNG");
  EXPECT_EQ(stems.at("c/receipt.pdf"), "receipt");
  EXPECT_EQ(stems.at("d/x.tar.gz"), "x.tar");
}
