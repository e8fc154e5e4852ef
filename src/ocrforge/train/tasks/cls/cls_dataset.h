// PaddleOCR's SimpleDataSet for the text direction classifier: lines
// `path<TAB>label` where the label is one of Global.label_list ("0", "180"),
// and the transforms DecodeImage -> RecAug / BaseDataAugmentation ->
// RandAugment -> ClsLabelEncode -> ClsResizeImg -> KeepKeys [image, label],
// or the self-supervised rotation task (SSLRotateResize in place of
// ClsLabelEncode and ClsResizeImg).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/train/data/dataset.h"
#include "ocrforge/train/data/rand_augment.h"
#include "ocrforge/train/data/label_list_spec.h"
#include "ocrforge/train/tasks/rec/rec_aug.h"

namespace ocrforge {

struct ClsTransformSpec {
  bool use_aug = false;                        // RecAug / BaseDataAugmentation listed and training
  RecAugParams aug;                            // BaseDataAugmentation: tia_prob 0
  bool use_rand_aug = false;                   // RandAugment listed and training
  RandAugmentParams rand_aug;
  std::array<int, 3> image_shape{3, 48, 192};  // ClsResizeImg image_shape (PaddleOCR's resize_norm_img)
  std::vector<std::string> label_list{"0", "180"};  // Global.label_list: class i is label_list[i]
  // SSLRotateResize (PaddleOCR's ssl_img_aug.py, PP-OCRv3's rotnet
  // pre-training): each image gives its turns by 0, 90, 180 and 270 degrees
  // clockwise (0 and 180 only without select_all), each resized to
  // image_shape, labelled 0, 1, 2, 3 (0, 1): image k x 3 x H x W, label k.
  // The label file's texts are not read. The batches are flattened to
  // (B * k) images by the task, PaddleOCR's SSLRotateCollate.
  bool ssl_rotate = false;
  bool ssl_select_all = true;
  bool ssl_padding = false;  // true: keep the aspect ratio and pad (RecResizeImg's rule); false: stretch
  int ssl_turns() const { return ssl_select_all ? 4 : 2; }
};

class ClsDataset : public Dataset {
 public:
  // Reads the label files (`path<delimiter>label`). Unlike PaddleOCR, which
  // silently skips a sample whose label is not in label_list, a label file
  // with such lines is refused up front: UsageError naming the file, the
  // first lines and the label list (a wrong label list or a wrong file is a
  // mistake, not noise). `random_replacement` as RecDataset's.
  ClsDataset(const LabelListSpec& list, ClsTransformSpec transforms, bool random_replacement);

  size_t size() const override { return paths_.size(); }
  const ClsTransformSpec& transforms() const { return transforms_; }
  // The class index of sample i.
  int64_t label(size_t i) const { return labels_.at(i); }

  // Tensors image (3 x H x W floats in [-1, 1], BGR, zero-padded on the
  // right) and label (int64 scalar); text is the label's name. A missing or
  // undecodable image is replaced (counted in *stats); Error after
  // kMaxAttempts failures in a row.
  Sample load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const override;

  static constexpr int kMaxAttempts = 100;

 private:
  Sample ssl_rotate_sample(const cv::Mat& img) const;

  std::vector<std::string> paths_;
  std::vector<int64_t> labels_;
  ClsTransformSpec transforms_;
  bool random_replacement_;
};

}  // namespace ocrforge
