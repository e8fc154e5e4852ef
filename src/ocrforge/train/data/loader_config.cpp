// Shared data-section keys (loader_config.h).
#include "ocrforge/train/data/loader_config.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_yaml.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

bool present(const YAML::Node& n) { return n && !n.IsNull(); }

char delimiter_from_yaml(const YAML::Node& node, const std::string& path) {
  if (!present(node)) return '\t';
  const std::string d = y::string(node, path);
  if (d == "\\t" || d == "\t") return '\t';
  if (d.size() != 1) throw UsageError("config key '" + path + "': expected one character, got '" + d + "'");
  return d[0];
}

}  // namespace

LoaderSpec loader_from_yaml(const YAML::Node& node, const std::string& path, bool training) {
  LoaderSpec spec;
  spec.shuffle = training;
  spec.drop_last = training;
  // use_shared_memory is accepted for PaddleOCR configs; threads share memory anyway.
  note_config_read(path);
  if (!present(node)) return spec;
  if (!node.IsMap())
    throw UsageError("config key '" + path + "' must be a map, got " + config_detail::describe_value(node));
  if (present(y::at(node, path, "shuffle"))) spec.shuffle = y::boolean(y::at(node, path, "shuffle"), path + ".shuffle");
  if (present(y::at(node, path, "drop_last"))) spec.drop_last = y::boolean(y::at(node, path, "drop_last"), path + ".drop_last");
  if (present(y::at(node, path, "batch_size_per_card")))
    spec.batch_size = y::integer(y::at(node, path, "batch_size_per_card"), path + ".batch_size_per_card");
  if (present(y::at(node, path, "num_workers"))) spec.num_workers = y::integer(y::at(node, path, "num_workers"), path + ".num_workers");
  if (spec.batch_size < 1) throw UsageError("config key '" + path + ".batch_size_per_card' must be at least 1");
  if (spec.num_workers < 0) throw UsageError("config key '" + path + ".num_workers' must not be negative");
  return spec;
}

LabelListSpec label_list_from_yaml(const YAML::Node& ds, const std::string& ds_path, uint64_t seed) {
  LabelListSpec list;
  list.config_key = ds_path;
  list.seed = seed;
  if (present(y::at(ds, ds_path, "data_dir"))) list.data_dir = y::string(y::at(ds, ds_path, "data_dir"), ds_path + ".data_dir");
  if (!present(y::at(ds, ds_path, "label_file_list"))) throw UsageError("config key '" + ds_path + ".label_file_list' is missing");
  list.label_file_list = y::string_list(y::at(ds, ds_path, "label_file_list"), ds_path + ".label_file_list");
  if (present(y::at(ds, ds_path, "ratio_list"))) {
    const std::string rpath = ds_path + ".ratio_list";
    for (const auto& r : y::string_list(y::at(ds, ds_path, "ratio_list"), rpath)) list.ratio_list.push_back(y::number(YAML::Node(r), rpath));
  }
  list.delimiter = delimiter_from_yaml(y::at(ds, ds_path, "delimiter"), ds_path + ".delimiter");
  return list;
}

}  // namespace ocrforge
