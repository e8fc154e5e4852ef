#include "ocrforge/train/loop/checkpoint_recognizer.h"

#include <tuple>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

#include "ocrforge/core/charset.h"
#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/vision/aspect_order.h"
#include "ocrforge/train/data/rec_input_size.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/checkpoint_ctc_branch.h"
#include "ocrforge/train/models/rec_model.h"
#include "ocrforge/vision/rec_resize.h"

namespace fs = std::filesystem;

namespace ocrforge {

std::string resolve_checkpoint(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const char* name : {"best_accuracy.ckpt", "latest.ckpt"})
      if (fs::exists(fs::path(path) / name, ec)) return (fs::path(path) / name).string();
    throw Error("folder '" + path + "' holds no best_accuracy.ckpt or latest.ckpt");
  }
  return checkpoint_path(path);
}

struct CheckpointRecognizer::Impl {
  Charset charset = Charset::from_chars({}, false);
  RecModel model{nullptr};
  int height = 48, width = 320, batch_num = 6;
};

CheckpointRecognizer::CheckpointRecognizer(const std::string& checkpoint, int num_threads, int batch_num)
    : impl_(std::make_unique<Impl>()), path_(resolve_checkpoint(checkpoint)) {
  at::set_num_threads(std::max(1, num_threads));
  // The stored config is read first so the model is built to fit the weights.
  const std::string yaml = read_checkpoint_config(path_);
  const Config cfg = Config::from_string(yaml, path_);
  const std::string type = cfg.get<std::string>("Architecture.model_type", "rec");
  if (type != "rec")
    throw Error("'" + path_ + "' is a " + type + " checkpoint, not a recognizer (use it with --det_model_dir)");
  if (cfg.get<std::string>("Architecture.algorithm", "") == "Distillation")
    throw UsageError("'" + path_ + "' is a distillation checkpoint (several models); export it first: ocrforge export "
                     "-c <its config> -o Global.pretrained_model=" + path_ +
                     " Global.save_inference_dir=OUT, then --rec_model_dir OUT/Student");
  const std::string dict = cfg.get<std::string>("Global.character_dict_path", "");
  impl_->charset = Charset::load(dict, cfg.get<bool>("Global.use_space_char", true),
                                 "Global.character_dict_path in " + path_);
  // Inference reads the CTC branch: a MultiHead's training-only SARHead is not built.
  RecArchSpec spec = rec_arch_from_yaml(cfg.root()["Architecture"], impl_->charset.num_classes());
  spec.sar.reset();
  impl_->model = RecModel(spec);
  load_checkpoint_ctc_branch(path_, *impl_->model);
  impl_->model->set_channels_last(true);  // CPU: faster convolutions (rec_model.h)
  impl_->model->eval();
  // The config's RecResizeImg width is the narrowest input, as --rec_image_shape's
  // is for the ONNX recognizer, so a checkpoint and its export see the same input.
  std::tie(impl_->height, impl_->width) = rec_input_size(cfg.root());
  impl_->batch_num = std::max(1, batch_num);
}

CheckpointRecognizer::~CheckpointRecognizer() = default;

std::vector<RecText> CheckpointRecognizer::recognize(const std::vector<cv::Mat>& crops) {
  torch::NoGradGuard no_grad;
  auto& m = *impl_;
  std::vector<RecText> results(crops.size());
  const std::vector<size_t> order = order_by_aspect_ratio(crops);
  for (size_t begin = 0; begin < order.size(); begin += static_cast<size_t>(m.batch_num)) {
    const size_t end = std::min(order.size(), begin + static_cast<size_t>(m.batch_num));
    float max_ratio = static_cast<float>(m.width) / static_cast<float>(m.height);
    for (size_t i = begin; i < end; ++i) max_ratio = std::max(max_ratio, aspect_ratio(crops[order[i]]));
    const int w = static_cast<int>(static_cast<float>(m.height) * max_ratio);
    torch::Tensor batch = torch::zeros({static_cast<long>(end - begin), 3, m.height, w});
    const size_t per = static_cast<size_t>(3) * m.height * w;
    for (size_t i = begin; i < end; ++i)
      rec_resize_normalize(crops[order[i]], m.height, w, batch.data_ptr<float>() + per * (i - begin));
    torch::Tensor probs = m.model->predict(batch).contiguous();
    const int steps = static_cast<int>(probs.size(1)), classes = static_cast<int>(probs.size(2));
    for (size_t i = begin; i < end; ++i)
      results[order[i]] = ctc_greedy_decode(probs.data_ptr<float>() + (i - begin) * steps * classes, steps, classes,
                                            m.charset);
  }
  return results;
}

}  // namespace ocrforge
