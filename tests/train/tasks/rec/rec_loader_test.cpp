// RecDataLoader: shapes, counts, order, determinism across workers,
// replacement of bad samples, reader-wait accounting.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/tasks/rec/rec_loader.h"
#include "rec_data_fixtures.h"

namespace ocrforge {
namespace {

LoaderSpec spec(int batch, bool shuffle, bool drop_last, int workers) {
  LoaderSpec s;
  s.batch_size = batch;
  s.shuffle = shuffle;
  s.drop_last = drop_last;
  s.num_workers = workers;
  return s;
}

std::vector<RecTrainBatch> epoch(RecDataLoader& loader, int e) {
  loader.start_epoch(e);
  std::vector<RecTrainBatch> out;
  RecTrainBatch b;
  while (loader.next(&b)) out.push_back(b);
  return out;
}

void expect_equal(const std::vector<RecTrainBatch>& a, const std::vector<RecTrainBatch>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(torch::equal(a[i].images, b[i].images)) << "batch " << i;
    EXPECT_TRUE(torch::equal(a[i].labels, b[i].labels)) << "batch " << i;
    EXPECT_TRUE(torch::equal(a[i].lengths, b[i].lengths)) << "batch " << i;
    EXPECT_TRUE(torch::equal(a[i].valid_ratios, b[i].valid_ratios)) << "batch " << i;
    EXPECT_EQ(a[i].texts, b[i].texts);
    EXPECT_EQ(a[i].paths, b[i].paths);
  }
}

TEST(RecDataLoader, BatchShapesAndContents) {
  RecDataLoader loader(test::toy_dataset(false), spec(4, false, false, 0), 1024);
  const auto batches = epoch(loader, 0);
  ASSERT_EQ(batches.size(), 3u);
  const RecTrainBatch& b = batches[0];
  EXPECT_EQ(b.images.sizes(), (std::vector<int64_t>{4, 3, 48, 320}));
  EXPECT_EQ(b.images.scalar_type(), torch::kFloat32);
  EXPECT_EQ(b.labels.sizes(), (std::vector<int64_t>{4, 25}));
  EXPECT_EQ(b.labels.scalar_type(), torch::kInt64);
  EXPECT_EQ(b.lengths.sizes(), (std::vector<int64_t>{4}));
  EXPECT_EQ(b.valid_ratios.sizes(), (std::vector<int64_t>{4}));
  EXPECT_LE(b.images.max().item<float>(), 1.0f);
  EXPECT_GE(b.images.min().item<float>(), -1.0f);
  // Sequential order: the label file's order. GRAND = G R A N D.
  EXPECT_EQ(b.texts[0], "GRAND");
  EXPECT_EQ(b.lengths[0].item<int64_t>(), 5);
  const Charset cs = test::toy_charset();
  EXPECT_EQ(b.labels[0][0].item<int64_t>(), cs.index_of("G"));
  EXPECT_EQ(b.labels[0][5].item<int64_t>(), 0);  // padding
  // Right of the resized width the image is zero-padded.
  const float ratio = b.valid_ratios[0].item<float>();
  const int64_t w = static_cast<int64_t>(ratio * 320);
  EXPECT_EQ(b.images[0].narrow(2, w, 320 - w).abs().max().item<float>(), 0.0f);
  EXPECT_EQ(batches[2].images.size(0), 2);  // 10 = 4 + 4 + 2
}

TEST(RecDataLoader, DropLastCounts) {
  for (int workers : {0, 2}) {
    RecDataLoader keep(test::toy_dataset(false), spec(4, false, false, workers), 1);
    EXPECT_EQ(keep.batches_per_epoch(), 3u);
    EXPECT_EQ(epoch(keep, 0).size(), 3u);
    RecDataLoader drop(test::toy_dataset(false), spec(4, false, true, workers), 1);
    EXPECT_EQ(drop.batches_per_epoch(), 2u);
    const auto b = epoch(drop, 0);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[1].images.size(0), 4);
    RecDataLoader too_big(test::toy_dataset(false), spec(16, false, true, workers), 1);
    EXPECT_EQ(too_big.batches_per_epoch(), 0u);
    EXPECT_TRUE(epoch(too_big, 0).empty());
  }
}

TEST(ShuffleSampler, OrderDependsOnSeedAndEpochOnly) {
  auto a = make_shuffle_sampler(5), b = make_shuffle_sampler(5), c = make_shuffle_sampler(6);
  const auto a1 = a->epoch_indices(50, 1);
  b->epoch_indices(50, 0);  // history does not matter
  EXPECT_EQ(b->epoch_indices(50, 1), a1);
  EXPECT_NE(a->epoch_indices(50, 2), a1);
  EXPECT_NE(c->epoch_indices(50, 1), a1);
  std::vector<size_t> sorted = a1;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);  // a permutation
  EXPECT_EQ(make_sequential_sampler()->epoch_indices(3, 7), (std::vector<size_t>{0, 1, 2}));
}

TEST(RecDataLoader, ResumedEpochEqualsTheUninterruptedOne) {
  // 2 epochs straight == a fresh loader (as after a resume) running epoch 1.
  RecDataLoader straight(test::toy_dataset(true), spec(3, true, true, 0), 77);
  epoch(straight, 0);
  const auto second = epoch(straight, 1);
  RecDataLoader resumed(test::toy_dataset(true), spec(3, true, true, 2), 77);
  expect_equal(epoch(resumed, 1), second);
  RecDataLoader other_seed(test::toy_dataset(true), spec(3, true, true, 0), 78);
  EXPECT_NE(epoch(other_seed, 1)[0].paths, second[0].paths);
}

TEST(RecDataLoader, IdenticalBatchesFor0And1And3Workers) {
  // Training mode: shuffle and RecAug on, so any order or RNG leak would show.
  std::vector<std::vector<RecTrainBatch>> runs;
  for (int workers : {0, 1, 3}) {
    RecDataLoader loader(test::toy_dataset(true), spec(3, true, false, workers), 1024);
    auto e0 = epoch(loader, 0);
    auto e1 = epoch(loader, 1);
    e0.insert(e0.end(), e1.begin(), e1.end());
    runs.push_back(std::move(e0));
  }
  expect_equal(runs[0], runs[1]);
  expect_equal(runs[0], runs[2]);
}

TEST(RecDataLoader, RestartingAnEpochMidwayStartsOver) {
  RecDataLoader loader(test::toy_dataset(true), spec(2, true, true, 3), 9);
  loader.start_epoch(0);
  RecTrainBatch first, b;
  ASSERT_TRUE(loader.next(&first));
  ASSERT_TRUE(loader.next(&b));
  const auto full = epoch(loader, 0);  // workers restarted, prefetched batches dropped
  ASSERT_EQ(full.size(), 5u);
  EXPECT_TRUE(torch::equal(full[0].images, first.images));
}

// rec_toy plus broken entries: a missing image, an undecodable file, a
// too-long label, a label with only unknown characters. Each is followed by a
// good line, so in evaluation (replace by the next sample) each failure
// happens exactly once per epoch.
std::shared_ptr<RecDataset> broken_dataset(bool training) {
  const std::string dir = test::fresh_dir("loader_broken");
  test::write_text(dir + "/not_an_image.jpg", "garbage");
  const std::vector<std::string> bad = {"imgs/missing.jpg\tLOST", dir + "/not_an_image.jpg\tBROKEN",
                                        "imgs/1223731.jpg\tTHIS_LABEL_IS_FAR_TOO_LONG_FOR_25", "imgs/1223731.jpg\t???"};
  std::string labels;
  size_t i = 0;
  for (const auto& line : split(test::read_text(test::rec_toy_labels()), '\n')) {
    if (line.empty()) continue;
    labels += line + "\n";
    if (i < bad.size()) labels += bad[i++] + "\n";
  }
  labels += "imgs/1223733.jpg\tHO?TEL\n";  // '?' unknown: dropped, counted, sample kept
  test::write_text(dir + "/labels.txt", labels);
  RecLabelListSpec list;
  list.data_dir = test::rec_toy_dir();
  list.label_file_list = {dir + "/labels.txt"};
  return std::make_shared<RecDataset>(list, test::toy_transforms(training), training);
}

TEST(RecDataLoader, BadSamplesAreReplacedAndCountedNeverThrown) {
  for (int workers : {0, 2}) {
    RecDataLoader loader(broken_dataset(false), spec(5, false, false, workers), 1);
    std::vector<RecTrainBatch> batches;
    ASSERT_NO_THROW(batches = epoch(loader, 0));
    ASSERT_EQ(batches.size(), 3u);  // 15 entries
    size_t samples = 0;
    for (const auto& b : batches) {
      samples += b.paths.size();
      for (const auto& p : b.paths) EXPECT_EQ(p.find("missing.jpg"), std::string::npos);
      for (const auto& t : b.texts) EXPECT_NE(t, "LOST");
    }
    EXPECT_EQ(samples, 15u);  // every slot filled by a replacement
    const DataStats s = loader.stats();
    EXPECT_EQ(s.missing_images, 1);
    EXPECT_EQ(s.undecodable, 1);
    EXPECT_EQ(s.too_long, 1);
    EXPECT_EQ(s.empty_label, 1);
    EXPECT_EQ(s.dropped_chars, 3 + 1);  // "???" and the '?' of HO?TEL
    EXPECT_EQ(s.replaced(), 4);
    EXPECT_EQ(batches[2].texts.back(), "HOTEL");
  }
  // Training: random replacement, still deterministic across worker counts.
  RecDataLoader a(broken_dataset(true), spec(5, true, false, 0), 3), b(broken_dataset(true), spec(5, true, false, 3), 3);
  expect_equal(epoch(a, 0), epoch(b, 0));
  EXPECT_EQ(a.stats().replaced(), b.stats().replaced());
  EXPECT_GE(a.stats().replaced(), 4);
}

TEST(RecDataLoader, AWhollyBrokenDataSetFailsWithAClearError) {
  RecTransformSpec t = test::toy_transforms(false);
  auto ds = std::make_shared<RecDataset>(std::vector<RecLabel>{{"/nonexistent/a.jpg", "A"}, {"/nonexistent/b.jpg", "B"}},
                                         t, true);
  for (int workers : {0, 2}) {
    RecDataLoader loader(ds, spec(2, false, false, workers), 1);
    loader.start_epoch(0);
    RecTrainBatch b;
    try {
      loader.next(&b);
      FAIL() << "expected an Error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("failed to load"), std::string::npos) << e.what();
    }
  }
}

TEST(RecDataLoader, ReaderWaitAccounting) {
  RecDataLoader loader(test::toy_dataset(true), spec(5, true, true, 0), 1);
  EXPECT_EQ(loader.reader_wait_ms(), 0.0);
  epoch(loader, 0);
  const double after_epoch = loader.reader_wait_ms();
  EXPECT_GT(after_epoch, 0.0);  // with 0 workers, next() does the loading
  loader.reset_reader_wait();
  EXPECT_EQ(loader.reader_wait_ms(), 0.0);
  loader.start_epoch(1);
  RecTrainBatch b;
  ASSERT_TRUE(loader.next(&b));
  EXPECT_GT(loader.reader_wait_ms(), 0.0);
  EXPECT_LT(loader.reader_wait_ms(), after_epoch * 10 + 1000);
}

}  // namespace
}  // namespace ocrforge
