// LMDB environments read as PaddleOCR's LMDBDataSet reads them (Debian's
// liblmdb): the folder tree under a data_dir searched for environments, and
// one environment opened read-only without its lock file, so a data set on a
// read-only disk or shared by several trainings opens, and nothing is ever
// written. Task-free: recognition's LMDBDataSet (tasks/rec/rec_lmdb_source.h)
// uses it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

typedef struct MDB_env MDB_env;

namespace ocrforge {

class LmdbEnv {
 public:
  // Opens the environment in folder `dir` (its data.mdb). Throws Error naming
  // `dir` when it holds no data.mdb, when that file is no LMDB database (or
  // one of another LMDB version), or when it is shorter than the database it
  // describes (a truncated copy, which would otherwise crash on first read).
  explicit LmdbEnv(const std::string& dir);
  ~LmdbEnv();
  LmdbEnv(const LmdbEnv&) = delete;
  LmdbEnv& operator=(const LmdbEnv&) = delete;

  // The value stored under `key` in the main database, copied; nullopt when
  // there is none. Throws Error naming the folder and the key when the read
  // itself fails (a damaged page). Thread-safe: each call is its own
  // read-only transaction.
  std::optional<std::string> get(const std::string& key) const;
  // How many records (keys) the main database holds.
  size_t records() const;

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  MDB_env* env_ = nullptr;
  unsigned int dbi_ = 0;
};

// The LMDB environments of a data_dir as PaddleOCR finds them (os.walk): every
// folder under `data_dir`, itself included, that has no sub-folder, in name
// order (PaddleOCR takes the file system's order). A linked sub-folder is
// searched too (os.walk would skip it), once. Throws Error naming `config_key`
// when data_dir does not exist or is not a folder.
std::vector<std::string> find_lmdb_folders(const std::string& data_dir, const std::string& config_key);

}  // namespace ocrforge
