// Writes tiny LMDB environments for the tests of PaddleOCR's LMDBDataSet
// (the library never writes one). Only tests whose file name holds "lmdb"
// link liblmdb (tests/train/CMakeLists.txt).
#pragma once
#include <lmdb.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

namespace ocrforge::test {

// PaddleOCR's record key: "image-000000001", "label-000000012".
inline std::string lmdb_key(const std::string& prefix, int k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "-%09d", k);
  return prefix + buf;
}

// Creates folder `dir` (and its parents) holding an environment with
// `records`; fails the test (fatally) on any LMDB error.
inline void write_lmdb(const std::string& dir, const std::map<std::string, std::string>& records) {
  std::filesystem::create_directories(dir);
  MDB_env* env = nullptr;
  ASSERT_EQ(mdb_env_create(&env), 0);
  ASSERT_EQ(mdb_env_set_mapsize(env, size_t{64} << 20), 0);
  ASSERT_EQ(mdb_env_open(env, dir.c_str(), 0, 0644), 0) << dir;
  MDB_txn* txn = nullptr;
  ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
  MDB_dbi dbi = 0;
  ASSERT_EQ(mdb_dbi_open(txn, nullptr, 0, &dbi), 0);
  for (const auto& [key, value] : records) {
    MDB_val k{key.size(), const_cast<char*>(key.data())};
    MDB_val v{value.size(), const_cast<char*>(value.data())};
    ASSERT_EQ(mdb_put(txn, dbi, &k, &v, 0), 0) << key;
  }
  ASSERT_EQ(mdb_txn_commit(txn), 0);
  mdb_env_close(env);
}

}  // namespace ocrforge::test
