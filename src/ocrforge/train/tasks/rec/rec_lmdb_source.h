// PaddleOCR's LMDBDataSet for recognition: the samples of every LMDB
// environment under data_dir (data/lmdb_env.h finds and opens them), in the
// layout of PaddleOCR's (and the deep-text-recognition-benchmark's)
// data_lmdb_release: `num-samples` (the count, decimal text), and for
// k = 1..num-samples `image-%09d` (the encoded image file's bytes) and
// `label-%09d` (the text, UTF-8). Sample i of the data set is record
// i - (samples of the environments before its own) + 1 of its environment,
// environments in find_lmdb_folders' order. ratio_list samples nothing here,
// as in PaddleOCR.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ocrforge/train/data/lmdb_env.h"
#include "ocrforge/train/tasks/rec/rec_sample_source.h"

namespace ocrforge {

class RecLmdbSource : public RecSampleSource {
 public:
  // Opens every environment under `data_dir` and reads its num-samples.
  // Throws Error naming `config_key` (e.g. "Train.dataset.data_dir") when
  // data_dir is missing or has no folder, naming the environment when one
  // cannot be opened (lmdb_env.h) or its num-samples is missing or not a
  // count, and when no environment holds a sample.
  RecLmdbSource(const std::string& data_dir, const std::string& config_key);

  size_t size() const override { return total_; }
  // A record whose label or image key is missing, whose bytes cannot be
  // read (a damaged page) or decoded is reported as such, never thrown: the
  // data set replaces the sample and counts why (PaddleOCR replaces it too).
  bool text(size_t i, std::string* text) const override;
  DecodeStatus image(size_t i, cv::Mat* bgr) const override;
  // "<environment folder>#image-000000001".
  std::string name(size_t i) const override;

  // The environments' folders and sample counts, in sample order.
  std::vector<std::pair<std::string, size_t>> environments() const;

  // PaddleOCR's key of record k (1-based) for prefix "image" / "label".
  static std::string record_key(const char* prefix, size_t k);

 private:
  struct Env {
    std::unique_ptr<LmdbEnv> env;
    size_t first = 0;  // data set index of its record 1
    size_t count = 0;  // its num-samples
  };
  // The environment holding sample i and the sample's record number there.
  std::pair<const Env*, size_t> locate(size_t i) const;

  std::vector<Env> envs_;
  size_t total_ = 0;
};

}  // namespace ocrforge
