// LMDBDataSet's samples (rec_lmdb_source.h).
#include "ocrforge/train/tasks/rec/rec_lmdb_source.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// num-samples as PaddleOCR reads it (int() of the bytes): decimal digits,
// surrounding white space allowed. Error naming the environment otherwise.
size_t parse_count(const std::string& raw, const std::string& dir) {
  const std::string s = trim(raw);
  const std::string shown = s.size() > 40 ? s.substr(0, 40) + "..." : s;
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18)
    throw Error("LMDB environment '" + dir + "': num-samples is not a count of samples (got '" + shown + "')");
  return static_cast<size_t>(std::stoull(s));
}

}  // namespace

std::string RecLmdbSource::record_key(const char* prefix, size_t k) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s-%09zu", prefix, k);
  return buf;
}

RecLmdbSource::RecLmdbSource(const std::string& data_dir, const std::string& config_key) {
  for (const std::string& dir : find_lmdb_folders(data_dir, config_key)) {
    Env e;
    e.env = std::make_unique<LmdbEnv>(dir);
    const std::optional<std::string> n = e.env->get("num-samples");
    if (!n)
      throw Error("LMDB environment '" + dir + "' has no 'num-samples' key: PaddleOCR's LMDB data sets hold "
                  "num-samples and, from 1, image-%09d / label-%09d (found under " + config_key + " '" + data_dir +
                  "')");
    e.count = parse_count(*n, dir);
    // A sample is an image record and a label record; data sets with some
    // missing are read (the gaps skipped), but more samples than records is
    // a damaged or hand-edited num-samples that would size the sampler's
    // index (gigabytes) for records that are not there.
    const size_t records = e.env->records();
    if (e.count > records)
      throw Error("LMDB environment '" + dir + "': num-samples says " + std::to_string(e.count) +
                  " but the database holds only " + std::to_string(records) +
                  " records (each sample is an image-%09d and a label-%09d); rewrite num-samples or the data set");
    e.first = total_;
    if (e.count > std::numeric_limits<size_t>::max() / 2 - total_)
      throw Error("LMDB environment '" + dir + "': num-samples " + std::to_string(e.count) + " is not plausible");
    total_ += e.count;
    envs_.push_back(std::move(e));
  }
  if (total_ == 0)
    throw Error("config key '" + config_key + "': the LMDB environments under '" + data_dir + "' hold no samples (" +
                std::to_string(envs_.size()) + " environment(s), num-samples 0 in each)");
}

std::pair<const RecLmdbSource::Env*, size_t> RecLmdbSource::locate(size_t i) const {
  if (i >= total_) throw Error("LMDBDataSet: sample " + std::to_string(i) + " out of range (size " +
                               std::to_string(total_) + ")");
  // The last environment whose first index is <= i (empty ones are skipped
  // by upper_bound's order: they share their successor's first index).
  auto it = std::upper_bound(envs_.begin(), envs_.end(), i, [](size_t v, const Env& e) { return v < e.first; });
  --it;
  while (it->count == 0 || i >= it->first + it->count) ++it;
  return {&*it, i - it->first + 1};
}

bool RecLmdbSource::text(size_t i, std::string* text) const {
  const auto [e, k] = locate(i);
  try {
    const std::optional<std::string> label = e->env->get(record_key("label", k));
    if (!label) return false;
    *text = *label;
    return true;
  } catch (const Error&) {
    return false;  // a damaged record: replaced like one without a label
  }
}

DecodeStatus RecLmdbSource::image(size_t i, cv::Mat* bgr) const {
  const auto [e, k] = locate(i);
  std::optional<std::string> bytes;
  try {
    bytes = e->env->get(record_key("image", k));
  } catch (const Error&) {
    return DecodeStatus::kUndecodable;  // a damaged record
  }
  if (!bytes) return DecodeStatus::kMissing;
  return decode_image_bytes(*bytes, bgr);
}

std::string RecLmdbSource::name(size_t i) const {
  const auto [e, k] = locate(i);
  return e->env->dir() + "#" + record_key("image", k);
}

std::vector<std::pair<std::string, size_t>> RecLmdbSource::environments() const {
  std::vector<std::pair<std::string, size_t>> out;
  for (const Env& e : envs_) out.emplace_back(e.env->dir(), e.count);
  return out;
}

}  // namespace ocrforge
