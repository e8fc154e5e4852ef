// Config section -> RecDataset + LoaderSpec (rec_data_config.h).
#include "ocrforge/train/tasks/rec/rec_data_config.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_yaml.h"
#include "ocrforge/train/data/loader_config.h"
#include "ocrforge/train/tasks/rec/rec_lmdb_source.h"
#include "ocrforge/train/tasks/rec/rec_transform_config.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

bool present(const YAML::Node& n) { return n && !n.IsNull(); }

enum class RecDatasetKind { kSimple, kMultiScale, kLmdb };

// PaddleOCR's recognition dataset names. TextRecDataset and MSTextRecDataset
// are PaddleX's names, which PaddleOCR's ppocr/data/__init__.py defines as
// SimpleDataSet and MultiScaleDataSet.
RecDatasetKind rec_dataset_kind(const std::string& name, const std::string& key) {
  if (name == "SimpleDataSet" || name == "TextRecDataset") return RecDatasetKind::kSimple;
  if (name == "MultiScaleDataSet" || name == "MSTextRecDataset") return RecDatasetKind::kMultiScale;
  if (name == "LMDBDataSet") return RecDatasetKind::kLmdb;
  throw UsageError("config key '" + key + "': '" + name + "' is not supported yet for recognition; the recognition "
                   "datasets are SimpleDataSet (label files: image path, tab, text; PaddleX's TextRecDataset), "
                   "MultiScaleDataSet with a MultiScaleSampler (PaddleX's MSTextRecDataset) and LMDBDataSet");
}

// LMDBDataSet's data_dir: it reads the LMDB environments there and, as
// PaddleOCR, no label files. PaddleOCR reads its ratio_list only to rebuild
// the loader every epoch when a ratio is below 1 and samples nothing by it:
// every record is read here too, and a ratio below 1 gets a note saying so.
std::string lmdb_dir_from_yaml(const YAML::Node& ds, const std::string& ds_path, std::vector<std::string>* notes) {
  const std::string dir_key = ds_path + ".data_dir";
  const YAML::Node dir = y::at(ds, ds_path, "data_dir");
  if (!present(dir)) throw UsageError("config key '" + dir_key + "' is missing: LMDBDataSet reads the LMDB "
                                      "environments in the folders under it");
  const YAML::Node ratios = y::at(ds, ds_path, "ratio_list");
  if (present(ratios)) {
    bool below_one = false;
    const std::string rpath = ds_path + ".ratio_list";
    for (const std::string& r : y::string_list(ratios, rpath)) {
      const double v = y::number(YAML::Node(r), rpath);
      if (!(v >= 0.0 && v <= 1.0)) throw UsageError("config key '" + ds_path + ".ratio_list': ratios must be in [0, 1]");
      below_one = below_one || v < 1.0;
    }
    if (below_one)
      notes->push_back(ds_path + ".ratio_list: LMDBDataSet reads every sample of every environment; PaddleOCR's "
                       "LMDBDataSet does not sample by ratio_list either (a ratio below 1 only rebuilds its loader "
                       "every epoch)");
  }
  return y::string(dir, dir_key);
}

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
  const RecDatasetKind kind = rec_dataset_kind(name, ds_path + ".name");
  const bool multi_scale = kind == RecDatasetKind::kMultiScale;
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

  // The keys of the samples' source are read here, its data last (after the
  // transform and loader keys): a missing data_dir or label file is an Error
  // (not a UsageError) that `check -c` reports as missing data once every
  // key was checked.
  std::optional<LabelListSpec> list;
  std::optional<std::string> lmdb_dir;
  if (kind == RecDatasetKind::kLmdb)
    lmdb_dir = lmdb_dir_from_yaml(ds, ds_path, &setup.notes);
  else
    list = label_list_from_yaml(ds, ds_path, seed);

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
  std::shared_ptr<const RecSampleSource> source;
  if (lmdb_dir)
    source = std::make_shared<RecLmdbSource>(*lmdb_dir, ds_path + ".data_dir");
  else
    source = std::make_shared<RecLabelSource>(read_rec_label_list(*list));
  setup.dataset = std::make_shared<RecDataset>(std::move(source), std::move(transforms), training);
  return setup;
}

}  // namespace ocrforge
