#include "ocrforge/infer/export_folder.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "ocrforge/core/error.h"

namespace fs = std::filesystem;

namespace ocrforge {

void apply_rec_export_folder(RecParams& rec, bool dict_given, bool shape_given) {
  std::error_code ec;
  if (rec.model_dir.empty() || !fs::is_directory(rec.model_dir, ec)) return;
  const std::string yml = (fs::path(rec.model_dir) / "inference.yml").string();
  if (!fs::exists(yml, ec)) return;
  YAML::Node loaded;
  try {
    loaded = YAML::LoadFile(yml);
  } catch (const std::exception& e) {
    throw Error("'" + yml + "' (beside the rec model) is not readable YAML: " + e.what() +
                "; export the model again with `ocrforge export`");
  }
  const YAML::Node& doc = loaded;  // const: lookups of absent keys must not insert them
  const YAML::Node type = doc["Global"] ? doc["Global"]["model_type"] : YAML::Node();
  if (type && type.IsScalar() && type.Scalar() != "rec")
    throw Error("--rec_model_dir '" + rec.model_dir + "' holds a " + type.Scalar() + " model (" + yml +
                "), not a recognizer");
  if (!dict_given) {
    const YAML::Node post = doc["PostProcess"];
    const YAML::Node chars = post && post.IsMap() ? post["character_dict"] : YAML::Node();
    if (!chars || !chars.IsSequence() || chars.size() == 0)
      throw Error("'" + yml + "' has no PostProcess.character_dict; pass the dictionary with --rec_char_dict_path");
    rec.characters.clear();
    for (const auto& c : chars) rec.characters.push_back(c.as<std::string>());
    const YAML::Node space = post["use_space_char"];
    if (space && space.IsScalar()) rec.use_space_char = space.as<bool>();
    rec.characters_source = yml;
  }
  if (!shape_given) {
    const YAML::Node ops = doc["PreProcess"] ? doc["PreProcess"]["transform_ops"] : YAML::Node();
    for (const auto& op : ops.IsSequence() ? ops : YAML::Node(YAML::NodeType::Sequence)) {
      if (!op.IsMap() || !op["RecResizeImg"] || !op["RecResizeImg"].IsMap()) continue;
      const YAML::Node shape = op["RecResizeImg"]["image_shape"];
      if (!shape || !shape.IsSequence() || shape.size() != 3) continue;
      rec.image_h = shape[1].as<int>();
      rec.image_w = shape[2].as<int>();
    }
  }
}

}  // namespace ocrforge
