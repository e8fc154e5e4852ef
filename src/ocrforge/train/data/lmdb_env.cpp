// LMDB environments, read-only (lmdb_env.h).
#include "ocrforge/train/data/lmdb_env.h"

#include <lmdb.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "ocrforge/core/error.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

std::string lmdb_message(int rc) { return mdb_strerror(rc); }

// A read-only transaction that ends with its scope.
class ReadTxn {
 public:
  ReadTxn(MDB_env* env, const std::string& dir) {
    const int rc = mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn_);
    if (rc != 0) throw Error("LMDB environment '" + dir + "': cannot start a read (" + lmdb_message(rc) + ")");
  }
  ~ReadTxn() { mdb_txn_abort(txn_); }
  ReadTxn(const ReadTxn&) = delete;
  ReadTxn& operator=(const ReadTxn&) = delete;
  MDB_txn* get() const { return txn_; }

 private:
  MDB_txn* txn_ = nullptr;
};

}  // namespace

LmdbEnv::LmdbEnv(const std::string& dir) : dir_(dir) {
  const fs::path data = fs::path(dir) / "data.mdb";
  std::error_code ec;
  const uintmax_t file_size = fs::file_size(data, ec);
  if (ec)
    throw Error("LMDB environment '" + dir + "': no readable data.mdb in it (" + ec.message() +
                "); PaddleOCR's LMDBDataSet opens every folder without sub-folders under data_dir as one");
  int rc = mdb_env_create(&env_);
  if (rc != 0) throw Error("LMDB environment '" + dir + "': " + lmdb_message(rc));
  // PaddleOCR opens with readonly=True, lock=False, readahead=False: no
  // lock.mdb is created, and pages are read when used (data sets are large
  // and read at random).
  rc = mdb_env_open(env_, dir.c_str(), MDB_RDONLY | MDB_NOLOCK | MDB_NORDAHEAD | MDB_NOTLS, 0444);
  if (rc != 0) {
    mdb_env_close(env_);
    env_ = nullptr;
    throw Error("LMDB environment '" + dir + "' cannot be opened: " + lmdb_message(rc) +
                (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH ? " (data.mdb is not an LMDB database of this version)"
                                                                  : ""));
  }
  // Reading a page past the end of a truncated data.mdb would end the
  // process (SIGBUS): compare the file with the pages the database uses.
  MDB_envinfo info{};
  MDB_stat stat{};
  mdb_env_info(env_, &info);
  mdb_env_stat(env_, &stat);
  const uintmax_t needed = (static_cast<uintmax_t>(info.me_last_pgno) + 1) * stat.ms_psize;
  if (file_size < needed) {
    mdb_env_close(env_);
    env_ = nullptr;
    throw Error("LMDB environment '" + dir + "': data.mdb has " + std::to_string(file_size) +
                " bytes but its database uses " + std::to_string(needed) + " (a truncated copy?)");
  }
  try {
    ReadTxn txn(env_, dir_);
    MDB_dbi dbi = 0;
    rc = mdb_dbi_open(txn.get(), nullptr, 0, &dbi);
    if (rc != 0) throw Error("LMDB environment '" + dir + "': cannot open its database (" + lmdb_message(rc) + ")");
    dbi_ = dbi;  // the main database's handle stays valid for the environment's lifetime
  } catch (...) {
    mdb_env_close(env_);
    env_ = nullptr;
    throw;
  }
}

LmdbEnv::~LmdbEnv() {
  if (env_) mdb_env_close(env_);
}

std::optional<std::string> LmdbEnv::get(const std::string& key) const {
  ReadTxn txn(env_, dir_);
  MDB_val k{key.size(), const_cast<char*>(key.data())};
  MDB_val v{};
  const int rc = mdb_get(txn.get(), dbi_, &k, &v);
  if (rc == MDB_NOTFOUND) return std::nullopt;
  if (rc != 0) throw Error("LMDB environment '" + dir_ + "': reading key '" + key + "' failed: " + lmdb_message(rc));
  // The value lives in the memory map only while the transaction is open.
  return std::string(static_cast<const char*>(v.mv_data), v.mv_size);
}

size_t LmdbEnv::records() const {
  ReadTxn txn(env_, dir_);
  MDB_stat stat{};
  const int rc = mdb_stat(txn.get(), dbi_, &stat);
  if (rc != 0) throw Error("LMDB environment '" + dir_ + "': cannot count its records (" + lmdb_message(rc) + ")");
  return stat.ms_entries;
}

std::vector<std::string> find_lmdb_folders(const std::string& data_dir, const std::string& config_key) {
  std::error_code ec;
  if (!fs::exists(data_dir, ec)) throw Error("config key '" + config_key + "': '" + data_dir + "' does not exist");
  if (!fs::is_directory(data_dir, ec))
    throw Error("config key '" + config_key + "': '" + data_dir +
                "' is not a folder (LMDBDataSet reads the LMDB environments in the folders under it)");
  std::vector<std::string> leaves;
  std::set<fs::path> seen;  // canonical folders already searched: a link cycle ends here
  // Depth first, sub-folders in name order, as a walk that lists each
  // folder's children sorted.
  std::vector<fs::path> stack{fs::path(data_dir)};
  while (!stack.empty()) {
    const fs::path dir = stack.back();
    stack.pop_back();
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    if (!seen.insert(ec ? dir : canonical).second) continue;
    std::vector<fs::path> children;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec)) children.push_back(it->path());
    if (ec) throw Error("config key '" + config_key + "': cannot list '" + dir.string() + "' (" + ec.message() + ")");
    if (children.empty()) {
      leaves.push_back(dir.string());
      continue;
    }
    std::sort(children.begin(), children.end());
    for (auto c = children.rbegin(); c != children.rend(); ++c) stack.push_back(*c);
  }
  return leaves;
}

}  // namespace ocrforge
