// Config section -> RecDataset + LoaderSpec (rec_data_config.h).
#include "ocrforge/train/tasks/rec/rec_data_config.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_yaml.h"
#include "ocrforge/train/data/loader_config.h"
#include "ocrforge/train/tasks/rec/rec_transform_config.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

bool present(const YAML::Node& n) { return n && !n.IsNull(); }

}  // namespace

RecDataSpec rec_data_from_yaml(const YAML::Node& section, const std::string& section_name, const Charset& charset,
                                int max_text_length, uint64_t seed, bool training) {
  if (!present(section) || !section.IsMap())
    throw UsageError("config section '" + section_name + "' is missing (it needs dataset and loader)");
  const std::string ds_path = section_name + ".dataset";
  const YAML::Node ds = y::at(section, section_name, "dataset");
  if (!present(ds)) throw UsageError("config key '" + ds_path + "' is missing");
  // PaddleOCR decodes RecConAug's extra samples with transforms[:ext_op_transform_idx].
  // This pipeline decodes them with DecodeImage alone (the transform config
  // checks that it is the first transform), which is index 1; absent means
  // the same.
  if (present(y::at(ds, ds_path, "ext_op_transform_idx"))) {
    const std::string key = ds_path + ".ext_op_transform_idx";
    const int idx = y::integer(y::at(ds, ds_path, "ext_op_transform_idx"), key);
    if (idx != 1)
      throw UsageError("config key '" + key + "': only 1 is supported (RecConAug's extra samples are decoded by the "
                       "transforms before this index, which here must be DecodeImage alone); got " +
                       std::to_string(idx));
  }
  const std::string name = present(y::at(ds, ds_path, "name")) ? y::string(y::at(ds, ds_path, "name"), ds_path + ".name") : "SimpleDataSet";
  if (name != "SimpleDataSet")
    throw UsageError("config key '" + ds_path + ".name': '" + name + "' is not supported yet for "
                     "recognition: it reads SimpleDataSet label files (image path, tab, text); use SimpleDataSet");

  const LabelListSpec list = label_list_from_yaml(ds, ds_path, seed);

  RecTransformSpec transforms =
      rec_transform_spec_from_yaml(y::at(ds, ds_path, "transforms"), ds_path + ".transforms", charset, max_text_length, training);

  RecDataSpec setup;
  setup.loader = loader_from_yaml(y::at(section, section_name, "loader"), section_name + ".loader", training);
  setup.dataset = std::make_shared<RecDataset>(list, std::move(transforms), training);
  return setup;
}

}  // namespace ocrforge
