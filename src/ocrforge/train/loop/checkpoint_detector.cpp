#include "ocrforge/train/loop/checkpoint_detector.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/checkpoint_recognizer.h"
#include "ocrforge/train/models/det_model.h"

namespace ocrforge {

struct CheckpointDetector::Impl {
  DetModel model{nullptr};
  DetResizeParams resize;
  DbPostParams post;
};

CheckpointDetector::CheckpointDetector(const std::string& checkpoint, int num_threads, DetResizeParams resize,
                                       DbPostParams post)
    : impl_(std::make_unique<Impl>()), path_(resolve_checkpoint(checkpoint)) {
  at::set_num_threads(std::max(1, num_threads));
  const Config cfg = Config::from_string(read_checkpoint_config(path_), path_);
  const std::string type = cfg.get<std::string>("Architecture.model_type", "rec");
  if (type != "det")
    throw Error("'" + path_ + "' is a " + type + " checkpoint, not a detector (use it with --rec_model_dir)");
  if (cfg.get<std::string>("Architecture.algorithm", "") == "Distillation")
    throw UsageError("'" + path_ + "' is a distillation checkpoint (several detectors); export it first: ocrforge "
                     "export -c <its config> -o Global.pretrained_model=" + path_ +
                     " Global.save_inference_dir=OUT, then --det_model_dir OUT/Student");
  impl_->model = DetModel(det_arch_from_yaml(cfg.root()["Architecture"]));
  load_checkpoint(path_, *impl_->model, nullptr);
  impl_->model->set_channels_last(true);  // CPU: faster convolutions
  impl_->model->eval();
  impl_->resize = resize;
  impl_->post = post;
}

CheckpointDetector::~CheckpointDetector() = default;

std::vector<TextBox> CheckpointDetector::detect(const cv::Mat& bgr) {
  torch::NoGradGuard no_grad;
  DetInput in = det_preprocess(bgr, impl_->resize);
  torch::Tensor x = torch::from_blob(in.chw.data(), {1, 3, in.size.height, in.size.width}, torch::kFloat32);
  torch::Tensor prob = impl_->model->forward(x)[0][0].contiguous();
  cv::Mat map(in.size.height, in.size.width, CV_32F, prob.data_ptr<float>());
  return db_postprocess(map, bgr.size(), impl_->post);
}

}  // namespace ocrforge
