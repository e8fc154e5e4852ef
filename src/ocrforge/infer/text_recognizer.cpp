#include "ocrforge/infer/text_recognizer.h"

#include <algorithm>
#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/vision/aspect_order.h"
#include "ocrforge/vision/rec_resize.h"

namespace ocrforge {

static Charset load_charset(const RecParams& p) {
  if (p.char_dict_path.empty())
    throw Error("--rec_char_dict_path is not set and the default dictionary was not found: run scripts/bootstrap.sh");
  return Charset::load(p.char_dict_path, p.use_space_char);
}

TextRecognizer::TextRecognizer(const RecParams& params, const RuntimeParams& runtime)
    : params_(params),
      model_(std::make_unique<OrtModel>(params.model_dir, runtime, "rec", "--rec_model_dir")),
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
  // A static class count lets the dictionary be checked before any image.
  if (out[2] > 0 && out[2] != charset_.num_classes())
    throw Error("dictionary '" + params.char_dict_path + "' does not fit rec model '" + model_->path() +
                "': the model has " + std::to_string(out[2]) + " classes, the dictionary gives " +
                std::to_string(charset_.num_classes()) + " (blank + " +
                std::to_string(charset_.num_classes() - 1 - (params.use_space_char ? 1 : 0)) + " lines" +
                (params.use_space_char ? " + space" : "") +
                "); pass the model's own dictionary with --rec_char_dict_path, or check --use_space_char");
}

std::vector<RecText> TextRecognizer::recognize(const std::vector<cv::Mat>& crops) {
  std::vector<RecText> results(crops.size());
  const std::vector<size_t> order = order_by_aspect_ratio(crops);
  const int h = params_.image_h;
  const int batch_num = std::max(1, params_.batch_num);
  std::vector<float> buffer;
  for (size_t begin = 0; begin < order.size(); begin += static_cast<size_t>(batch_num)) {
    const size_t end = std::min(order.size(), begin + static_cast<size_t>(batch_num));
    Stopwatch sw;
    float max_ratio = static_cast<float>(params_.image_w) / static_cast<float>(h);
    for (size_t i = begin; i < end; ++i) max_ratio = std::max(max_ratio, aspect_ratio(crops[order[i]]));
    const int w = static_cast<int>(static_cast<float>(h) * max_ratio);
    const size_t per = static_cast<size_t>(3) * h * w;
    buffer.assign(per * (end - begin), 0.f);
    for (size_t i = begin; i < end; ++i) rec_resize_normalize(crops[order[i]], h, w, buffer.data() + per * (i - begin));
    stats_.preprocess_ms += sw.elapsed_ms();

    const double before = model_->run_ms();
    TensorView out = model_->run(buffer.data(), {static_cast<int64_t>(end - begin), 3, h, w});
    stats_.inference_ms += model_->run_ms() - before;

    sw.reset();
    if (out.shape.size() != 3 || out.shape[0] != static_cast<int64_t>(end - begin))
      throw Error("rec model '" + model_->path() + "' returned " + shape_to_string(out.shape) +
                  "; expected N x T x classes");
    const int steps = static_cast<int>(out.shape[1]);
    const int classes = static_cast<int>(out.shape[2]);
    for (size_t i = begin; i < end; ++i) {
      const float* probs = out.data + static_cast<size_t>(i - begin) * steps * classes;
      results[order[i]] = ctc_greedy_decode(probs, steps, classes, charset_);
    }
    stats_.postprocess_ms += sw.elapsed_ms();
    stats_.calls += 1;
    stats_.images += static_cast<long>(end - begin);
  }
  return results;
}

}  // namespace ocrforge
