// PaddleOCR's SimpleDataSet for the text direction classifier: lines
// `path<TAB>label` where the label is one of Global.label_list ("0", "180"),
// and the transforms DecodeImage -> RecAug / BaseDataAugmentation ->
// ClsLabelEncode -> ClsResizeImg -> KeepKeys [image, label].
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ocrforge/train/data/dataset.h"
#include "ocrforge/train/data/label_list_spec.h"
#include "ocrforge/train/tasks/rec/rec_aug.h"

namespace ocrforge {

struct ClsTransformSpec {
  bool use_aug = false;                        // RecAug / BaseDataAugmentation listed and training
  RecAugParams aug;                            // BaseDataAugmentation: tia_prob 0
  std::array<int, 3> image_shape{3, 48, 192};  // ClsResizeImg image_shape (PaddleOCR's resize_norm_img)
  std::vector<std::string> label_list{"0", "180"};  // Global.label_list: class i is label_list[i]
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
  std::vector<std::string> paths_;
  std::vector<int64_t> labels_;
  ClsTransformSpec transforms_;
  bool random_replacement_;
};

}  // namespace ocrforge
