// Dataset + loader of the direction classifier from a PaddleOCR config
// section (Train or Eval), as in PaddleOCR's cls_mv3.yml:
//   transforms:
//   - DecodeImage: {img_mode: BGR, channel_first: false}
//   - ClsLabelEncode:            # label -> index in Global.label_list
//   - RecAug: / BaseDataAugmentation:
//   - RandAugment:               # data/rand_augment.h
//   - ClsResizeImg: {image_shape: [3, 48, 192]}
//   - KeepKeys: {keep_keys: [image, label]}
// or, for PP-OCRv3's rotnet, SSLRotateResize: {image_shape: [3, 48, 320]} in
// place of ClsLabelEncode and ClsResizeImg, with loader.collate_fn: SSLRotateCollate.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/tasks/cls/cls_dataset.h"

namespace ocrforge {

// `where` is the list's key path. Augmentation is used only when listed and
// `training`. UsageError for unknown names or parameters, a missing
// DecodeImage / ClsLabelEncode / ClsResizeImg (or SSLRotateResize), or a wrong order.
ClsTransformSpec cls_transform_spec_from_yaml(const YAML::Node& transforms, const std::string& where,
                                              std::vector<std::string> label_list, bool training);

struct ClsDataSpec {
  std::shared_ptr<ClsDataset> dataset;
  LoaderSpec loader;
};

// `label_list` is Global.label_list, `seed` Global.seed (ratio_list
// sampling); `training` as rec_data_from_yaml's.
ClsDataSpec cls_data_from_yaml(const YAML::Node& section, const std::string& section_name,
                                const std::vector<std::string>& label_list, uint64_t seed, bool training);

}  // namespace ocrforge
