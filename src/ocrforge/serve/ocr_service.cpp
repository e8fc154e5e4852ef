#include "ocrforge/serve/ocr_service.h"

#include <mutex>

#include "ocrforge/serve/http_error.h"

namespace ocrforge {

// Seconds, from a fast text line to a large page on a busy CPU.
static const std::vector<double> kStageBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

OcrService::OcrService(const OcrParams& params, const ServeParams& options, MetricsRegistry& metrics)
    : pipeline_(std::make_unique<OcrPipeline>(params)), options_(options), metrics_(metrics) {
  metrics_.add_counter("ocrforge_images_total", "Images read, by outcome (ok, too_large, undecodable, failed).");
  metrics_.add_counter("ocrforge_text_lines_total", "Text lines returned (recognition score >= drop score).");
  metrics_.add_histogram("ocrforge_stage_seconds", "Time per image in each pipeline stage (det, cls, rec).",
                         kStageBuckets);
  pool_ = std::make_unique<WorkPool>(options.max_concurrency, options.queue_size);
  const WorkPool* pool = pool_.get();
  metrics_.add_callback_gauge("ocrforge_queue_length", "Requests waiting for an OCR worker.",
                              [pool] { return static_cast<double>(pool->queued()); });
  metrics_.add_callback_gauge("ocrforge_ocr_running", "OCR runs in progress.",
                              [pool] { return static_cast<double>(pool->running()); });
}

OcrService::~OcrService() = default;

namespace {
// What one request's task leaves for the waiting handler. A failure is kept
// as plain values, not an exception_ptr: the exception would be freed by
// whichever thread drops it last, through a reference count inside
// libstdc++ that ThreadSanitizer cannot see.
struct TaskState {
  std::vector<ImageOutcome> outcomes;
  int error_status = 0;  // 0: none
  std::string error_message;
};
}  // namespace

std::vector<ImageOutcome> OcrService::read(std::vector<ImageInput> images, const RunParams& settings,
                                           bool keep_images, std::chrono::steady_clock::time_point deadline,
                                           std::function<void(ImageOutcome&)> finish) {
  auto state = std::make_shared<TaskState>();
  auto inputs = std::make_shared<std::vector<ImageInput>>(std::move(images));
  const OcrPipeline* pipeline = pipeline_.get();
  MetricsRegistry* metrics = &metrics_;
  const ServeParams opt = options_;
  auto ticket = pool_->submit([=] {
    try {
      for (ImageInput& in : *inputs) {
        LoadedImage img;
        try {
          img = decode_image(in.bytes, in.name, opt.max_side, opt.max_image_pixels);
        } catch (const ImageTooLargeError& e) {
          metrics->inc("ocrforge_images_total", {{"outcome", "too_large"}});
          throw HttpError(413, e.what());
        } catch (const Error& e) {
          metrics->inc("ocrforge_images_total", {{"outcome", "undecodable"}});
          throw HttpError(400, e.what());
        }
        std::string().swap(in.bytes);  // the decoded pixels replace the file's bytes
        ImageOutcome out;
        try {
          out.result = pipeline->run(img.bgr, settings, img.scale);
        } catch (const std::exception& e) {
          metrics->inc("ocrforge_images_total", {{"outcome", "failed"}});
          throw HttpError(500, "OCR failed on " + in.name + ": " + e.what());
        }
        metrics->inc("ocrforge_images_total", {{"outcome", "ok"}});
        metrics->inc("ocrforge_text_lines_total", {}, static_cast<double>(out.result.lines.size()));
        metrics->observe("ocrforge_stage_seconds", {{"stage", "det"}}, out.result.det_ms / 1000.0);
        if (settings.use_angle_cls) metrics->observe("ocrforge_stage_seconds", {{"stage", "cls"}}, out.result.cls_ms / 1000.0);
        metrics->observe("ocrforge_stage_seconds", {{"stage", "rec"}}, out.result.rec_ms / 1000.0);
        out.image = std::move(img);
        if (finish) finish(out);
        if (!keep_images) out.image.bgr.release();  // the size stays known (dataInfo)
        state->outcomes.push_back(std::move(out));
      }
    } catch (const HttpError& e) {
      state->error_status = e.status();
      state->error_message = e.what();
    } catch (const std::exception& e) {
      state->error_status = 500;
      state->error_message = std::string("internal error: ") + e.what();
    }
  });
  if (!ticket)
    throw HttpError(503, "the server is busy: " + std::to_string(pool_->workers()) + " OCR runs and " +
                             std::to_string(options_.queue_size) + " waiting requests (--max_concurrency, " +
                             "--queue_size); retry later", options_.retry_after_s);
  if (!ticket->wait_until(deadline)) {
    const long s = static_cast<long>(options_.request_timeout.count() / 1000);
    if (ticket->cancel())
      throw HttpError(503, "the request waited --request_timeout=" + std::to_string(s) +
                               " s for an OCR worker and was dropped; the server is busy, retry later",
                      options_.retry_after_s);
    throw HttpError(504, "OCR took longer than --request_timeout=" + std::to_string(s) +
                             " s; send a smaller image or raise --request_timeout");
  }
  if (state->error_status) throw HttpError(state->error_status, state->error_message);
  return std::move(state->outcomes);
}

}  // namespace ocrforge
