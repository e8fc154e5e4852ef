// What every worker publishes at rendezvous so that a run never mixes
// builds, configs or data: training on two nodes with different `-o`
// overrides or label files would silently average gradients of two
// different jobs. Items: ocrforge version, libtorch version, the resolved
// config's hash (without keys that may legitimately differ per node) and
// each Train label file's size and hash.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

class Config;

// Keys removed before hashing the config: per-node settings (Global.num_threads
// follows the node's core count under `ocrforge launch`).
const std::vector<std::string>& fingerprint_excluded_keys();

struct Fingerprint {
  int rank = 0;
  std::string host;                                        // "name (ip)" of the node, for messages only (not compared)
  std::vector<std::pair<std::string, std::string>> items;  // (what, value), same order on every rank
  std::string config_yaml;  // the hashed config: explains a hash mismatch key by key (not compared itself)

  std::string to_json() const;
  static Fingerprint from_json(const std::string& text);  // Error when malformed
};

// Hashes the label files named in Train.dataset.label_file_list (paths as the
// trainer opens them, relative to the working directory); a missing file is
// recorded as "missing" (the trainer reports it properly later).
Fingerprint make_fingerprint(const Config& config, int rank, const std::string& host);

// "" when all agree; otherwise one line per differing item naming the ranks
// and hosts of each value, e.g.
//   config hash (Global.num_threads excluded) differs: 0x12.. on rank 0 (a 10.0.0.1); 0x34.. on rank 1 (b 10.0.0.2)
//     Optimizer.lr.learning_rate: 0.005 on rank 0, 0.001 on rank 1
// (the keys whose values differ from rank 0's, at most 10).
std::string compare_fingerprints(const std::vector<Fingerprint>& all);

// FNV-1a 64 of a file's bytes and its size; false when unreadable.
bool hash_file(const std::string& path, uint64_t* hash, uint64_t* size);

}  // namespace ocrforge
