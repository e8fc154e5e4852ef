#include "ocrforge/infer/ocr_stream.h"

#include <exception>
#include <optional>
#include <thread>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/bounded_queue.h"
#include "ocrforge/infer/byte_budget.h"
#include "ocrforge/vision/box_order.h"
#include "ocrforge/vision/crop.h"

namespace ocrforge {

namespace {

// One image on its way through the stages.
struct Work {
  StreamResult out;
  std::vector<TextBox> boxes;
  std::vector<cv::Mat> crops;
  std::vector<ClsResult> cls;
  Stopwatch since_decode;
  size_t image_bytes = 0;  // taken from the ByteBudget, given back after the sink
};

RuntimeParams with_threads(RuntimeParams rt, int threads) {
  if (threads > 0) rt.cpu_threads = threads;
  return rt;
}

// The detection half of OcrPipeline::run: detect, reading order, crops, cls.
void detect_stage(Work& w, TextDetector& det, TextClassifier* cls) {
  const cv::Mat& bgr = w.out.image.bgr;
  Stopwatch sw;
  w.boxes = det.detect(bgr);
  sort_boxes(w.boxes);
  w.out.result.det_ms = sw.elapsed_ms();
  w.crops.reserve(w.boxes.size());
  for (const auto& b : w.boxes) w.crops.push_back(rotate_crop(bgr, b.quad));
  if (cls && !w.crops.empty()) {
    sw.reset();
    w.cls = cls->classify(w.crops);
    w.out.result.cls_ms = sw.elapsed_ms();
  }
}

// The recognition half: rec, then the lines as OcrPipeline::run assembles them.
void recognize_stage(Work& w, TextRecognizer& rec, const OcrParams& params, bool keep_crops) {
  const float drop_score = params.drop_score;
  Stopwatch sw;
  const std::vector<RecText> texts = w.crops.empty() ? std::vector<RecText>{} : rec.recognize(w.crops);
  OcrResult& r = w.out.result;
  r.rec_ms = sw.elapsed_ms();
  const float s = w.out.image.scale;
  r.image_size = cv::Size(static_cast<int>(w.out.image.bgr.cols * s), static_cast<int>(w.out.image.bgr.rows * s));
  for (size_t i = 0; i < w.boxes.size(); ++i) {
    OcrLine line;
    line.box = w.boxes[i].quad;
    line.polygon = w.boxes[i].polygon;
    line.det_score = w.boxes[i].score;
    line.text = texts[i].text;
    line.score = texts[i].score;
    if (!w.cls.empty()) {
      line.cls_label = w.cls[i].label;
      line.cls_score = w.cls[i].score;
    }
    if (params.word_boxes) line.words = line_words(texts[i], line.box, !w.cls.empty() && w.cls[i].rotated);
    if (keep_crops) line.crop = w.crops[i];
    scale_line(line, s);
    r.detected.push_back(line);
    if (line.score >= drop_score) r.lines.push_back(std::move(line));
  }
  w.crops.clear();
  w.boxes.clear();
}

// Runs `fn` on one work item; an exception fails that image only, with a
// message that names the file once.
template <typename Fn>
void guarded(Work& w, Fn&& fn) {
  if (!w.out.error.empty()) return;
  std::string what;
  try {
    fn();
    return;
  } catch (const std::bad_alloc&) {
    what = "out of memory while processing it (try a smaller image limit, e.g. --max_image_pixels)";
  } catch (const std::exception& e) {
    what = e.what();
  }
  // Reading errors name the image already; others (OpenCV, ORT) do not.
  w.out.error = what.find(w.out.path) != std::string::npos ? what : "image '" + w.out.path + "': " + what;
}

}  // namespace

OcrStream::OcrStream(const OcrParams& params, StreamParams options)
    : params_(params),
      options_(options),
      det_(std::make_unique<TextDetector>(params.det, with_threads(params.runtime, options.det_threads))),
      cls_(params.use_angle_cls
               ? std::make_unique<TextClassifier>(params.cls, with_threads(params.runtime, options.det_threads))
               : nullptr),
      rec_(std::make_unique<TextRecognizer>(params.rec, with_threads(params.runtime, options.rec_threads))) {}

OcrStream::~OcrStream() = default;

void OcrStream::run(const std::vector<std::string>& paths, const std::function<void(StreamResult&&)>& sink) {
  const size_t depth = options_.queue_depth;
  BoundedQueue<Work> decoded(depth), detected(depth), done(depth);
  ByteBudget budget(options_.image_bytes_in_flight);
  const int max_side = params_.det.resize.max_side_limit;

  // Each stage is one thread and the queues are FIFO, so items leave every
  // stage in input order: no reordering is needed.
  std::thread decoder([&] {
    for (size_t i = 0; i < paths.size(); ++i) {
      Work w;
      w.out.index = i;
      w.out.path = paths[i];
      guarded(w, [&] { w.out.image = options_.decode ? options_.decode(paths[i]) : read_image(paths[i], max_side); });
      w.image_bytes = w.out.image.bgr.total() * w.out.image.bgr.elemSize();
      if (!budget.take(w.image_bytes) || !decoded.push(std::move(w))) return;
    }
    decoded.close();
  });
  std::thread detector([&] {
    while (auto w = decoded.pop()) {
      guarded(*w, [&] { detect_stage(*w, *det_, cls_.get()); });
      if (!detected.push(std::move(*w))) return;
    }
    detected.close();
  });
  std::thread recognizer([&] {
    while (auto w = detected.pop()) {
      guarded(*w, [&] { recognize_stage(*w, *rec_, params_, options_.keep_crops); });
      if (!done.push(std::move(*w))) return;
    }
    done.close();
  });

  std::exception_ptr failure;
  try {
    while (auto w = done.pop()) {
      w->out.ok = w->out.error.empty();
      if (w->out.ok) w->out.result.total_ms = w->since_decode.elapsed_ms();
      sink(std::move(w->out));
      budget.give_back(w->image_bytes);
    }
  } catch (...) {
    failure = std::current_exception();
    budget.cancel();
    decoded.cancel();
    detected.cancel();
    done.cancel();
  }
  decoder.join();
  detector.join();
  recognizer.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace ocrforge
