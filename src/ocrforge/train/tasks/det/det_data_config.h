// Detection dataset + loader settings from a PaddleOCR config section (Train or Eval):
//   Train:
//     dataset: {name: SimpleDataSet, data_dir, label_file_list, ratio_list,
//               delimiter, transforms: [...]}
//     loader:  {shuffle, drop_last, batch_size_per_card, num_workers}
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <yaml-cpp/yaml.h>

#include "ocrforge/train/tasks/det/det_dataset.h"
#include "ocrforge/train/tasks/rec/rec_loader.h"  // LoaderSpec, shared by every task

namespace ocrforge {

struct DetDataSpec {
  std::shared_ptr<DetDataset> dataset;
  LoaderSpec loader;
};

// `section_name` ("Train" / "Eval") prefixes key paths in errors; `seed` is
// Global.seed (ratio_list sampling). `training` picks the transform pipeline
// and the replacement policy (det_dataset.h). Loader defaults as for
// recognition: batch_size_per_card 16, num_workers 0, shuffle and drop_last
// = training. Throws UsageError for config mistakes (unknown keys, dataset
// names other than SimpleDataSet and its PaddleX alias TextDetDataset, bad
// values) and Error for unreadable
// label files or a list with no usable line.
DetDataSpec det_data_from_yaml(const YAML::Node& section, const std::string& section_name, uint64_t seed,
                                bool training);

}  // namespace ocrforge
