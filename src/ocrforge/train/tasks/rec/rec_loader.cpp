#include "ocrforge/train/tasks/rec/rec_loader.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

RecTrainBatch to_rec_batch(Batch&& b) {
  RecTrainBatch r;
  r.images = b.at("image");
  r.labels = b.at("label");
  r.lengths = b.at("length");
  r.valid_ratios = b.at("valid_ratio");
  r.texts = std::move(b.texts);
  r.paths = std::move(b.paths);
  return r;
}

static std::shared_ptr<RecDataset> checked(std::shared_ptr<RecDataset> d) {
  if (!d) throw Error("RecDataLoader: no dataset");
  return d;
}

RecDataLoader::RecDataLoader(std::shared_ptr<RecDataset> dataset, LoaderSpec spec, uint64_t seed,
                             std::shared_ptr<Sampler> sampler)
    : dataset_(checked(std::move(dataset))), loader_(dataset_, spec, seed, std::move(sampler)) {}

RecDataLoader::~RecDataLoader() = default;

void RecDataLoader::start_epoch(int epoch) { loader_.start_epoch(epoch); }

bool RecDataLoader::next(RecTrainBatch* batch) {
  Batch b;
  if (!loader_.next(&b)) return false;
  *batch = to_rec_batch(std::move(b));
  return true;
}

size_t RecDataLoader::batches_per_epoch() const { return loader_.batches_per_epoch(); }
DataStats RecDataLoader::stats() const { return loader_.stats(); }
double RecDataLoader::reader_wait_ms() const { return loader_.reader_wait_ms(); }
void RecDataLoader::reset_reader_wait() { loader_.reset_reader_wait(); }

}  // namespace ocrforge
