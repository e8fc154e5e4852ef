// What a model does: Architecture.model_type of a PaddleOCR config (and
// Global.model_type of an exported inference.yml). Read here, once per
// section, into an enum; code below compares enums, never strings.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

namespace ocrforge {

enum class ModelType { Rec, Det, Cls };

// "rec", "det", "cls".
const char* model_type_name(ModelType t);

// `section`.model_type (`section` is an Architecture map or a distillation
// member, `path` its key path for messages). Absent or null: `fallback`
// (PaddleOCR's programs default to rec). UsageError naming `path`.model_type
// for another value, listing the known ones.
ModelType read_model_type(const YAML::Node& section, const std::string& path, ModelType fallback = ModelType::Rec);

}  // namespace ocrforge
