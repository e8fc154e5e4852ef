// Architecture.model_type (model_type.h).
#include "ocrforge/core/model_type.h"

#include "ocrforge/core/config_reads.h"
#include "ocrforge/core/error.h"

namespace ocrforge {

const char* model_type_name(ModelType t) {
  switch (t) {
    case ModelType::Rec: return "rec";
    case ModelType::Det: return "det";
    case ModelType::Cls: return "cls";
  }
  return "?";
}

ModelType read_model_type(const YAML::Node& section, const std::string& path, ModelType fallback) {
  note_config_read(path + ".model_type");
  if (!section || !section.IsMap()) return fallback;
  const YAML::Node v = section["model_type"];
  if (!v || v.IsNull()) return fallback;
  const std::string text = v.IsScalar() ? v.Scalar() : std::string("(not a word)");
  for (ModelType t : {ModelType::Rec, ModelType::Det, ModelType::Cls})
    if (text == model_type_name(t)) return t;
  throw UsageError("config key '" + path + ".model_type' must be one of rec, det, cls, got '" + text + "'");
}

}  // namespace ocrforge
