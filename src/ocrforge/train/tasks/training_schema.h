// The training layer's rows of the config schema (core/config_schema.h):
// the detection components, transforms, loss, post-processing and metric,
// each defined next to the code that reads them and added here once.
#pragma once

namespace ocrforge {

// Idempotent and thread-safe; call before a training config is read or
// validated (`ocrforge train` / `eval`, the Trainer, tests).
void register_training_schema();

}  // namespace ocrforge
