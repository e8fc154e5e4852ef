// BatchLoader and stack_collate with a task-free toy dataset: the loader
// knows nothing of recognition or detection.
#include "ocrforge/train/data/batch_loader.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"

using namespace ocrforge;

namespace {

// Sample i: "x" = [i, random draw from the seed], "y" = 2 x i, extra = i.
class ToyDataset : public Dataset {
 public:
  explicit ToyDataset(size_t n, bool ragged = false) : n_(n), ragged_(ragged) {}
  size_t size() const override { return n_; }
  Sample load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const override {
    DataRng rng(rng_seed);
    Sample s;
    const int64_t len = ragged_ && index % 2 ? 3 : 2;
    s.tensors["x"] = torch::zeros({len});
    s.tensors["x"][0] = static_cast<float>(index);
    s.tensors["x"][1] = static_cast<float>(rng.uniform());
    s.tensors["y"] = torch::full({2, 2}, static_cast<float>(2 * index));
    s.path = "img_" + std::to_string(index);
    s.extra = static_cast<int>(index);
    if (stats) stats->other["toy loads"] += 1;
    return s;
  }

 private:
  size_t n_;
  bool ragged_;
};

std::vector<Batch> epoch_of(int workers, size_t n = 10, int batch = 3) {
  LoaderSpec spec;
  spec.batch_size = batch;
  spec.num_workers = workers;
  spec.drop_last = false;
  BatchLoader loader(std::make_shared<ToyDataset>(n), spec, 7);
  loader.start_epoch(1);
  std::vector<Batch> out;
  Batch b;
  while (loader.next(&b)) out.push_back(b);
  EXPECT_EQ(loader.stats().other.at("toy loads"), static_cast<long>(n));
  return out;
}

}  // namespace

TEST(BatchLoader, StacksNamedTensorsAndKeepsExtrasInOrder) {
  const auto batches = epoch_of(0);
  ASSERT_EQ(batches.size(), 4u);  // 3 + 3 + 3 + 1
  EXPECT_EQ(batches[3].size(), 1u);
  const Batch& b = batches[0];
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b.at("x").sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(b.at("y").sizes(), (std::vector<int64_t>{3, 2, 2}));
  for (size_t i = 0; i < b.size(); ++i) {
    const int index = std::any_cast<int>(b.extras[i]);
    EXPECT_EQ(b.paths[i], "img_" + std::to_string(index));
    EXPECT_EQ(b.at("x")[static_cast<int64_t>(i)][0].item<float>(), static_cast<float>(index));
    EXPECT_EQ(b.at("y")[static_cast<int64_t>(i)][1][1].item<float>(), static_cast<float>(2 * index));
  }
  EXPECT_THROW(b.at("z"), Error);
}

TEST(BatchLoader, SameBatchesForAnyNumberOfWorkers) {
  const auto a = epoch_of(0), b = epoch_of(3);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(torch::equal(a[i].at("x"), b[i].at("x"))) << "batch " << i;
    EXPECT_EQ(a[i].paths, b[i].paths);
  }
}

TEST(BatchLoader, MismatchedShapesNameTheTensorAndBothSamples) {
  LoaderSpec spec;
  spec.batch_size = 2;
  spec.shuffle = false;
  BatchLoader loader(std::make_shared<ToyDataset>(4, /*ragged=*/true), spec, 7);
  Batch b;
  try {
    loader.next(&b);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'x'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("img_1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("img_0"), std::string::npos) << msg;
  }
}
