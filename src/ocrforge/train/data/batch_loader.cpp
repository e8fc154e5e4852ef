// BatchLoader: worker threads build whole batches into slots keyed by batch
// index; next() takes the slots in index order. Worker w builds batches
// w, w + W, w + 2W, ... and may run at most W * prefetch batches ahead of the
// consumer, which bounds memory without ever blocking the batch next() needs.
#include "ocrforge/train/data/batch_loader.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

namespace {

struct LoadedBatch {
  Batch batch;
  DataStats stats;
};

}  // namespace

struct BatchLoader::Impl {
  const Dataset* dataset = nullptr;
  Collate collate;
  LoaderSpec spec;
  uint64_t seed = 0;
  std::shared_ptr<Sampler> sampler;

  bool started = false;
  int epoch = 0;
  std::vector<BatchPlan> plan;  // this epoch's batches
  size_t num_batches = 0;
  size_t next_batch = 0;      // the batch next() hands out next

  std::mutex mu;
  std::condition_variable cv;
  std::map<size_t, LoadedBatch> ready;  // batch index -> built batch
  bool stop = false;
  std::exception_ptr error;  // the first worker failure, for batch error_batch
  size_t error_batch = 0;
  std::vector<std::thread> workers;

  DataStats stats;
  double wait_ms = 0.0;

  std::vector<BatchPlan> epoch_plan(int e) const {
    return sampler->epoch_batches(dataset->size(), e, static_cast<size_t>(spec.batch_size), spec.drop_last);
  }

  LoadedBatch build(size_t b) const {
    const BatchPlan& p = plan[b];
    LoadedBatch out;
    std::vector<Sample> samples;
    samples.reserve(p.indices.size());
    for (const size_t idx : p.indices) {
      const uint64_t sample_seed = data_seed({seed, static_cast<uint64_t>(epoch), idx});
      samples.push_back(p.height > 0 ? dataset->load_sample_sized(idx, sample_seed, &out.stats, p.height, p.width)
                                     : dataset->load_sample(idx, sample_seed, &out.stats));
    }
    out.batch = collate(samples);
    return out;
  }

  void worker(size_t w, size_t num_workers) {
    const size_t ahead = num_workers * static_cast<size_t>(std::max(1, spec.prefetch_per_worker));
    for (size_t b = w; b < num_batches; b += num_workers) {
      {
        std::unique_lock<std::mutex> lk(mu);
        cv.wait(lk, [&] { return stop || b < next_batch + ahead; });
        if (stop) return;
      }
      LoadedBatch loaded;
      try {
        loaded = build(b);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu);
        if (!error || b < error_batch) {
          error = std::current_exception();
          error_batch = b;
        }
        cv.notify_all();
        return;
      }
      std::lock_guard<std::mutex> lk(mu);
      ready.emplace(b, std::move(loaded));
      cv.notify_all();
    }
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lk(mu);
      stop = true;
    }
    cv.notify_all();
    for (auto& t : workers) t.join();
    workers.clear();
    ready.clear();
    stop = false;
    error = nullptr;
  }
};

BatchLoader::BatchLoader(std::shared_ptr<const Dataset> dataset, LoaderSpec spec, uint64_t seed,
                         std::shared_ptr<Sampler> sampler, Collate collate)
    : dataset_(std::move(dataset)), spec_(spec), impl_(std::make_unique<Impl>()) {
  if (!dataset_) throw Error("BatchLoader: no dataset");
  if (spec_.batch_size < 1) throw Error("BatchLoader: batch_size_per_card must be at least 1");
  if (spec_.num_workers < 0) throw Error("BatchLoader: num_workers must not be negative");
  impl_->dataset = dataset_.get();
  impl_->spec = spec_;
  impl_->collate = collate ? std::move(collate) : Collate(stack_collate);
  impl_->seed = seed;
  impl_->sampler = sampler ? std::move(sampler)
                           : (spec_.shuffle ? make_shuffle_sampler(seed) : make_sequential_sampler());
}

BatchLoader::~BatchLoader() { impl_->stop_workers(); }

void BatchLoader::start_epoch(int epoch) {
  Impl& m = *impl_;
  m.stop_workers();
  m.epoch = epoch;
  m.plan = m.epoch_plan(epoch);
  for (const BatchPlan& b : m.plan) {
    if (b.indices.empty()) throw Error("BatchLoader: the sampler returned an empty batch");
    for (size_t i : b.indices)
      if (i >= dataset_->size()) throw Error("BatchLoader: the sampler returned an index out of range");
  }
  m.num_batches = m.plan.size();
  m.next_batch = 0;
  m.started = true;
  const size_t w = static_cast<size_t>(spec_.num_workers);
  for (size_t i = 0; i < w; ++i) m.workers.emplace_back([&m, i, w] { m.worker(i, w); });
}

bool BatchLoader::next(Batch* batch) {
  Impl& m = *impl_;
  if (!m.started) start_epoch(0);
  if (m.next_batch >= m.num_batches) return false;
  const auto t0 = std::chrono::steady_clock::now();
  LoadedBatch loaded;
  if (m.workers.empty()) {
    loaded = m.build(m.next_batch);
  } else {
    std::unique_lock<std::mutex> lk(m.mu);
    // A failure surfaces when its batch is due, so batches before it still
    // come out, as with 0 workers.
    m.cv.wait(lk, [&] { return m.ready.count(m.next_batch) > 0 || (m.error && m.error_batch <= m.next_batch); });
    auto it = m.ready.find(m.next_batch);
    if (it == m.ready.end()) std::rethrow_exception(m.error);
    loaded = std::move(it->second);
    m.ready.erase(it);
  }
  {
    std::lock_guard<std::mutex> lk(m.mu);
    ++m.next_batch;
  }
  m.cv.notify_all();  // a worker may now run further ahead
  m.stats += loaded.stats;
  *batch = std::move(loaded.batch);
  m.wait_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

size_t BatchLoader::batches_per_epoch() const {
  if (impl_->started) return impl_->num_batches;
  return impl_->epoch_plan(0).size();
}

DataStats BatchLoader::stats() const { return impl_->stats; }
double BatchLoader::reader_wait_ms() const { return impl_->wait_ms; }
void BatchLoader::reset_reader_wait() { impl_->wait_ms = 0.0; }

}  // namespace ocrforge
