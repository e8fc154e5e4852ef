// Recognition straight from a training checkpoint on LibTorch (`ocrforge
// infer rec --rec_model_dir <save_model_dir>`), so a model can be checked
// before export with the same batching and CTC decoding as the ONNX path.
// No torch types in this header: the CLI includes it without torch.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/checkpoint_path.h"  // is_checkpoint_path
#include "ocrforge/vision/ctc_decode.h"

namespace ocrforge {

// The checkpoint file `path` names: itself (".ckpt" added when missing), or
// in a folder best_accuracy.ckpt, else latest.ckpt (Error when neither).
std::string resolve_checkpoint(const std::string& path);

class CheckpointRecognizer {
 public:
  // Rebuilds the model from the config stored in the checkpoint (dictionary
  // and architecture), loads the weights; a folder uses best_accuracy.ckpt,
  // else latest.ckpt. Throws Error naming the file.
  CheckpointRecognizer(const std::string& checkpoint, int num_threads, int batch_num = 6);
  ~CheckpointRecognizer();

  // Like TextRecognizer::recognize: batches in aspect-ratio order, width =
  // H * max(W/H, widest crop) with H x W the config's RecResizeImg
  // image_shape, PaddleOCR's resize and normalisation.
  std::vector<RecText> recognize(const std::vector<cv::Mat>& crops);
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
};

}  // namespace ocrforge
