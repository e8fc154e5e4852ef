// Tests for write_file_atomic (ocrforge/core/atomic_file.h).
#include "ocrforge/core/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ocrforge/core/error.h"
#include "contains_assertion.h"
#include "test_support.h"

using ocrforge::Error;
using ocrforge::write_file_atomic;
namespace fs = std::filesystem;

namespace {

// Success when `text` contains `part`; prints both otherwise.
using ocrforge::test::contains;

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

std::string error_of(const std::string& path) {
  return ocrforge::test::message_of<Error>([&] {
    write_file_atomic(path, "x");
  });
}

}  // namespace

TEST(AtomicFile, WritesNewFileReadableByOthers) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_new");
  write_file_atomic(dir + "/a.txt", "hello\n");
  EXPECT_EQ(ocrforge::test::read_text(dir + "/a.txt"), "hello\n");
  struct stat st {};
  ASSERT_EQ(::stat((dir + "/a.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);  // not mkstemp's 0600
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"a.txt"});
}

TEST(AtomicFile, ReplacesExistingFileKeepingItsMode) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_replace");
  const std::string path = dir + "/config.yml";
  ocrforge::test::write_text(path, "a much longer old content that must disappear entirely\n");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  write_file_atomic(path, "new\n");
  EXPECT_EQ(ocrforge::test::read_text(path), "new\n");
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_mode & 0777, 0640u);
  EXPECT_NE(after.st_ino, before.st_ino);  // a new file renamed over the old one
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"config.yml"});
}

TEST(AtomicFile, BinaryAndEmptyContents) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_bytes");
  const std::string bytes("a\0b\xff\n", 5);
  write_file_atomic(dir + "/b.bin", bytes);
  EXPECT_EQ(ocrforge::test::read_text(dir + "/b.bin"), bytes);
  write_file_atomic(dir + "/b.bin", "");
  EXPECT_EQ(fs::file_size(dir + "/b.bin"), 0u);
  const std::string big(3 << 20, 'z');  // several write() calls' worth
  write_file_atomic(dir + "/big", big);
  EXPECT_EQ(fs::file_size(dir + "/big"), big.size());
}

TEST(AtomicFile, MissingFolderFailsNamingThePath) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_missing");
  const std::string msg = error_of(dir + "/no/such/dir/f.txt");
  EXPECT_TRUE(contains(msg, "cannot write '" + dir + "/no/such/dir/f.txt'"));
  EXPECT_TRUE(contains(msg, "No such file or directory"));
  EXPECT_TRUE(names_in(dir).empty());
}

TEST(AtomicFile, FolderTargetFailsAndLeavesNoTempFile) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_folder");
  fs::create_directory(dir + "/sub");
  EXPECT_TRUE(contains(error_of(dir + "/sub"), "it is a folder"));
  EXPECT_TRUE(contains(error_of(dir + "/sub/"), "not a file name"));
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"sub"});
  EXPECT_TRUE(names_in(dir + "/sub").empty());
}

TEST(AtomicFile, UnwritableFolderFailsAndLeavesTargetUntouched) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores folder permissions";
  const std::string dir = ocrforge::test::fresh_dir("atomic_readonly");
  ocrforge::test::write_text(dir + "/keep.txt", "keep\n");
  ASSERT_EQ(::chmod(dir.c_str(), 0555), 0);
  EXPECT_TRUE(contains(error_of(dir + "/keep.txt"), "cannot write '" + dir + "/keep.txt'"));
  ::chmod(dir.c_str(), 0755);
  EXPECT_EQ(ocrforge::test::read_text(dir + "/keep.txt"), "keep\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"keep.txt"});
}

TEST(AtomicFile, BareFileNameWritesInTheCurrentFolder) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_cwd");
  const fs::path old = fs::current_path();
  fs::current_path(dir);
  write_file_atomic("here.txt", "ok");
  fs::current_path(old);
  EXPECT_EQ(ocrforge::test::read_text(dir + "/here.txt"), "ok");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"here.txt"});
}

namespace {
// Runs `fn` in a child process whose files may not grow past `limit` bytes
// (RLIMIT_FSIZE; writes past it fail with EFBIG, as on a full disk).
// Returns the child's exit code: what `fn` returns.
template <typename Fn>
int with_file_size_limit(rlim_t limit, Fn fn) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl {limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    ::_exit(fn());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

TEST(AtomicFile, WriteErrorLeavesTheOldFileAndNoTemp) {
  const std::string dir = ocrforge::test::fresh_dir("atomic_full");
  const std::string p = dir + "/r.json";
  write_file_atomic(p, "old");
  const int rc = with_file_size_limit(1000, [&] {
    try {
      write_file_atomic(p, std::string(5000, 'x'), false);
    } catch (const Error& e) {
      return std::string(e.what()).find("r.json") != std::string::npos ? 7 : 8;
    }
    return 9;
  });
  EXPECT_EQ(rc, 7) << "a write past the limit must throw an Error naming the file";
  EXPECT_EQ(ocrforge::test::read_text(p), "old");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"r.json"});
}

TEST(StagedFile, AppearsOnlyOnCommit) {
  const std::string dir = ocrforge::test::fresh_dir("staged");
  const std::string p = dir + "/system_results.txt";
  {
    ocrforge::StagedFile f(p);
    f.append("a\t[]\n");
    EXPECT_FALSE(fs::exists(p));
    f.append("b\t[]\n");
    f.commit();
  }
  EXPECT_EQ(ocrforge::test::read_text(p), "a\t[]\nb\t[]\n");
  { ocrforge::StagedFile f(p); f.append("never committed"); }
  EXPECT_EQ(ocrforge::test::read_text(p), "a\t[]\nb\t[]\n") << "an uncommitted file must not replace the old one";
  EXPECT_EQ(names_in(dir).size(), 1u) << "the temp file must be removed";
}

TEST(StagedFile, DiskFullIsAnErrorAtTheAppend) {
  const std::string dir = ocrforge::test::fresh_dir("staged_full");
  const std::string p = dir + "/system_results.txt";
  const int rc = with_file_size_limit(1000, [&] {
    ocrforge::StagedFile f(p);
    try {
      for (int i = 0; i < 100; ++i) f.append(std::string(99, 'x') + "\n");
    } catch (const Error& e) {
      return std::string(e.what()).find("system_results.txt") != std::string::npos ? 7 : 8;
    }
    return 9;
  });
  EXPECT_EQ(rc, 7);
  EXPECT_FALSE(fs::exists(p)) << "a cut file must never appear under the real name";
  EXPECT_TRUE(names_in(dir).empty()) << "the temp file is removed";
}

TEST(AtomicFile, StaleTempFilesOfOnePathAreRemoved) {
  const std::string dir = ocrforge::test::fresh_dir("stale");
  ocrforge::test::write_text(dir + "/.latest.ckpt.tmp.Ab12Cd", "killed mid-save");
  ocrforge::test::write_text(dir + "/.latest.ckpt.tmp.Zz99Yy", "killed mid-save");
  ocrforge::test::write_text(dir + "/.best_accuracy.ckpt.tmp.Qq11Ww", "another file's temp");
  ocrforge::test::write_text(dir + "/latest.ckpt", "kept");
  EXPECT_EQ(ocrforge::remove_stale_temp_files(dir + "/latest.ckpt"), 2);
  auto names = names_in(dir);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{".best_accuracy.ckpt.tmp.Qq11Ww", "latest.ckpt"}));
}

TEST(FolderLock, ASecondHolderIsRefusedWithTheFirstNamed) {
  const std::string dir = ocrforge::test::fresh_dir("lock");
  auto lock = std::make_unique<ocrforge::FolderLock>(dir, "--draw_img_save_dir");
  // flock locks belong to the open file description: a child process that
  // opens the file itself competes like another run would.
  const int rc = with_file_size_limit(1 << 20, [&] {
    try {
      ocrforge::FolderLock second(dir, "--draw_img_save_dir");
    } catch (const Error& e) {
      const std::string m = e.what();
      const bool named = m.find("in use by another ocrforge run") != std::string::npos &&
                         m.find("pid " + std::to_string(::getppid())) != std::string::npos;
      return named ? 7 : 8;
    }
    return 9;
  });
  EXPECT_EQ(rc, 7);
  lock.reset();
  EXPECT_NO_THROW(ocrforge::FolderLock again(dir, "--draw_img_save_dir")) << "released on destruction";
}

// Issue 50: a finished run leaves no ".ocrforge.lock" in the user's output
// folder, and the file a killed run left (its flock died with it) is taken
// over and removed by the next one.
TEST(FolderLock, NoLockFileIsLeftBehind) {
  const std::string dir = ocrforge::test::fresh_dir("lock_gone");
  {
    ocrforge::FolderLock lock(dir, "--draw_img_save_dir");
    EXPECT_EQ(names_in(dir), std::vector<std::string>{".ocrforge.lock"}) << "held: the file names the holder";
  }
  EXPECT_TRUE(names_in(dir).empty()) << "released: the lock file must be gone";
  ocrforge::test::write_text(dir + "/.ocrforge.lock", "pid 4242 on host since 2026-12-03 10:00:00\n");
  { ocrforge::FolderLock lock(dir, "--draw_img_save_dir"); }
  EXPECT_TRUE(names_in(dir).empty()) << "a killed run's lock file is removed by the next holder";
}

// Removing the file on release must not let two processes hold the folder at
// once (one locking the removed file, the other a new one at the path):
// processes take and release the lock in a loop, and each holder creates a
// marker with O_EXCL that the previous holder must already have removed.
TEST(FolderLock, HoldersNeverOverlapWhileTheFileComesAndGoes) {
  const std::string dir = ocrforge::test::fresh_dir("lock_race");
  const std::string marker = dir + "/held";
  constexpr int kProcesses = 4, kRounds = 300;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      int held = 0;
      for (int tries = 0; held < kRounds && tries < 200000; ++tries) {
        try {
          ocrforge::FolderLock lock(dir, "--draw_img_save_dir");
          const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
          if (fd < 0) ::_exit(3);  // another process holds the folder too
          ::close(fd);
          ::usleep(50);
          ::unlink(marker.c_str());
          ++held;
        } catch (const Error& e) {
          if (std::string(e.what()).find("in use by another ocrforge run") == std::string::npos) ::_exit(4);
        }
      }
      ::_exit(held == kRounds ? 0 : 5);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a child ended with " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1)
        << " (3: two holders at once, 4: another error, 5: never got its turns)";
  }
  EXPECT_TRUE(names_in(dir).empty()) << "no lock file (nor marker) is left";
}
