// Dataset + loader settings from a PaddleOCR config section (Train or Eval):
//   Train:
//     dataset: {name: SimpleDataSet, data_dir, label_file_list, ratio_list,
//               delimiter, ext_op_transform_idx (1 only), transforms: [...]}
//     loader:  {shuffle, drop_last, batch_size_per_card, num_workers}
// or dataset {name: LMDBDataSet, data_dir, (ratio_list), ext_op_transform_idx,
// transforms} (rec_lmdb_source.h), or MultiScaleDataSet with a `sampler`.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/rec/multi_scale_sampler.h"
#include "ocrforge/train/tasks/rec/rec_dataset.h"
#include "ocrforge/train/tasks/rec/rec_loader.h"

namespace ocrforge {

struct RecDataSpec {
  std::shared_ptr<RecDataset> dataset;
  LoaderSpec loader;
  // MultiScaleDataSet: its `<Section>.sampler` (the batches' sizes and batch
  // sizes; the loader's batch_size / shuffle / drop_last are then unused).
  std::optional<MultiScaleSamplerSpec> sampler;
  // What the run should tell the user about how the data is read (an LMDB
  // ratio_list that samples nothing).
  std::vector<std::string> notes;
};

// `section_name` ("Train" / "Eval") prefixes key paths in errors. `charset`
// and `max_text_length` come from Global; `seed` is Global.seed (ratio_list
// sampling). `training`: RecConAug and RecAug on (when listed) and failed
// samples replaced by a random one; otherwise both off and the next sample
// replaces.
// Relative data_dir / label files are used as written (relative to the
// working directory, as in PaddleOCR). Throws UsageError for config
// mistakes (unknown keys, dataset names other than SimpleDataSet,
// MultiScaleDataSet and LMDBDataSet (and PaddleX's aliases TextRecDataset,
// MSTextRecDataset), MultiScaleDataSet without its sampler or with ds_width,
// bad values) and Error for unreadable or malformed label files, a missing
// LMDB data_dir and unreadable LMDB environments.
RecDataSpec rec_data_from_yaml(const YAML::Node& section, const std::string& section_name, const Charset& charset,
                                int max_text_length, uint64_t seed, bool training);

}  // namespace ocrforge
