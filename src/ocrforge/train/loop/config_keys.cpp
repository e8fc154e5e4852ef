#include "ocrforge/train/loop/config_keys.h"

namespace ocrforge {

const std::vector<std::string>& ignored_config_keys() {
  static const std::vector<std::string> keys = {
      // PaddleOCR's logging, visualisation and inference-script keys.
      "Global.debug", "Global.use_visualdl", "Global.infer_img", "Global.infer_mode", "Global.save_res_path",
      "Global.character_type",
      // PaddleX's name for the model and PaddleOCR's profiler switch (tools/program.py `-p`).
      "Global.model_name", "profiler_options",
      // Set by PaddleOCR's launcher; ocrforge knows from its own launch.
      "Global.distributed",
      // Mixed precision: use_amp itself is read (and refused on CPU); these tune it.
      "Global.amp_level", "Global.amp_dtype", "Global.scale_loss", "Global.use_dynamic_loss_scaling",
      "Global.amp_custom_black_list", "Global.amp_custom_white_list",
      // PaddleOCR's TIPC runner passes it with every command; precision is Global.use_amp.
      "Global.auto_cast",
      // Static-graph export shape and weights of PaddleOCR 2.x.
      "Global.d2s_train_image_shape", "Global.load_static_weights",
      // Read by `ocrforge export`; no effect on training.
      "Global.save_inference_dir",
      // Refused by the c10d communicator when true; no effect on one process.
      "Global.use_sync_bn",
      // Recognition and classification decode and score the one way their task
      // defines (CTC greedy with Global's dictionary; argmax over
      // Global.label_list): these name PaddleOCR's pipeline. Detection reads
      // its PostProcess and distillation its Metric: read keys are not ignored.
      "PostProcess.name", "PostProcess.character_dict_path", "PostProcess.use_space_char", "PostProcess.label_list",
      "Metric.name", "Metric.is_filter",
      // DistillationCTCLabelDecode's output selection: the distillation decodes
      // each model's CTC output (PostProcess.model_name is read).
      "PostProcess.key", "PostProcess.multi_head",
      // The classifier trains with its one loss (ClsLoss). ClsLoss takes any
      // keyword and reads none; the rotnet config gives it main_indicator.
      "Loss.name", "Loss.main_indicator",
      // PaddleOCR overwrites a label encoder's copies with Global's, which this pipeline uses.
      "Train.dataset.transforms.MultiLabelEncode.max_text_length",
      "Train.dataset.transforms.MultiLabelEncode.character_dict_path",
      "Train.dataset.transforms.MultiLabelEncode.use_space_char",
      "Eval.dataset.transforms.MultiLabelEncode.max_text_length",
      "Eval.dataset.transforms.MultiLabelEncode.character_dict_path",
      "Eval.dataset.transforms.MultiLabelEncode.use_space_char",
      // Threads share memory anyway.
      "Train.loader.use_shared_memory", "Eval.loader.use_shared_memory",
      // In older PaddleOCR configs; its build_dataloader does not read it.
      "Train.loader.num_sections", "Eval.loader.num_sections",
  };
  return keys;
}

TrainingConfigReads::TrainingConfigReads() { scope_.emplace(reads_); }

void TrainingConfigReads::excuse(const std::string& path) { reads_.excuse(path); }

std::vector<std::string> TrainingConfigReads::finish(const Config& config) {
  scope_.reset();
  reads_.accept_ignored(ignored_config_keys());
  reads_.throw_if_unknown(config.root(), config.origin());
  return reads_.ignored_keys_present(config.root());
}

std::string ignored_keys_line(const std::vector<std::string>& keys) {
  if (keys.empty()) return "";
  std::string s;
  for (const auto& k : keys) s += (s.empty() ? "" : ", ") + k;
  return "ignored (accepted for PaddleOCR configs, no effect): " + s;
}

}  // namespace ocrforge
