#include "ocrforge/core/checkpoint_path.h"

#include <filesystem>

#include "ocrforge/core/text.h"

namespace fs = std::filesystem;

namespace ocrforge {

bool is_checkpoint_path(const std::string& path) {
  std::error_code ec;
  if (ends_with(path, ".ckpt")) return true;
  // A folder with inference.onnx is an export folder even when checkpoints
  // sit beside it: PaddleOCR's pipeline test exports into the training folder.
  return fs::is_directory(path, ec) && !fs::exists(fs::path(path) / "inference.onnx", ec) &&
         (fs::exists(fs::path(path) / "best_accuracy.ckpt", ec) || fs::exists(fs::path(path) / "latest.ckpt", ec));
}

}  // namespace ocrforge
