// MultiScaleSampler: config, batch sizes and the per-epoch plan (multi_scale_sampler.h).
#include "ocrforge/train/tasks/rec/multi_scale_sampler.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"
#include "ocrforge/train/data/data_yaml.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

bool present(const YAML::Node& n) { return n && !n.IsNull(); }

int positive(const YAML::Node& n, const std::string& key) {
  const int v = y::integer(n, key);
  if (v <= 0) throw UsageError("config key '" + key + "': must be a positive integer, got " + std::to_string(v));
  return v;
}

MultiScaleSamplerSpec::Scale parse_scale(const YAML::Node& s, const std::string& key) {
  if (s.IsScalar()) {
    const int side = positive(s, key);
    return {side, side};
  }
  if (!s.IsSequence() || s.size() != 2)
    throw UsageError("config key '" + key + "': expected [width, height], e.g. [320, 48]");
  return {positive(s[0], key + "[0]"), positive(s[1], key + "[1]")};
}

// Fisher-Yates from one (seed, epoch, salt) stream.
template <typename T>
void shuffle_with(std::vector<T>* v, uint64_t seed, int epoch, uint64_t salt) {
  DataRng rng(data_seed({seed, salt, static_cast<uint64_t>(epoch)}));
  for (size_t i = v->size(); i > 1; --i) std::swap((*v)[i - 1], (*v)[rng.index(i)]);
}

class MultiScaleSampler final : public Sampler {
 public:
  MultiScaleSampler(const MultiScaleSamplerSpec& spec, uint64_t seed, int rank, int world)
      : scales_(multi_scale_batches(spec)),
        shuffle_(spec.is_training),
        seed_(seed),
        rank_(static_cast<size_t>(rank)),
        world_(static_cast<size_t>(world)) {}

  std::vector<BatchPlan> epoch_batches(size_t n, int epoch, size_t, bool) override {
    const size_t share = n / world_;
    if (share == 0)
      throw Error("MultiScaleSampler: the data set holds " + std::to_string(n) + " samples, fewer than the " +
                  std::to_string(world_) + " training processes; each needs one at least");
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (shuffle_) shuffle_with(&order, seed_, epoch, 0x6d736361ULL /* "msca" */);
    std::vector<size_t> mine;
    mine.reserve(share);
    for (size_t i = rank_; mine.size() < share; i += world_) mine.push_back(order[i]);

    std::vector<BatchPlan> plan;
    for (size_t start = 0, k = 0; start < share; ++k) {
      const ScaleBatch& s = scales_[k % scales_.size()];
      BatchPlan b;
      b.height = s.height;
      b.width = s.width;
      for (size_t j = 0; j < static_cast<size_t>(s.batch_size); ++j)
        b.indices.push_back(mine[start + j < share ? start + j : (start + j - share) % share]);
      start += static_cast<size_t>(s.batch_size);
      plan.push_back(std::move(b));
    }
    // The batch order depends on (seed, epoch) only, not on the rank: every
    // rank steps through the same sizes.
    if (shuffle_) shuffle_with(&plan, seed_, epoch, 0x6d736362ULL /* "mscb" */);
    return plan;
  }

  std::vector<size_t> epoch_indices(size_t n, int epoch) override {
    std::vector<size_t> all;
    for (const BatchPlan& b : epoch_batches(n, epoch, 1, false)) all.insert(all.end(), b.indices.begin(), b.indices.end());
    return all;
  }

 private:
  std::vector<ScaleBatch> scales_;
  bool shuffle_;
  uint64_t seed_;
  size_t rank_, world_;
};

}  // namespace

MultiScaleSamplerSpec multi_scale_sampler_from_yaml(const YAML::Node& node, const std::string& path) {
  if (!node.IsMap()) throw UsageError("config key '" + path + "': expected a map with name: MultiScaleSampler");
  const YAML::Node name = y::at(node, path, "name");
  const std::string n = present(name) ? y::string(name, path + ".name") : "";
  if (n != "MultiScaleSampler")
    throw UsageError("config key '" + path + ".name': '" + n + "' is not supported; the recognition sampler is "
                     "MultiScaleSampler (or leave " + path + " out)");
  MultiScaleSamplerSpec spec;
  const YAML::Node scales = y::at(node, path, "scales");
  if (!present(scales) || !scales.IsSequence() || scales.size() == 0)
    throw UsageError("config key '" + path + ".scales' is required: a list of [width, height], e.g. "
                     "[[320, 32], [320, 48], [320, 64]]");
  for (size_t i = 0; i < scales.size(); ++i)
    spec.scales.push_back(parse_scale(scales[i], path + ".scales[" + std::to_string(i) + "]"));
  if (present(y::at(node, path, "first_bs"))) spec.first_bs = positive(node["first_bs"], path + ".first_bs");
  if (present(y::at(node, path, "fix_bs"))) spec.fix_bs = y::boolean(node["fix_bs"], path + ".fix_bs");
  if (present(y::at(node, path, "is_training")))
    spec.is_training = y::boolean(node["is_training"], path + ".is_training");
  const YAML::Node f = y::at(node, path, "divided_factor");
  if (present(f)) {
    const std::string key = path + ".divided_factor";
    if (!f.IsSequence() || f.size() != 2) throw UsageError("config key '" + key + "': expected [width, height], e.g. [8, 16]");
    spec.divided_width = positive(f[0], key + "[0]");
    spec.divided_height = positive(f[1], key + "[1]");
  }
  // Used by PaddleOCR only with MultiScaleDataSet.ds_width (refused there).
  for (const char* unused : {"ratio_wh", "max_w"})
    if (present(y::at(node, path, unused))) y::number(node[unused], path + "." + unused);
  return spec;
}

std::vector<ScaleBatch> multi_scale_batches(const MultiScaleSamplerSpec& spec) {
  if (spec.scales.empty()) throw Error("MultiScaleSampler: no scales");
  const auto& base = spec.scales.front();
  if (!spec.is_training) return {{base.width, base.height, spec.first_bs}};
  const double base_elements = static_cast<double>(base.width) * base.height * spec.first_bs;
  std::vector<ScaleBatch> out;
  for (const auto& s : spec.scales) {
    ScaleBatch b;
    b.width = s.width / spec.divided_width * spec.divided_width;
    b.height = s.height / spec.divided_height * spec.divided_height;
    if (b.width <= 0 || b.height <= 0)
      throw UsageError("MultiScaleSampler: scale [" + std::to_string(s.width) + ", " + std::to_string(s.height) +
                       "] is smaller than divided_factor [" + std::to_string(spec.divided_width) + ", " +
                       std::to_string(spec.divided_height) + "]");
    b.batch_size = spec.fix_bs ? spec.first_bs
                               : std::max(1, static_cast<int>(base_elements / (static_cast<double>(b.width) * b.height)));
    out.push_back(b);
  }
  return out;
}

std::shared_ptr<Sampler> make_multi_scale_sampler(const MultiScaleSamplerSpec& spec, uint64_t seed, int rank,
                                                  int world_size) {
  if (world_size < 1 || rank < 0 || rank >= world_size)
    throw Error("MultiScaleSampler: rank " + std::to_string(rank) + " is outside 0.." + std::to_string(world_size - 1));
  multi_scale_batches(spec);  // validates
  return std::make_shared<MultiScaleSampler>(spec, seed, rank, world_size);
}

}  // namespace ocrforge
