// LMDB environments for `tipc prepare` (tipc_lmdb.h).
#include "ocrforge/tipc/tipc_lmdb.h"

#include <lmdb.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "ocrforge/core/error.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

void check(int rc, const std::string& dir, const char* what) {
  if (rc != 0) throw Error("LMDB environment '" + dir + "': " + what + " failed: " + mdb_strerror(rc));
}

std::string record_key(const char* prefix, size_t k) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s-%09zu", prefix, k);
  return buf;
}

// One environment written in one transaction; closed on every path.
void write_environment(const std::string& dir, const std::map<std::string, std::string>& records, size_t bytes) {
  MDB_env* env = nullptr;
  check(mdb_env_create(&env), dir, "creating the environment");
  try {
    // The map must hold every value plus the B-tree's pages: twice the data
    // and 1 MiB of slack is ample for page overhead.
    check(mdb_env_set_mapsize(env, 2 * bytes + (size_t{1} << 20)), dir, "sizing the map");
    check(mdb_env_open(env, dir.c_str(), 0, 0644), dir, "opening");
    MDB_txn* txn = nullptr;
    check(mdb_txn_begin(env, nullptr, 0, &txn), dir, "starting the write");
    MDB_dbi dbi = 0;
    int rc = mdb_dbi_open(txn, nullptr, 0, &dbi);
    for (auto it = records.begin(); rc == 0 && it != records.end(); ++it) {
      MDB_val k{it->first.size(), const_cast<char*>(it->first.data())};
      MDB_val v{it->second.size(), const_cast<char*>(it->second.data())};
      rc = mdb_put(txn, dbi, &k, &v, 0);
    }
    if (rc != 0) {
      mdb_txn_abort(txn);
      check(rc, dir, "writing a record");
    }
    check(mdb_txn_commit(txn), dir, "committing");
  } catch (...) {
    mdb_env_close(env);
    throw;
  }
  mdb_env_close(env);
}

}  // namespace

void write_rec_lmdb(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& samples) {
  std::map<std::string, std::string> records{{"num-samples", std::to_string(samples.size())}};
  size_t bytes = 0;
  for (size_t k = 1; k <= samples.size(); ++k) {
    const auto& [image, label] = samples[k - 1];
    std::ifstream in(image, std::ios::binary);
    if (!in) throw Error("LMDB environment '" + dir + "': cannot read image '" + image + "'");
    std::ostringstream s;
    s << in.rdbuf();
    std::string& stored = records[record_key("image", k)] = s.str();
    records[record_key("label", k)] = label;
    bytes += stored.size() + label.size() + 64;
  }
  const fs::path target = fs::path(dir).lexically_normal();
  const fs::path final_dir = target.has_filename() ? target : target.parent_path();
  const fs::path part = final_dir.string() + ".part";
  fs::remove_all(part);
  fs::create_directories(part);
  write_environment(part.string(), records, bytes);
  fs::remove(part / "lock.mdb");  // readers open without a lock file (PaddleOCR's lock=False)
  if (fs::exists(final_dir)) fs::remove(final_dir);  // an empty folder only: a non-empty one is "present"
  fs::rename(part, final_dir);
}

}  // namespace ocrforge
