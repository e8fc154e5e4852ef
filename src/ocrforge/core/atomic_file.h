// Atomic whole-file writes: readers see the old file or the new one, never a
// half-written one, even if the process dies mid-write (configs, checkpoints,
// result files).
#pragma once
#include <string>

namespace ocrforge {

// Writes `bytes` to `path` atomically: a temp file in the same folder
// (".<name>.tmp.XXXXXX", so the rename cannot cross file systems), rename
// over `path`, and fsync of the temp file and the folder, so the new content
// also survives a power cut. The three-argument form with durable = false
// skips the fsyncs (per-image result files: a killed process still leaves no
// half file, and a run of 1,000 images does not wait for 2,000 fsyncs).
// An existing file keeps its permission bits; a new one gets 0644.
// The folder must exist. Throws Error naming the path on failure (disk full,
// no permission), after removing the temp file; `path` is then untouched.
void write_file_atomic(const std::string& path, const std::string& bytes);
void write_file_atomic(const std::string& path, const std::string& bytes, bool durable);

// Removes the temp files a killed writer of `path` left behind
// (".<name>.tmp.*" beside it). Call it only while nobody else writes `path`.
// Returns how many were removed.
int remove_stale_temp_files(const std::string& path);

// A file built up piece by piece under a temp name beside `path` and renamed
// into place by commit(): `path` is never seen half-written, and a write
// error (disk full) is an Error at the append that failed, not a silently
// cut file. Without commit() the temp file is removed.
class StagedFile {
 public:
  explicit StagedFile(const std::string& path);
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  void append(const std::string& bytes);
  // fsync + rename over the path; throws Error naming it on failure.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, temp_;
  int fd_ = -1;
  bool committed_ = false;
};

// One writer per folder: an exclusive flock(2) on "<folder>/.ocrforge.lock",
// held until destruction, with "pid <pid> on <host> since <time>" written in
// it so that a second run can name the holder. The holder removes the file
// when it lets go (while still holding the flock; a new holder checks that
// the file it locked is still the one at the path), so a finished run
// leaves no lock file. The kernel drops the lock when the process dies (even
// by kill -9), so a lock is never stale: the file a killed run leaves is
// taken over, and removed, by the next run.
class FolderLock {
 public:
  // Throws Error naming the folder and the holder when another process holds
  // it; `what` says which flag chose the folder ("--draw_img_save_dir").
  FolderLock(const std::string& folder, const std::string& what);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace ocrforge
