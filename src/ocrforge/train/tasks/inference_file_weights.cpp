#include "ocrforge/train/tasks/inference_file_weights.h"

#include <filesystem>
#include <set>

#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/checkpoint_weight_names.h"
#include "ocrforge/train/loop/trainer_spec.h"

namespace ocrforge {

namespace {

// A checkpoint of a network built in its inference form: PPLCNetV3's fused
// LearnableRepLayers (nn/pplcnet_v3.h) are the only layers named so. A
// run resumed or exported from it must build that form again, however many
// fine-tunes ago the inference file was read.
bool checkpoint_holds_inference_form(const std::string& prefix) {
  if (!std::filesystem::exists(checkpoint_path(prefix))) return false;
  std::vector<std::string> names;
  try {
    names = checkpoint_weight_names(prefix);
  } catch (const std::exception&) {
    return false;  // loading the checkpoint reports what is wrong with it
  }
  for (const auto& n : names)
    if (n.find(".reparam_conv.") != std::string::npos) return true;
  return false;
}

}  // namespace

bool weights_from_inference_file(const TrainerSpec& o) {
  if (!o.checkpoints.empty()) return checkpoint_holds_inference_form(o.checkpoints);
  if (is_inference_onnx_file(o.pretrained_model)) return true;
  return !o.pretrained_model.empty() && checkpoint_holds_inference_form(o.pretrained_model);
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
