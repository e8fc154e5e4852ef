// The OCR behind every API of `ocrforge serve`: one OcrPipeline, loaded once
// and shared read-only by all requests, run on a WorkPool (bounded
// concurrency and queue). Decoding happens on the worker too, so a request
// holds no decoded pixels while it waits.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/serve/metrics.h"
#include "ocrforge/serve/serve_options.h"
#include "ocrforge/serve/work_pool.h"

namespace ocrforge {

struct ImageInput {
  std::string bytes;  // an image file's bytes
  std::string name;   // for messages: "file", "images[2]", "request body"
};

struct ImageOutcome {
  LoadedImage image;  // kept only when asked (visualisation)
  OcrResult result;   // coordinates in file pixels
  std::string ocr_image, input_image;  // filled by a `finish` step (Base64 JPEGs)
};

class OcrService {
 public:
  // Loads the models (throws Error on a missing or unfit model) and starts
  // options.max_concurrency workers. `metrics` must outlive the service;
  // the service declares its metrics in it (ocrforge_images_total, ...).
  OcrService(const OcrParams& params, const ServeParams& options, MetricsRegistry& metrics);
  ~OcrService();

  // Decodes and reads `images` (one after the other, on one worker) with
  // `settings`, waiting until `deadline`. Throws HttpError: 503 (+Retry-After)
  // when the queue is full or the deadline passes before a worker took it;
  // 504 when it passes while running; 413 an image over the pixel limit;
  // 400 an image that cannot be decoded; 500 a model failure. `finish`,
  // when given, runs on the worker after each image (drawing a
  // visualisation counts against the concurrency limit too).
  std::vector<ImageOutcome> read(std::vector<ImageInput> images, const RunParams& settings, bool keep_images,
                                 std::chrono::steady_clock::time_point deadline,
                                 std::function<void(ImageOutcome&)> finish = nullptr);

  const OcrPipeline& pipeline() const { return *pipeline_; }
  const OcrParams& params() const { return pipeline_->params(); }
  const WorkPool& pool() const { return *pool_; }

 private:
  std::unique_ptr<OcrPipeline> pipeline_;
  ServeParams options_;
  MetricsRegistry& metrics_;
  std::unique_ptr<WorkPool> pool_;
};

}  // namespace ocrforge
