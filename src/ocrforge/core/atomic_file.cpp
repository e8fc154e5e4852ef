#include "ocrforge/core/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The hidden temp-name prefix of `path`: "dir/.name.tmp."
std::string temp_prefix(const std::string& path) {
  const std::string dir = folder_of(path);
  return (dir == "/" ? "" : dir) + "/." + base_of(path) + ".tmp.";
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw Error("cannot write '" + path + "': " + what + ": " + std::strerror(err));
}

void check_target(const std::string& path, struct stat* target, bool* exists) {
  if (path.empty() || path.back() == '/') throw Error("cannot write '" + path + "': not a file name");
  *exists = ::stat(path.c_str(), target) == 0;
  if (*exists && S_ISDIR(target->st_mode)) throw Error("cannot write '" + path + "': it is a folder");
}

// mkstemp beside `path`, with the old file's mode (or 0644): replacing a file
// changes only its bytes.
int make_temp(const std::string& path, std::string* name) {
  struct stat target {};
  bool exists = false;
  check_target(path, &target, &exists);
  std::string pattern = temp_prefix(path) + "XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) fail(path, "cannot create a temp file in '" + folder_of(path) + "'", errno);
  *name = buf.data();
  if (::fchmod(fd, exists ? (target.st_mode & 07777) : 0644) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(name->c_str());
    fail(path, "fchmod", err);
  }
  return fd;
}

void write_all(int fd, const std::string& path, const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "write", errno);
    done += static_cast<size_t>(n);
  }
}

void sync_folder(const std::string& path) {
  // Makes the rename itself durable; failure here is harmless (the data is in place).
  const int dfd = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

// Removes the temp file unless the rename happened (then it no longer exists).
struct TempFile {
  std::string name;
  int fd = -1;
  bool renamed = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!renamed && !name.empty()) ::unlink(name.c_str());
  }
};

}  // namespace

void write_file_atomic(const std::string& path, const std::string& bytes, bool durable) {
  TempFile tmp;
  tmp.fd = make_temp(path, &tmp.name);
  write_all(tmp.fd, path, bytes.data(), bytes.size());
  if (durable && ::fsync(tmp.fd) != 0) fail(path, "fsync", errno);
  const int close_rc = ::close(tmp.fd);
  tmp.fd = -1;
  if (close_rc != 0) fail(path, "close", errno);
  if (::rename(tmp.name.c_str(), path.c_str()) != 0) fail(path, "rename", errno);
  tmp.renamed = true;
  if (durable) sync_folder(path);
}

void write_file_atomic(const std::string& path, const std::string& bytes) { write_file_atomic(path, bytes, true); }

int remove_stale_temp_files(const std::string& path) {
  const std::string prefix = "." + base_of(path) + ".tmp.";
  const std::string dir = folder_of(path);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  std::vector<std::string> stale;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) stale.push_back(name);
  }
  ::closedir(d);
  int removed = 0;
  for (const auto& name : stale)
    if (::unlink((dir + "/" + name).c_str()) == 0) ++removed;
  return removed;
}

StagedFile::StagedFile(const std::string& path) : path_(path) { fd_ = make_temp(path, &temp_); }

StagedFile::~StagedFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void StagedFile::append(const std::string& bytes) {
  if (committed_) throw Error("internal: '" + path_ + "' was already committed");
  write_all(fd_, path_, bytes.data(), bytes.size());
}

void StagedFile::commit() {
  if (committed_) return;
  if (::fsync(fd_) != 0) fail(path_, "fsync", errno);
  const int close_rc = ::close(fd_);
  fd_ = -1;
  if (close_rc != 0) fail(path_, "close", errno);
  if (::rename(temp_.c_str(), path_.c_str()) != 0) fail(path_, "rename", errno);
  committed_ = true;
  sync_folder(path_);
}

namespace {

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// True when `path` names the file open on `fd` (not removed, not replaced).
bool path_is(const std::string& path, int fd) {
  struct stat open_st {}, path_st {};
  return ::fstat(fd, &open_st) == 0 && open_st.st_nlink > 0 && ::stat(path.c_str(), &path_st) == 0 &&
         same_file(open_st, path_st);
}

}  // namespace

// The lock file exists only while a run holds it: the holder removes it
// before releasing the flock. A second process may have opened the file just
// before the removal and then get the flock on the removed inode; so after
// each flock the path is checked to still name the locked file, and if it
// does not, the lock is dropped and taken again on the file now at the path.
// Whoever holds a flock on the file at the path is therefore the only holder.
FolderLock::FolderLock(const std::string& folder, const std::string& what) {
  path_ = (folder.empty() ? std::string(".") : folder) + "/.ocrforge.lock";
  for (int attempt = 0;; ++attempt) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot create lock file '" + path_ + "' (" + what + "): " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      char holder[256] = {0};
      const ssize_t n = ::pread(fd_, holder, sizeof(holder) - 1, 0);
      std::string who = n > 0 ? std::string(holder, static_cast<size_t>(n)) : std::string("unknown");
      while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
      ::close(fd_);
      fd_ = -1;
      if (err == EWOULDBLOCK)
        throw Error("output folder '" + folder + "' (" + what + ") is in use by another ocrforge run (" + who +
                    "); wait for it to finish or choose another folder");
      throw Error("cannot lock '" + path_ + "' (" + what + "): " + std::strerror(err));
    }
    if (path_is(path_, fd_)) break;
    // Locked a file its holder removed on release (or that was replaced): try the one at the path now.
    ::close(fd_);
    fd_ = -1;
    if (attempt == 100) throw Error("cannot lock '" + path_ + "' (" + what + "): it keeps being removed or replaced");
  }
  char host[256] = {0};
  ::gethostname(host, sizeof(host) - 1);
  char when[64] = {0};
  const std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  const std::string text = "pid " + std::to_string(::getpid()) + " on " + host + " since " + when + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    // Best effort: the lock holds even if the note cannot be written.
    [[maybe_unused]] const ssize_t w = ::pwrite(fd_, text.data(), text.size(), 0);
  }
}

FolderLock::~FolderLock() {
  if (fd_ < 0) return;
  // Removed while still locked, so no one can hold a lock on it in between;
  // unless the path names another file (someone deleted ours by hand).
  if (path_is(path_, fd_)) ::unlink(path_.c_str());
  ::close(fd_);  // closing the descriptor releases the flock
}

}  // namespace ocrforge
