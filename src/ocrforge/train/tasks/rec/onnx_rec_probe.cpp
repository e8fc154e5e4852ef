#include "ocrforge/train/tasks/rec/onnx_rec_probe.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

int64_t probe_onnx_rec_classes(OnnxGraphModule& graph, const std::string& logits, const std::string& model_path) {
  torch::NoGradGuard no_grad;
  const bool was_training = graph->is_training();
  graph->eval();
  int64_t classes = -1;
  std::string probe_error;
  for (int64_t height : {48, 32}) {
    try {
      classes = graph->forward(torch::zeros({1, 3, height, 320}), logits).size(-1);
      break;
    } catch (const std::exception& e) {
      probe_error = e.what();
    }
  }
  graph->train(was_training);
  if (classes < 0)
    throw UsageError("Architecture.onnx_model: '" + model_path +
                     "' does not run on a 3 x 48 x 320 or 3 x 32 x 320 image: " + probe_error);
  return classes;
}

void check_dictionary_fits(const Charset& charset, int64_t classes, const std::string& model_path,
                           const std::string& setting) {
  if (classes == charset.num_classes()) return;
  throw UsageError(setting + ": the dictionary gives " + std::to_string(charset.num_classes()) +
                   " classes (blank + characters, + space with use_space_char) but '" + model_path + "' outputs " +
                   std::to_string(classes) + "; use the dictionary the model was trained with, and the same "
                   "use_space_char");
}

}  // namespace ocrforge
