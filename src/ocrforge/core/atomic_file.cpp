#include "ocrforge/core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw Error("cannot write '" + path + "': " + what + ": " + std::strerror(err));
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

void write_file_atomic(const std::string& path, const std::string& bytes) {
  if (path.empty() || path.back() == '/') throw Error("cannot write '" + path + "': not a file name");
  struct stat target {};
  const bool exists = ::stat(path.c_str(), &target) == 0;
  if (exists && S_ISDIR(target.st_mode)) throw Error("cannot write '" + path + "': it is a folder");

  // Hidden name in the same folder: rename(2) is atomic only within one file system.
  const std::string dir = folder_of(path);
  const std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  std::string pattern = (dir == "/" ? "" : dir) + "/." + base + ".tmp.XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  TempFile tmp;
  tmp.fd = ::mkstemp(buf.data());
  if (tmp.fd < 0) fail(path, "cannot create a temp file in '" + dir + "'", errno);
  tmp.name = buf.data();

  // mkstemp makes 0600; keep the old file's mode so replacing it changes only its bytes.
  if (::fchmod(tmp.fd, exists ? (target.st_mode & 07777) : 0644) != 0) fail(path, "fchmod", errno);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(tmp.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "write", errno);
    done += static_cast<size_t>(n);
  }
  if (::fsync(tmp.fd) != 0) fail(path, "fsync", errno);
  const int close_rc = ::close(tmp.fd);
  tmp.fd = -1;
  if (close_rc != 0) fail(path, "close", errno);
  if (::rename(tmp.name.c_str(), path.c_str()) != 0) fail(path, "rename", errno);
  tmp.renamed = true;

  // Make the rename itself durable; failure here is harmless (the data is in place).
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace ocrforge
