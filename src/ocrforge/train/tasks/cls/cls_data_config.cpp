// Config section -> ClsDataset + LoaderSpec (cls_data_config.h). The
// pipeline's order is fixed in code; the config's list is checked against it.
#include "ocrforge/train/tasks/cls/cls_data_config.h"

#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_yaml.h"
#include "ocrforge/train/data/rand_augment.h"
#include "ocrforge/train/data/loader_config.h"
#include "ocrforge/train/tasks/rec/rec_transform_config.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

// PaddleOCR's SSLRotateResize(image_shape, padding=False, select_all=True, mode="train").
void parse_ssl_rotate_resize(const YAML::Node& p, const std::string& path, ClsTransformSpec* spec) {
  spec->ssl_rotate = true;
  spec->image_shape = parse_image_shape(p, path, "[3, 48, 320]");
  if (const YAML::Node v = y::at(p, path, "padding"); v && !v.IsNull()) spec->ssl_padding = y::boolean(v, path + ".padding");
  if (const YAML::Node v = y::at(p, path, "select_all"); v && !v.IsNull())
    spec->ssl_select_all = y::boolean(v, path + ".select_all");
  if (const YAML::Node v = y::at(p, path, "mode"); v && !v.IsNull() && y::string(v, path + ".mode") != "train")
    throw UsageError("config key '" + path + ".mode': only 'train' (every turn of each image) is read for training "
                     "and evaluation; PaddleOCR's 'test' keeps the upright image alone for prediction");
}

}  // namespace

ClsTransformSpec cls_transform_spec_from_yaml(const YAML::Node& transforms, const std::string& where,
                                              std::vector<std::string> label_list, bool training) {
  if (!transforms || !transforms.IsSequence())
    throw UsageError("config key '" + where + "': expected a list of transforms such as '- DecodeImage: ...'");
  static const std::vector<std::string> known = {"DecodeImage",  "ClsLabelEncode", "RecAug",         "BaseDataAugmentation",
                                                 "RandAugment",  "ClsResizeImg",   "SSLRotateResize", "KeepKeys"};
  ClsTransformSpec spec;
  spec.label_list = std::move(label_list);
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < transforms.size(); ++i) {
    const y::TransformEntry entry = y::transform_entry(transforms, i, where, known, &position);
    const std::string& name = entry.name;
    const std::string& path = entry.path;
    if (name == "DecodeImage") parse_decode_image(entry.params, path);
    else if (name == "RecAug") parse_rec_aug(entry.params, path, true, &spec.aug);
    else if (name == "BaseDataAugmentation") parse_rec_aug(entry.params, path, false, &spec.aug);
    else if (name == "RandAugment") spec.rand_aug = rand_augment_from_yaml(entry.params, path);
    else if (name == "ClsLabelEncode" && entry.params && !entry.params.IsNull())
      throw UsageError("config key '" + path + "' takes no parameters: it uses Global.label_list");
    else if (name == "ClsResizeImg") {
      spec.image_shape = parse_image_shape(entry.params, path, "[3, 48, 192]");
    } else if (name == "SSLRotateResize") {
      parse_ssl_rotate_resize(entry.params, path, &spec);
    } else if (name == "KeepKeys") parse_keep_keys(entry.params, path, {"image", "label"});
  }
  if (spec.ssl_rotate) {
    for (const char* other : {"ClsLabelEncode", "ClsResizeImg"})
      if (position.count(other))
        throw UsageError("in '" + where + "', SSLRotateResize labels each image by its rotation and resizes it; "
                         "remove " + other);
  }
  for (const char* required : {"DecodeImage", "ClsLabelEncode", "ClsResizeImg"})
    if (!position.count(required) && !(spec.ssl_rotate && std::string(required) != "DecodeImage"))
      throw UsageError("'" + where + "' needs a " + required + " transform");
  if (spec.ssl_rotate) position["ClsResizeImg"] = position["SSLRotateResize"];  // the resize step, for the order checks
  if (position.count("RecAug") && position.count("BaseDataAugmentation"))
    throw UsageError("in '" + where + "', list RecAug or BaseDataAugmentation, not both (RecAug is TIA + BaseDataAugmentation)");
  const std::string aug = position.count("RecAug") ? "RecAug" : "BaseDataAugmentation";
  const auto before = [&](const std::string& a, const std::string& b) {
    if (position.count(a) && position.count(b) && position[a] > position[b])
      throw UsageError("in '" + where + "', " + a + " must come before " + b);
  };
  before("DecodeImage", aug);
  before("DecodeImage", "ClsResizeImg");
  before(aug, "ClsResizeImg");
  if (position.count("KeepKeys") && position["KeepKeys"] + 1 != transforms.size())
    throw UsageError("in '" + where + "', KeepKeys must be the last transform");
  before(aug, "RandAugment");
  before("RandAugment", "ClsResizeImg");
  spec.use_aug = training && position.count(aug) > 0;
  spec.use_rand_aug = training && position.count("RandAugment") > 0;
  return spec;
}

ClsDataSpec cls_data_from_yaml(const YAML::Node& section, const std::string& section_name,
                                const std::vector<std::string>& label_list, uint64_t seed, bool training) {
  if (!section || !section.IsMap())
    throw UsageError("config section '" + section_name + "' is missing (it needs dataset and loader)");
  const std::string ds_path = section_name + ".dataset";
  const YAML::Node ds = y::at(section, section_name, "dataset");
  if (!ds || ds.IsNull()) throw UsageError("config key '" + ds_path + "' is missing");
  if (y::at(ds, ds_path, "name") && !y::at(ds, ds_path, "name").IsNull() && y::string(y::at(ds, ds_path, "name"), ds_path + ".name") != "SimpleDataSet")
    throw UsageError("config key '" + ds_path + ".name': only SimpleDataSet is supported for the classifier");
  const LabelListSpec list = label_list_from_yaml(ds, ds_path, seed);
  ClsTransformSpec transforms =
      cls_transform_spec_from_yaml(y::at(ds, ds_path, "transforms"), ds_path + ".transforms", label_list, training);
  ClsDataSpec setup;
  setup.loader = loader_from_yaml(y::at(section, section_name, "loader"), section_name + ".loader", training);
  // PaddleOCR's SSLRotateCollate flattens the turns of each image into the
  // batch; ClsTask does that for every SSLRotateResize batch.
  const std::string collate_path = section_name + ".loader.collate_fn";
  const YAML::Node collate = y::at(y::at(section, section_name, "loader"), section_name + ".loader", "collate_fn");
  const std::string collate_fn = collate && !collate.IsNull() ? y::string(collate, collate_path) : "";
  if (!collate_fn.empty() && collate_fn != "SSLRotateCollate")
    throw UsageError("config key '" + collate_path + "': '" + collate_fn + "' is not supported (known: SSLRotateCollate, "
                     "with SSLRotateResize)");
  if (transforms.ssl_rotate != (collate_fn == "SSLRotateCollate"))
    throw UsageError("config key '" + collate_path + "': SSLRotateResize and collate_fn: SSLRotateCollate go together, "
                     "as in PaddleOCR's ch_PP-OCRv3_rotnet.yml");
  if (!training) setup.loader.drop_last = false;  // evaluate every sample
  setup.dataset = std::make_shared<ClsDataset>(list, std::move(transforms), training);
  return setup;
}

}  // namespace ocrforge
