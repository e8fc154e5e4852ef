#include "ocrforge/train/tasks/inference_file_weights.h"

#include <yaml-cpp/yaml.h>

#include <set>

#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"

namespace ocrforge {

bool weights_from_inference_file(const TrainerSpec& o) {
  if (!o.checkpoints.empty()) {
    std::string stored;
    try {
      stored = read_checkpoint_config(o.checkpoints);
    } catch (const std::exception&) {
      return false;  // loading the checkpoint reports what is wrong with it
    }
    const YAML::Node pretrained = YAML::Load(stored)["Global"]["pretrained_model"];
    return pretrained && pretrained.IsScalar() && is_inference_onnx_file(pretrained.Scalar());
  }
  return is_inference_onnx_file(o.pretrained_model);
}

std::string inference_form_info(const std::string& what, const std::string& file) {
  return what + " is built in its inference form (one fused conv per LearnableRepLayer), the form the weights of " +
         file + " have; fine-tuning trains those convolutions";
}

UsageError pretrained_with_onnx_architecture(const std::string& file) {
  return UsageError("Global.pretrained_model '" + file + "': Architecture.algorithm ONNX already names its model "
                    "file (Architecture.onnx_model); leave Global.pretrained_model out");
}

PretrainedReport report_loaded(torch::nn::Module& model, const std::vector<std::string>& loaded) {
  PretrainedReport r;
  r.loaded = loaded;
  const std::set<std::string> got(loaded.begin(), loaded.end());
  for (const auto& [name, t] : model_state(model)) {
    const bool counter = name.size() > 19 && name.compare(name.size() - 19, 19, "num_batches_tracked") == 0;
    if (!counter && !got.count(name)) r.missing.push_back(name);
  }
  return r;
}

}  // namespace ocrforge
