// The config keys every task's data section shares: `<Section>.loader` and the
// label-list keys of `<Section>.dataset` (data_dir, label_file_list,
// ratio_list, delimiter). Errors name the full key path. Internal to train/data.
#pragma once
#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/data/label_list_spec.h"

namespace ocrforge {

// `node` is `<Section>.loader` (may be absent: defaults). Training sections
// shuffle and drop the last partial batch by default, as PaddleOCR's configs do.
LoaderSpec loader_from_yaml(const YAML::Node& node, const std::string& path, bool training);

// `ds` is `<Section>.dataset`, `ds_path` its key path; label_file_list is required.
LabelListSpec label_list_from_yaml(const YAML::Node& ds, const std::string& ds_path, uint64_t seed);

}  // namespace ocrforge
