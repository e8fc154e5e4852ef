#include "ocrforge/serve/ocr_service.h"

#include <mutex>

#include "ocrforge/document/document_inputs.h"
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
  ReadResult result;
  int error_status = 0;  // 0: none
  std::string error_message;
};

constexpr const char* kDocumentsRoute = "POST /ocr (PaddleX API) reads PDFs (fileType 0) and multi-page TIFFs page by page";

// The pages of one input, as `rules` take them. Throws HttpError.
std::vector<InputItem> pages_of(DocumentInputs& docs, ImageInput& in, const PageRules& rules, InputPages& info,
                                MetricsRegistry& metrics) {
  using Accept = PageRules::Accept;
  const bool pdf = bytes_look_like_pdf(in.bytes);
  if (pdf && rules.accept == Accept::image)
    throw HttpError(415, in.name + " is a PDF, and this route reads images; " + kDocumentsRoute);
  if (pdf && rules.accept == Accept::image_pages)
    throw HttpError(422, "fileType is 1 (image) but " + in.name + " is a PDF: send fileType 0 for PDFs");
  if (!pdf && rules.accept == Accept::pdf) {
    if (in.bytes.empty()) throw HttpError(400, in.name + " is empty");
    throw HttpError(422, "fileType is 0 (PDF) but " + in.name + " is no PDF (no %PDF- signature in its first 1024 "
                         "bytes): send fileType 1 for images");
  }
  const bool tiff = bytes_look_like_tiff(in.bytes);
  std::vector<InputItem> items;
  try {
    items = docs.expand_bytes(in.name, std::move(in.bytes));
  } catch (const ImageTooLargeError& e) {
    metrics.inc("ocrforge_images_total", {{"outcome", "too_large"}});
    throw HttpError(413, e.what());
  } catch (const Error& e) {
    const std::string what = e.what();
    metrics.inc("ocrforge_images_total", {{"outcome", "undecodable"}});
    // A TIFF over the layer's page cap (DocumentReadParams::max_pages, which
    // names the CLI's flags): said in the server's words.
    if (tiff && what.find("--max_pages") != std::string::npos)
      throw HttpError(400, in.name + " is a TIFF of more than 1000 pages, where one image is read; " + kDocumentsRoute);
    throw HttpError(400, what);
  }
  std::string().swap(in.bytes);
  info.type = items.front().kind == InputItem::Kind::pdf_page    ? InputPages::Type::pdf
              : items.front().kind == InputItem::Kind::tiff_page ? InputPages::Type::tiff
                                                                 : InputPages::Type::image;
  if (rules.accept == Accept::image && items.size() > 1)
    throw HttpError(400, in.name + " is a TIFF of " + std::to_string(items.size()) +
                             " pages, where one image is read; send each page as an image, or: " + kDocumentsRoute);
  if (rules.max_pages > 0 && items.size() > static_cast<size_t>(rules.max_pages)) {
    items.resize(static_cast<size_t>(rules.max_pages));  // never decoded
    info.more_pages = true;
  }
  return items;
}
}  // namespace

ReadResult OcrService::read(std::vector<ImageInput> images, const RunParams& settings, const PageRules& rules,
                            bool keep_images, std::chrono::steady_clock::time_point deadline,
                            std::function<void(ImageOutcome&)> finish) {
  auto state = std::make_shared<TaskState>();
  auto inputs = std::make_shared<std::vector<ImageInput>>(std::move(images));
  const OcrPipeline* pipeline = pipeline_.get();
  MetricsRegistry* metrics = &metrics_;
  const ServeParams opt = options_;
  auto ticket = pool_->submit([=] {
    try {
      DocumentReadParams dp;
      dp.read.max_side = opt.max_side;
      dp.read.max_pixels = opt.max_image_pixels;
      dp.pdf_dpi = opt.pdf_dpi;
      // One image per input: a TIFF's pages are counted up to 1000 (to say
      // how many), none selected. Documents: the first max_pages + 1 are
      // listed, so that "there are more" is known without rendering them.
      dp.max_pages = rules.accept == PageRules::Accept::image ? 1000 : 0;
      dp.page_num = rules.accept != PageRules::Accept::image && rules.max_pages > 0 ? rules.max_pages + 1 : 0;
      DocumentInputs docs(dp);  // its temporary files go with it, when this task ends
      for (size_t i = 0; i < inputs->size(); ++i) {
        ImageInput& in = (*inputs)[i];
        InputPages info;
        const std::vector<InputItem> items = pages_of(docs, in, rules, info, *metrics);
        for (size_t p = 0; p < items.size(); ++p) {
          // The handler has answered 504 by now: the rest would be read for nobody.
          if (p > 0 && std::chrono::steady_clock::now() > deadline)
            throw HttpError(504, "the deadline passed after page " + std::to_string(p) + " of " + in.name);
          LoadedImage img;
          try {
            img = docs.decode(items[p].key);
          } catch (const ImageTooLargeError& e) {
            metrics->inc("ocrforge_images_total", {{"outcome", "too_large"}});
            throw HttpError(413, e.what());
          } catch (const Error& e) {
            metrics->inc("ocrforge_images_total", {{"outcome", "undecodable"}});
            throw HttpError(400, e.what());
          }
          ImageOutcome out;
          out.input = static_cast<int>(i);
          out.page = static_cast<int>(p);
          try {
            out.result = pipeline->run(img.bgr, settings, img.scale);
          } catch (const std::exception& e) {
            metrics->inc("ocrforge_images_total", {{"outcome", "failed"}});
            throw HttpError(500, "OCR failed on " + items[p].key + ": " + e.what());
          }
          metrics->inc("ocrforge_images_total", {{"outcome", "ok"}});
          metrics->inc("ocrforge_text_lines_total", {}, static_cast<double>(out.result.lines.size()));
          metrics->observe("ocrforge_stage_seconds", {{"stage", "det"}}, out.result.det_ms / 1000.0);
          if (settings.use_angle_cls)
            metrics->observe("ocrforge_stage_seconds", {{"stage", "cls"}}, out.result.cls_ms / 1000.0);
          metrics->observe("ocrforge_stage_seconds", {{"stage", "rec"}}, out.result.rec_ms / 1000.0);
          out.image = std::move(img);
          if (finish) finish(out);
          if (!keep_images) out.image.bgr.release();  // the size stays known (dataInfo)
          state->result.pages.push_back(std::move(out));
          ++info.pages;
        }
        state->result.inputs.push_back(info);
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
                             " s; send a smaller image (or fewer pages) or raise --request_timeout");
  }
  if (state->error_status) throw HttpError(state->error_status, state->error_message);
  return std::move(state->result);
}

}  // namespace ocrforge
