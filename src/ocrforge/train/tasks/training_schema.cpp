#include "ocrforge/train/tasks/training_schema.h"

#include <mutex>

#include "ocrforge/core/config_schema.h"
#include "ocrforge/train/tasks/det/det_transform_schema.h"
#include "ocrforge/train/tasks/det/det_config_schema.h"
#include "ocrforge/train/tasks/distill/det_distill_task.h"
#include "ocrforge/train/tasks/det/det_task.h"

namespace ocrforge {

void register_training_schema() {
  static std::once_flag once;
  std::call_once(once, [] {
    schema::add_schema_variants("Architecture.Backbone", det_backbone_variants());
    schema::add_schema_variants("Architecture.Neck", det_neck_variants());
    schema::add_schema_variants("Architecture.Head", det_head_variants());
    schema::add_schema_variants("Loss", det_loss_variants());
    schema::add_schema_variants("PostProcess", det_postprocess_variants());
    schema::add_schema_variants("PostProcess", det_distill_postprocess_variants());
    schema::add_schema_variants("Metric", det_metric_variants());
    for (const char* section : {"Train.dataset.transforms", "Eval.dataset.transforms"})
      schema::add_schema_variants(section, det_transform_schema_variants());
  });
}

}  // namespace ocrforge
