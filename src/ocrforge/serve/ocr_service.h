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
  std::string bytes;  // a file's bytes: an image, or (where PageRules allow) a PDF / multi-page TIFF
  std::string name;   // for messages: "file", "images[2]", "request body"
};

// What a route takes, and how a document's pages are read. Every input goes
// through the library's document layer (DocumentInputs, document_inputs.h):
// a PDF or TIFF is spooled to a private temporary file removed after the
// request, and pages are decoded one at a time under the pixel budget.
struct PageRules {
  enum class Accept {
    image,        // one image per input (PaddleHub, /v1/ocr): a PDF is 415, a TIFF of several pages 400
    image_pages,  // PaddleX fileType 1: an image; a multi-page TIFF gives its pages; a PDF is 422 (fileType 0)
    pdf,          // PaddleX fileType 0: a PDF's pages; anything else is 422 (fileType 1)
  };
  Accept accept = Accept::image;
  int max_pages = 0;  // image_pages / pdf: the first N pages are read, the rest dropped (0: all)
};

// What one input turned out to be.
struct InputPages {
  enum class Type { image, pdf, tiff };
  Type type = Type::image;
  int pages = 0;            // pages read
  bool more_pages = false;  // it has pages past PageRules::max_pages, not read
};

struct ImageOutcome {
  LoadedImage image;  // kept only when asked (visualisation); .original: the page's size
  OcrResult result;   // coordinates in file pixels
  std::string ocr_image, input_image;  // filled by a `finish` step (Base64 JPEGs)
  int input = 0;  // the input this page is of (index in the request)
  int page = 0;   // 0-based page in that input
};

struct ReadResult {
  std::vector<ImageOutcome> pages;  // the inputs in order, each one's pages in order
  std::vector<InputPages> inputs;   // one per input
};

class OcrService {
 public:
  // Loads the models (throws Error on a missing or unfit model) and starts
  // options.max_concurrency workers. `metrics` must outlive the service;
  // the service declares its metrics in it (ocrforge_images_total, ...).
  OcrService(const OcrParams& params, const ServeParams& options, MetricsRegistry& metrics);
  ~OcrService();

  // Reads `inputs` (one after the other, one page at a time, on one
  // worker; opening a document happens there too) with `settings`, waiting
  // until `deadline`; a document's remaining pages are not started once it
  // has passed. Throws HttpError: 503 (+Retry-After) when the queue is full
  // or the deadline passes before a worker took it; 504 when it passes
  // while running; 413 an image or page over the pixel limit; 400 an image,
  // PDF or page that cannot be read; 415 / 422 / 400 an input `rules` do
  // not take; 500 a model failure. `finish`, when given, runs on the worker
  // after each page (drawing a visualisation counts against the
  // concurrency limit too).
  ReadResult read(std::vector<ImageInput> inputs, const RunParams& settings, const PageRules& rules, bool keep_images,
                  std::chrono::steady_clock::time_point deadline, std::function<void(ImageOutcome&)> finish = nullptr);

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
