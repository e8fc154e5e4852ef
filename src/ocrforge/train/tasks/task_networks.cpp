// The checkpoint opener of the infer layer, built on the tasks (task_networks.h).
#include "ocrforge/train/tasks/task_networks.h"

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/charset.h"
#include "ocrforge/core/model_type.h"
#include "ocrforge/infer/checkpoint_networks.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/nn/torch_network.h"
#include "ocrforge/train/tasks/rec/checkpoint_ctc_branch.h"
#include "ocrforge/train/tasks/rec/rec_input_size.h"
#include "ocrforge/train/tasks/task_registry.h"

namespace ocrforge {

namespace {

const char* what_reads(const std::string& role) {
  return role == "rec" ? "a recognizer" : role == "det" ? "a detector" : "a direction classifier";
}

std::unique_ptr<Network> open_checkpoint(const std::string& path, const std::string& role, int threads) {
  const std::string file = resolve_checkpoint(path);
  const Config config = Config::from_string(read_checkpoint_config(file), file);
  const ModelType type = read_model_type(config.root()["Architecture"], "Architecture");
  if (model_type_name(type) != role)
    throw Error("'" + file + "' is a " + model_type_name(type) + " checkpoint, not " + what_reads(role) + " (use it with --" +
                model_type_name(type) + "_model_dir)");
  std::shared_ptr<Task> task = make_task(config, trainer_spec_from_config(config), torch::kCPU);
  const Task::InferenceForward f = task->inference_forward(config, file, "--" + role + "_model_dir");
  // Every tensor must fit; a MultiHead's training-only SARHead may be absent or extra.
  load_checkpoint_ctc_branch(file, task->model());
  task->to_device(torch::kCPU);
  task->model().eval();
  return std::make_unique<TorchNetwork>(file, task, f.forward, f.input_shape, f.output_shape, threads);
}

// The dictionary and input size a rec checkpoint was trained with.
void rec_checkpoint_params(const std::string& path, RecParams& rec, bool dict_given, bool shape_given) {
  const std::string file = resolve_checkpoint(path);
  const Config config = Config::from_string(read_checkpoint_config(file), file);
  if (read_model_type(config.root()["Architecture"], "Architecture") != ModelType::Rec) return;  // open() says why
  if (!dict_given) {
    rec.char_dict_path = config.get<std::string>("Global.character_dict_path", "");
    rec.use_space_char = config.get<bool>("Global.use_space_char", true);
    rec.characters.clear();
    if (rec.char_dict_path.empty()) {
      // Trained with PaddleOCR's built-in dictionary (rec_task.cpp).
      const Charset builtin = Charset::builtin_lowercase();
      for (int i = 1; i < builtin.num_classes(); ++i) rec.characters.push_back(builtin.text_of(i));
      rec.characters_source = file + " (PaddleOCR's built-in 0-9a-z: its config has no Global.character_dict_path)";
      rec.use_space_char = false;
    }
  }
  if (!shape_given) std::tie(rec.image_h, rec.image_w) = rec_input_size(config.root());
}

}  // namespace

void register_task_networks() {
  static const bool done = [] {
    register_checkpoint_networks({open_checkpoint, rec_checkpoint_params});
    return true;
  }();
  (void)done;
}

}  // namespace ocrforge
