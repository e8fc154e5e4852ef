#include "ocrforge/infer/text_detector.h"

#include "ocrforge/infer/checkpoint_networks.h"

#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/vision/box_order.h"
#include "ocrforge/vision/db_postprocess.h"
#include "ocrforge/vision/det_resize.h"
#include "ocrforge/infer/image_reader.h"

namespace ocrforge {

// int8 calibration inputs: the images of <dir>/det at the default resize
// (limit 960, max), so the cached model does not depend on the flags.
static std::vector<CalibrationInput> det_calibration(const std::string& dir) {
  std::vector<CalibrationInput> inputs;
  for (const std::string& path : list_images(dir + "/det")) {
    const LoadedImage img = read_image(path);
    DetInput in = det_preprocess(img.bgr, DetResizeParams{});
    inputs.push_back({std::move(in.chw), {1, 3, in.size.height, in.size.width}});
  }
  return inputs;
}

static bool dim_is(int64_t d, int64_t want) { return d == want || d < 0; }

TextDetector::TextDetector(const DetParams& params, const RuntimeParams& runtime)
    : params_(params), model_(open_network(params.model_dir, runtime, "det", "--det_model_dir", det_calibration)) {
  const auto& in = model_->input_shape();
  const auto& out = model_->output_shape();
  if (in.size() != 4 || !dim_is(in[1], 3) || out.size() != 4 || !dim_is(out[1], 1))
    throw Error("'" + model_->path() + "' is not a text detection (DB) model: input " + shape_to_string(in) +
                ", output " + shape_to_string(out) +
                " (expected N x 3 x H x W -> N x 1 x H x W); check --det_model_dir");
}

std::vector<TextBox> TextDetector::detect(const cv::Mat& bgr) { return detect(bgr, params_.resize, params_.post); }

std::vector<TextBox> TextDetector::detect(const cv::Mat& bgr, const DetResizeParams& resize, const DbPostParams& post) {
  StageStats call;
  Stopwatch sw;
  // Kept buffers: a fresh input buffer per image is paged in anew each time
  // once glibc serves it by mmap (after large frees, --visualize, document
  // pages, serve's 1 MiB threshold), which made this stage several times slower.
  std::unique_ptr<Scratch> scratch = take_scratch();
  struct Return {
    TextDetector* self;
    std::unique_ptr<Scratch>& s;
    ~Return() { self->give_back_scratch(std::move(s)); }
  } give_back{this, scratch};
  DetInput& input = scratch->input;
  det_preprocess_into(bgr, resize, input, scratch->resized);
  call.preprocess_ms = sw.elapsed_ms();

  TensorView out = model_->run(input.chw.data(), {1, 3, input.size.height, input.size.width}, &call.inference_ms);

  sw.reset();
  if (out.shape.size() != 4 || out.shape[2] != input.size.height || out.shape[3] != input.size.width)
    throw Error("det model '" + model_->path() + "' returned " + shape_to_string(out.shape) + " for input " +
                std::to_string(input.size.height) + "x" + std::to_string(input.size.width) +
                ": not a DB shrink map; check --det_model_dir");
  // Wrap ORT's buffer without copying; db_postprocess only reads it.
  cv::Mat prob(input.size.height, input.size.width, CV_32F, const_cast<float*>(out.data));
  std::vector<TextBox> boxes = db_postprocess(prob, bgr.size(), post);
  boxes = filter_det_boxes(std::move(boxes), bgr.size());
  call.postprocess_ms = sw.elapsed_ms();
  call.calls = 1;
  call.images = 1;
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ += call;
  return boxes;
}

namespace {
// Buffers above this (floats; 128 MiB, about a 4000 x 2800 input) are not kept, so
// a rare huge input does not hold its memory for the process's life.
constexpr size_t kMaxKeptFloats = size_t{32} << 20;
// At most this many kept buffer sets (pipelined runs detect on one thread;
// a server's concurrent requests beyond it allocate as before).
constexpr size_t kMaxKeptScratch = 2;
}  // namespace

std::unique_ptr<TextDetector::Scratch> TextDetector::take_scratch() {
  std::lock_guard<std::mutex> lock(scratch_mutex_);
  if (scratch_.empty()) return std::make_unique<Scratch>();
  std::unique_ptr<Scratch> s = std::move(scratch_.back());
  scratch_.pop_back();
  return s;
}

void TextDetector::give_back_scratch(std::unique_ptr<Scratch> s) {
  if (!s || s->input.chw.capacity() > kMaxKeptFloats) return;
  std::lock_guard<std::mutex> lock(scratch_mutex_);
  if (scratch_.size() < kMaxKeptScratch) scratch_.push_back(std::move(s));
}

StageStats TextDetector::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

void TextDetector::reset_stats() {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ = {};
}

}  // namespace ocrforge
