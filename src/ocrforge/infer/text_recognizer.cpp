#include "ocrforge/infer/text_recognizer.h"

#include "ocrforge/infer/checkpoint_networks.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/rec_batching.h"
#include "ocrforge/vision/aspect_order.h"
#include "ocrforge/vision/ctc_lexicon.h"
#include "ocrforge/vision/rec_resize.h"

namespace ocrforge {

static Charset load_charset(const RecParams& p) {
  if (!p.characters.empty()) return Charset::from_chars(p.characters, p.use_space_char);
  if (p.char_dict_path.empty())
    throw Error("--rec_char_dict_path is not set and the default dictionary was not found: run scripts/bootstrap.sh");
  return Charset::load(p.char_dict_path, p.use_space_char);
}

// RecParams::lexicon_path read on its own thread (no future when there is none).
static std::future<Lexicon> start_lexicon(const RecParams& p) {
  if (p.lexicon_path.empty()) return {};
  if (!(p.lexicon_weight >= 0))
    throw UsageError("--rec_lexicon_weight must be >= 0, got " + std::to_string(p.lexicon_weight));
  return std::async(std::launch::async, [path = p.lexicon_path] { return Lexicon::load(path, "--rec_lexicon"); });
}

// workers = RecParams::workers (0: one per cpu_thread); each gets an equal
// share of the intra-op threads, at least one.
static int rec_workers(const RecParams& p, const RuntimeParams& runtime) {
  if (p.workers < 0) throw UsageError("rec workers must be >= 0 (0: one per cpu thread), got " + std::to_string(p.workers));
  return p.workers > 0 ? p.workers : effective_threads(runtime.cpu_threads);
}

static RuntimeParams per_worker(RuntimeParams runtime, int workers) {
  runtime.cpu_threads = std::max(1, effective_threads(runtime.cpu_threads) / workers);
  return runtime;
}

// int8 calibration inputs: the crops of <dir>/rec, each at its own width as
// recognize() feeds it (PaddleOCR's 3 x 48 x 320 shape: the PP-OCR rec models).
static std::vector<CalibrationInput> rec_calibration(const std::string& dir) {
  const int h = RecParams{}.image_h, w = RecParams{}.image_w;
  std::vector<CalibrationInput> inputs;
  for (const std::string& path : list_images(dir + "/rec")) {
    const cv::Mat crop = cap_rec_width(read_image(path).bgr, h);
    const int width = rec_input_width(crop, h, w, 1);
    CalibrationInput in{std::vector<float>(static_cast<size_t>(3) * h * width), {1, 3, h, width}};
    rec_resize_normalize(crop, h, width, in.data.data());
    inputs.push_back(std::move(in));
  }
  return inputs;
}

TextRecognizer::TextRecognizer(const RecParams& params, const RuntimeParams& runtime)
    : params_(params),
      workers_(rec_workers(params, runtime)),
      threads_per_worker_(per_worker(runtime, workers_).cpu_threads),
      lexicon_loading_(start_lexicon(params)),
      model_(open_network(params.model_dir, per_worker(runtime, workers_), "rec", "--rec_model_dir",
                                        rec_calibration)),
      charset_(load_charset(params)) {
  const auto& in = model_->input_shape();
  const auto& out = model_->output_shape();
  if (in.size() != 4 || out.size() != 3)
    throw Error("'" + model_->path() + "' is not a text recognition (CTC) model: input " + shape_to_string(in) +
                ", output " + shape_to_string(out) +
                " (expected N x 3 x H x W -> N x T x classes); check --rec_model_dir");
  if (in[2] > 0 && in[2] != params.image_h)
    throw Error("rec model '" + model_->path() + "' expects input height " + std::to_string(in[2]) +
                " but --rec_image_shape gives " + std::to_string(params.image_h));
  if (in[3] > 0) fixed_width_ = static_cast<int>(in[3]);
  // A static class count lets the dictionary be checked before any image.
  // A model trained without the space class (use_space_char false, e.g.
  // PaddleOCR's built-in 0-9a-z, which its TIPC infer lines pair with
  // ic15_dict.txt and PaddleOCR's default use_space_char true) has exactly
  // the dictionary's lines: every index still decodes to its character, as
  // PaddleOCR decodes it, so the space is dropped with a note, not refused.
  const std::string dict_name = params.characters.empty() ? params.char_dict_path : params.characters_source;
  if (out[2] > 0 && params.use_space_char && out[2] == charset_.num_classes() - 1) {
    RecParams without_space = params;
    without_space.use_space_char = false;
    charset_ = load_charset(without_space);
    params_.use_space_char = false;
    notes_.push_back("rec model '" + model_->path() + "' has no space class: the " + std::to_string(out[2] - 1) +
                     " lines of dictionary '" + dict_name +
                     "' fit it without use_space_char's space, so --use_space_char is ignored (as PaddleOCR "
                     "decodes such a model); pass --use_space_char=False to silence this");
  }
  if (out[2] > 0 && out[2] != charset_.num_classes())
    throw Error("dictionary '" + dict_name + "' does not fit rec model '" + model_->path() +
                "': the model has " + std::to_string(out[2]) + " classes, the dictionary gives " +
                std::to_string(charset_.num_classes()) + " (blank + " +
                std::to_string(charset_.num_classes() - 1 - (params.use_space_char ? 1 : 0)) + " lines" +
                (params.use_space_char ? " + space" : "") +
                "); pass the model's own dictionary with --rec_char_dict_path, or check --use_space_char");
  if (lexicon_loading_.valid()) lexicon_ = std::make_unique<const Lexicon>(lexicon_loading_.get());
}

std::vector<RecText> TextRecognizer::recognize(const std::vector<cv::Mat>& crops) {
  std::vector<RecText> results(crops.size());
  const int h = params_.image_h;
  std::vector<int> widths(crops.size());
  std::vector<float> ratios(crops.size());
  for (size_t i = 0; i < crops.size(); ++i) {
    widths[i] = fixed_width_ > 0 ? fixed_width_
                                 : rec_input_width(crops[i], h, params_.image_w, params_.width_step, params_.min_width);
    ratios[i] = aspect_ratio(crops[i]);
  }
  const std::vector<RecBatch> batches = plan_rec_batches(widths, ratios, params_.batch_num);
  const size_t threads = std::min(batches.size(), static_cast<size_t>(workers_));
  if (threads <= 1) {
    std::vector<float> buffer;
    StageStats call;
    for (const RecBatch& batch : batches) run_batch(crops, batch, buffer, results, call);
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_ += call;
    return results;
  }
  // Each thread takes the next batch until none is left; every batch writes
  // only its own crops' slots of `results`, so no two threads share one.
  std::atomic<size_t> next{0};
  std::mutex merge;
  std::exception_ptr failure;
  const auto work = [&] {
    StageStats local;
    std::vector<float> buffer;
    try {
      for (size_t b; (b = next.fetch_add(1)) < batches.size();) run_batch(crops, batches[b], buffer, results, local);
    } catch (...) {
      next = batches.size();  // the others stop after their current batch
      std::lock_guard<std::mutex> lock(merge);
      if (!failure) failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_ += local;
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();  // the calling thread is one of the workers
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return results;
}

StageStats TextRecognizer::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

void TextRecognizer::reset_stats() {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ = {};
}

void TextRecognizer::run_batch(const std::vector<cv::Mat>& crops, const RecBatch& batch, std::vector<float>& buffer,
                               std::vector<RecText>& results, StageStats& stats) {
  const int h = params_.image_h;
  const size_t n = batch.items.size();
  const int w = batch.width;
  Stopwatch sw;
  const size_t per = static_cast<size_t>(3) * h * w;
  buffer.resize(per * n);  // rec_resize_normalize writes (and zero-pads) every element
  std::vector<float> valid(n);
  for (size_t i = 0; i < n; ++i) valid[i] = rec_resize_normalize(crops[batch.items[i]], h, w, buffer.data() + per * i);
  stats.preprocess_ms += sw.elapsed_ms();

  double run_ms = 0;
  TensorView out = model_->run(buffer.data(), {static_cast<int64_t>(n), 3, h, w}, &run_ms);
  stats.inference_ms += run_ms;

  sw.reset();
  if (out.shape.size() != 3 || out.shape[0] != static_cast<int64_t>(n))
    throw Error("rec model '" + model_->path() + "' returned " + shape_to_string(out.shape) +
                "; expected N x T x classes");
  const int steps = static_cast<int>(out.shape[1]);
  const int classes = static_cast<int>(out.shape[2]);
  for (size_t i = 0; i < n; ++i) {
    const float* probs = out.data + i * static_cast<size_t>(steps) * classes;
    RecText& r = results[batch.items[i]];
    r = ctc_greedy_decode(probs, steps, classes, charset_);
    if (lexicon_) {
      LexiconDecodeOptions o;
      o.weight = params_.lexicon_weight;
      lexicon_correct(probs, steps, classes, charset_, *lexicon_, o, r);
      line_case_correct(probs, steps, classes, charset_, o, r);
    }
    r.content_ratio = valid[i];
  }
  stats.postprocess_ms += sw.elapsed_ms();
  stats.calls += 1;
  stats.images += static_cast<long>(n);
}

}  // namespace ocrforge
