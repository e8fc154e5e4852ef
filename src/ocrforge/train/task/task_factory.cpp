#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/trainer_options.h"
#include "ocrforge/train/task/cls_task.h"
#include "ocrforge/train/models/distillation_arch.h"
#include "ocrforge/train/task/det_distill_task.h"
#include "ocrforge/train/task/det_task.h"
#include "ocrforge/train/task/rec_distill_task.h"
#include "ocrforge/train/task/rec_task.h"
#include "ocrforge/train/task/task.h"

namespace ocrforge {

std::unique_ptr<Task> make_task(const Config& config, const TrainerOptions& options, torch::Device device) {
  const std::string model_type = config.get<std::string>("Architecture.model_type", "rec");
  const bool distillation = is_distillation_architecture(config.root()["Architecture"]);
  if (model_type == "rec") {
    if (distillation) return std::make_unique<RecDistillTask>(config, options, device);
    return std::make_unique<RecTask>(config, options, device);
  }
  if (model_type == "det") {
    const std::string algorithm = config.get<std::string>("Architecture.algorithm", "DB");
    if (distillation) return std::make_unique<DetDistillTask>(config, options, device);  // PP-OCRv3's CML
    if (algorithm != "DB" && algorithm != "ONNX")
      throw UsageError("Architecture.algorithm: '" + algorithm +
                       "' detection training is not supported yet (supported: DB, ONNX)");
    return std::make_unique<DetTask>(config, options, device);
  }
  if (model_type == "cls") {
    const std::string algorithm = config.get<std::string>("Architecture.algorithm", "CLS");
    if (algorithm != "ONNX")
      throw UsageError("Architecture.algorithm: '" + algorithm + "': the native classifier network (MobileNetV3 + "
                       "ClsHead) is not built yet; fine-tune the shipped ONNX classifier with algorithm: ONNX "
                       "(configs/cls/ch_ppocr_mobile_cls_finetune.yml)");
    return std::make_unique<ClsTask>(config, options, device);
  }
  throw UsageError("Architecture.model_type: '" + model_type + "' training is not supported yet (supported: rec, det, cls)");
}

}  // namespace ocrforge
