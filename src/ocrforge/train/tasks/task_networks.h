// Training checkpoints read like exported models: registers with the infer
// layer (infer/checkpoint_networks.h) an opener that rebuilds a checkpoint's
// task from the config stored in it, loads the weights and hands inference
// the task's own forward (Task::inference_forward). No torch in this header:
// the ocrforge-train binary calls it at start-up.
#pragma once

namespace ocrforge {

// Idempotent.
void register_task_networks();

}  // namespace ocrforge
