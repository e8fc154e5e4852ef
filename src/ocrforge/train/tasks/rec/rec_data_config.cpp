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
  if (name != "SimpleDataSet" && name != "MultiScaleDataSet")
    throw UsageError("config key '" + ds_path + ".name': '" + name + "' is not supported yet for "
                     "recognition: it reads SimpleDataSet label files (image path, tab, text); use SimpleDataSet "
                     "(or MultiScaleDataSet with a MultiScaleSampler)");
  const bool multi_scale = name == "MultiScaleDataSet";
  const YAML::Node sampler = y::at(section, section_name, "sampler");
  RecDataSpec setup;
  if (multi_scale) {
    if (!present(sampler))
      throw UsageError("config key '" + section_name + ".sampler' is missing: MultiScaleDataSet takes its batches' "
                       "sizes from a MultiScaleSampler (name, scales, first_bs, fix_bs, divided_factor)");
    const YAML::Node ds_width = y::at(ds, ds_path, "ds_width");
    if (present(ds_width) && y::boolean(ds_width, ds_path + ".ds_width"))
      throw UsageError("config key '" + ds_path + ".ds_width': true (batches sorted by width/height ratio, label "
                       "files with width and height columns) is not supported yet; use false");
    setup.sampler = multi_scale_sampler_from_yaml(sampler, section_name + ".sampler");
  } else if (present(sampler)) {
    throw UsageError("config key '" + section_name + ".sampler': a sampler is read only with dataset name "
                     "MultiScaleDataSet; remove it or set " + ds_path + ".name: MultiScaleDataSet");
  }

  const LabelListSpec list = label_list_from_yaml(ds, ds_path, seed);

  RecTransformSpec transforms = rec_transform_spec_from_yaml(
      y::at(ds, ds_path, "transforms"), ds_path + ".transforms", charset, max_text_length, training, multi_scale);
  // The first scale as written: the size of batches made outside the sampler
  // (none in training; it is what a multi-scale run's own size means).
  if (multi_scale) transforms.image_shape = {3, setup.sampler->scales[0].height, setup.sampler->scales[0].width};

  setup.loader = loader_from_yaml(y::at(section, section_name, "loader"), section_name + ".loader", training);
  if (transforms.keep_wide_lines && setup.loader.batch_size != 1)
    throw UsageError("config key '" + ds_path + ".transforms.RecResizeImg.eval_mode': true gives every line its own "
                     "width, so its batches hold one line (as in PaddleOCR, whose batches of several such lines "
                     "fail); set " + section_name + ".loader.batch_size_per_card: 1");
  setup.dataset = std::make_shared<RecDataset>(list, std::move(transforms), training);
  return setup;
}

}  // namespace ocrforge
