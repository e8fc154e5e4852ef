// LMDB environments read-only (data/lmdb_env.h): values come back as
// written, the environment folders of a data_dir are found as PaddleOCR's
// os.walk finds them, and a missing, foreign or truncated environment is an
// Error naming its folder, never a crash.
#include "ocrforge/train/data/lmdb_env.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ocrforge/core/error.h"
#include "lmdb_writer.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace ocrforge {
namespace {

TEST(LmdbEnv, ReadsWhatWasWrittenWithoutWritingAnything) {
  const std::string dir = test::fresh_dir("lmdb_env_read") + "/env";
  const std::string bytes("\x00\x01\xff binary", 10);
  ASSERT_NO_FATAL_FAILURE(test::write_lmdb(dir, {{"num-samples", "2"}, {"image-000000001", bytes}}));
  fs::remove(fs::path(dir) / "lock.mdb");
  const auto before = fs::last_write_time(fs::path(dir) / "data.mdb");
  // Read-only folder: the environment opens without a lock file.
  fs::permissions(dir, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  {
    LmdbEnv env(dir);
    EXPECT_EQ(env.dir(), dir);
    EXPECT_EQ(env.get("num-samples").value_or(""), "2");
    EXPECT_EQ(env.get("image-000000001").value_or(""), bytes);
    EXPECT_FALSE(env.get("label-000000001").has_value());
  }
  fs::permissions(dir, fs::perms::owner_write, fs::perm_options::add);
  EXPECT_FALSE(fs::exists(fs::path(dir) / "lock.mdb"));
  EXPECT_EQ(fs::last_write_time(fs::path(dir) / "data.mdb"), before);
}

TEST(LmdbEnv, AFolderThatIsNoEnvironmentIsAnErrorNamingIt) {
  const std::string root = test::fresh_dir("lmdb_env_bad");
  // No data.mdb at all.
  std::string msg = test::message_of<Error>([&] { LmdbEnv env(root); });
  EXPECT_NE(msg.find("'" + root + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("data.mdb"), std::string::npos) << msg;
  // A data.mdb that is not an LMDB database.
  const std::string foreign = root + "/foreign";
  fs::create_directories(foreign);
  test::write_text(foreign + "/data.mdb", std::string(20000, 'x'));
  msg = test::message_of<Error>([&] { LmdbEnv env(foreign); });
  EXPECT_NE(msg.find("'" + foreign + "'"), std::string::npos) << msg;
  // A truncated copy of a real one (its last pages cut off).
  const std::string cut = root + "/cut";
  std::map<std::string, std::string> many{{"num-samples", "64"}};
  for (int i = 1; i <= 64; ++i) many[test::lmdb_key("image", i)] = std::string(3000, static_cast<char>('a' + i % 26));
  ASSERT_NO_FATAL_FAILURE(test::write_lmdb(cut, many));
  const uintmax_t full = fs::file_size(cut + "/data.mdb");
  fs::resize_file(cut + "/data.mdb", full / 2);
  msg = test::message_of<Error>([&] { LmdbEnv env(cut); });
  EXPECT_NE(msg.find("'" + cut + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(LmdbEnv, FindsTheFoldersWithoutSubFoldersInNameOrder) {
  const std::string root = test::fresh_dir("lmdb_env_find");
  for (const char* d : {"training/MJ/MJ_train", "training/MJ/MJ_valid", "training/ST", "validation"})
    fs::create_directories(root + "/" + d);
  test::write_text(root + "/training/readme.txt", "files beside folders are not environments");
  EXPECT_EQ(find_lmdb_folders(root + "/training", "Train.dataset.data_dir"),
            (std::vector<std::string>{root + "/training/MJ/MJ_train", root + "/training/MJ/MJ_valid",
                                      root + "/training/ST"}));
  // data_dir itself is the environment when it has no sub-folder.
  EXPECT_EQ(find_lmdb_folders(root + "/validation", "Eval.dataset.data_dir"),
            std::vector<std::string>{root + "/validation"});
  // A linked folder is searched; a link back up the tree is searched once.
  fs::create_directory_symlink(root + "/validation", root + "/training/ST_link");
  fs::create_directory_symlink(root + "/training", root + "/training/MJ/loop");
  const auto found = find_lmdb_folders(root + "/training", "Train.dataset.data_dir");
  EXPECT_EQ(found.size(), 4u);
  EXPECT_EQ(found.back(), root + "/training/ST_link");

  std::string msg = test::message_of<Error>([&] { find_lmdb_folders(root + "/nope", "Train.dataset.data_dir"); });
  EXPECT_NE(msg.find("Train.dataset.data_dir"), std::string::npos) << msg;
  EXPECT_NE(msg.find(root + "/nope"), std::string::npos) << msg;
  msg = test::message_of<Error>([&] { find_lmdb_folders(root + "/training/readme.txt", "Eval.dataset.data_dir"); });
  EXPECT_NE(msg.find("is not a folder"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ocrforge
