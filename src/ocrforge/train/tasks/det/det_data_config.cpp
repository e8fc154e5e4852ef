// Config section -> DetDataset + LoaderSpec (det_data_config.h).
#include "ocrforge/train/tasks/det/det_data_config.h"

#include <optional>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_yaml.h"
#include "ocrforge/train/data/loader_config.h"
#include "ocrforge/train/tasks/det/det_transform_config.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

bool present(const YAML::Node& n) { return n && !n.IsNull(); }

}  // namespace

DetDataSpec det_data_from_yaml(const YAML::Node& section, const std::string& section_name, uint64_t seed,
                                bool training) {
  if (!present(section) || !section.IsMap())
    throw UsageError("config section '" + section_name + "' is missing (it needs dataset and loader)");
  const std::string ds_path = section_name + ".dataset";
  const YAML::Node ds = y::at(section, section_name, "dataset");
  if (!present(ds)) throw UsageError("config key '" + ds_path + "' is missing");
  const std::string name = present(y::at(ds, ds_path, "name")) ? y::string(y::at(ds, ds_path, "name"), ds_path + ".name") : "SimpleDataSet";
  // TextDetDataset is PaddleX's name, which PaddleOCR's ppocr/data/__init__.py
  // defines as SimpleDataSet (PP-OCRv4's seal detection configs use it).
  if (name != "SimpleDataSet" && name != "TextDetDataset")
    throw UsageError("config key '" + ds_path + ".name': '" + name + "' is not supported yet for detection; use "
                     "SimpleDataSet (or PaddleX's TextDetDataset, the same)");

  const LabelListSpec list = label_list_from_yaml(ds, ds_path, seed);

  // PaddleOCR hands the map makers `epoch` in train mode only (Eval's ratio
  // stays as written: epoch 0 adds nothing), and rebuilds its Train data
  // every epoch when a ratio is below 1.
  std::optional<double> paddle_epoch = training ? static_cast<double>(seed) : 0.0;
  for (const double r : list.ratio_list)
    if (training && r < 1.0) paddle_epoch.reset();
  DetTransformSpec transforms =
      det_transform_spec_from_yaml(y::at(ds, ds_path, "transforms"), ds_path + ".transforms", training, paddle_epoch);

  DetDataSpec setup;
  setup.loader = loader_from_yaml(y::at(section, section_name, "loader"), section_name + ".loader", training);
  setup.dataset = std::make_shared<DetDataset>(list, std::move(transforms), training);
  return setup;
}

}  // namespace ocrforge
