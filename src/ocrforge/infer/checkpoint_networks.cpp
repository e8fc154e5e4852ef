// The checkpoint networks' registry and open_network (checkpoint_networks.h).
#include "ocrforge/infer/checkpoint_networks.h"

#include <mutex>

#include "ocrforge/core/checkpoint_path.h"
#include "ocrforge/core/error.h"
#include "ocrforge/infer/ort_model.h"

namespace ocrforge {

namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

CheckpointNetworks& registered() {
  static CheckpointNetworks n;
  return n;
}

}  // namespace

void register_checkpoint_networks(CheckpointNetworks networks) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registered() = std::move(networks);
}

bool checkpoint_networks_registered() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return static_cast<bool>(registered().open);
}

std::unique_ptr<Network> open_network(const std::string& model_dir, const RuntimeParams& rt, const std::string& role,
                                      const std::string& flag, const CalibrationSource& int8_calibration) {
  if (!is_checkpoint_path(model_dir))
    return std::make_unique<OrtModel>(model_dir, rt, role, flag, int8_calibration);
  CheckpointNetworks n;
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    n = registered();
  }
  if (!n.open)
    throw UsageError(flag + " '" + model_dir + "' is a training checkpoint, which runs in LibTorch: use ocrforge-train "
                     "(`ocrforge infer` hands checkpoints to it), or export it first (ocrforge export)");
  if (rt.precision == "int8")
    throw UsageError("--precision int8 applies to ONNX models; " + flag +
                     " names a training checkpoint, which runs in LibTorch fp32 (export it first: ocrforge export)");
  return n.open(model_dir, role, effective_threads(rt.cpu_threads));
}

void apply_rec_checkpoint(RecParams& rec, bool dict_given, bool shape_given) {
  if (!is_checkpoint_path(rec.model_dir)) return;
  CheckpointNetworks n;
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    n = registered();
  }
  if (n.rec_params) n.rec_params(rec.model_dir, rec, dict_given, shape_given);
}

}  // namespace ocrforge
