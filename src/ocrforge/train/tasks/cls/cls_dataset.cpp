// ClsDataset: label check up front, one sample's transforms with replacement
// of unreadable images (cls_dataset.h).
#include "ocrforge/train/tasks/cls/cls_dataset.h"

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/replacement.h"
#include "ocrforge/train/tasks/rec/rec_label_list.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"

namespace ocrforge {

namespace {

std::string quoted_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "'" : ", '") + x + "'";
  return "[" + s + "]";
}

}  // namespace

ClsDataset::ClsDataset(const LabelListSpec& list, ClsTransformSpec transforms, bool random_replacement)
    : transforms_(std::move(transforms)), random_replacement_(random_replacement) {
  if (transforms_.label_list.size() < 2) throw UsageError("Global.label_list needs at least two labels, e.g. ['0', '180']");
  long bad = 0;
  std::string examples;
  if (transforms_.ssl_rotate) {
    // The rotation is the label: any text (a recognition label file) will do.
    for (RecLabel& entry : read_rec_label_list(list)) {
      paths_.push_back(std::move(entry.path));
      labels_.push_back(0);
    }
    return;
  }
  for (RecLabel& entry : read_rec_label_list(list)) {
    int64_t cls = -1;
    for (size_t k = 0; k < transforms_.label_list.size(); ++k)
      if (transforms_.label_list[k] == entry.text) cls = static_cast<int64_t>(k);
    if (cls < 0) {
      if (++bad <= 3) examples += (examples.empty() ? "" : ", ") + ("'" + entry.path + "' -> '" + entry.text + "'");
      continue;
    }
    paths_.push_back(std::move(entry.path));
    labels_.push_back(cls);
  }
  if (bad > 0)
    throw UsageError(std::to_string(bad) + " lines of " + list.config_key + ".label_file_list have a label that is not in " +
                     "Global.label_list " + quoted_list(transforms_.label_list) + " (e.g. " + examples +
                     "); a classifier line is 'path<TAB>label', the label one of Global.label_list");
}

Sample ClsDataset::ssl_rotate_sample(const cv::Mat& img) const {
  const auto& shape = transforms_.image_shape;
  const int turns = transforms_.ssl_turns();
  Sample s;
  s.tensors["image"] = torch::zeros({turns, shape[0], shape[1], shape[2]}, torch::kFloat32);
  s.tensors["label"] = torch::arange(turns, torch::kInt64);
  cv::Mat turned = img;
  for (int k = 0, kept = 0; k < 4 && kept < turns; ++k) {
    if (k > 0) cv::rotate(turned, turned, cv::ROTATE_90_CLOCKWISE);
    if (!transforms_.ssl_select_all && k % 2 == 1) continue;  // PaddleOCR's [0::2]: 0 and 180 degrees
    cv::Mat src = turned;
    if (!transforms_.ssl_padding) cv::resize(turned, src, cv::Size(shape[2], shape[1]));  // stretched to H x W
    rec_resize_img(src, shape, s.tensors["image"][kept++].data_ptr<float>());
  }
  s.text = "";
  return s;
}

Sample ClsDataset::load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const {
  if (index >= paths_.size())
    throw Error("ClsDataset::load_sample: index " + std::to_string(index) + " out of range (size " +
                std::to_string(paths_.size()) + ")");
  DataStats local;
  size_t current = index;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const LoadAttempt a = load_attempt(rng_seed, attempt, current, paths_.size(), random_replacement_);
    const uint64_t seed = a.seed;
    current = a.index;
    cv::Mat img;
    const DecodeStatus ds = decode_image(paths_[current], &img);
    if (ds != DecodeStatus::kOk) {
      ++(ds == DecodeStatus::kMissing ? local.missing_images : local.undecodable);
      continue;
    }
    if (transforms_.use_aug) {
      DataRng rng(seed);
      img = rec_aug(img, transforms_.aug, rng);
    }
    if (transforms_.use_rand_aug) {
      DataRng rng(data_seed({seed, 1}));  // its own stream: adding RandAugment leaves the other draws as they were
      img = rand_augment(img, transforms_.rand_aug, rng);
    }
    const auto& shape = transforms_.image_shape;
    Sample s;
    if (transforms_.ssl_rotate) {
      s = ssl_rotate_sample(img);
      s.path = paths_[current];
      if (stats) *stats += local;
      return s;
    }
    s.tensors["image"] = torch::zeros({shape[0], shape[1], shape[2]}, torch::kFloat32);
    rec_resize_img(img, shape, s.tensors["image"].data_ptr<float>());
    s.tensors["label"] = torch::tensor(labels_[current], torch::kInt64);
    s.text = transforms_.label_list[static_cast<size_t>(labels_[current])];
    s.path = paths_[current];
    if (stats) *stats += local;
    return s;
  }
  if (stats) *stats += local;
  throw Error(std::to_string(kMaxAttempts) + " images in a row are missing or undecodable (last '" + paths_[current] +
              "'); check data_dir and the label files");
}

}  // namespace ocrforge
