// `ocrforge export -c CFG -o Global.pretrained_model=CKPT
// Global.save_inference_dir=OUT` (PaddleOCR's tools/export_model.py flags;
// Global.checkpoints is read too): writes OUT/inference.onnx and
// OUT/inference.yml, which
// `ocrforge ocr --rec_model_dir OUT` (or det / cls) runs. What can be
// exported today: train/export/export_model.h.
#include <iostream>

#include "commands.h"
#include "ocrforge/train/export/export_model.h"
#include "train_args.h"

namespace ocrforge {

int cmd_export(const Args& args) {
  const TrainArgs t = parse_train_args(args, "export");
  if (t.help) {
    std::cout << train_usage("export")
              << "  writes Global.save_inference_dir/inference.onnx and inference.yml from Global.checkpoints or "
                 "Global.pretrained_model\n";
    return 0;
  }
  const ExportReport r = export_inference_model(load_train_config(t), t.overwrite);
  for (const auto& n : r.notes) std::cout << "export: " << n << "\n";
  if (!r.members.empty()) {  // a distillation: one inference folder per model
    std::cout << "export: " << r.parameters << " parameter tensors read from " << r.weights_from << "\n";
    for (const auto& m : r.members)
      std::cout << "export: " << m.name << " -> " << m.onnx_path << " (passes the ONNX checker), " << m.yml_path
                << "\n";
    return 0;
  }
  std::cout << "export: " << r.onnx_path << " (" << r.parameters << " parameter tensors read from " << r.weights_from
            << "; passes the ONNX checker)\n"
            << "export: " << r.yml_path
            << " (input and output spec, pre- and post-processing; a rec model's dictionary, a cls model's labels)\n";
  return 0;
}

}  // namespace ocrforge
